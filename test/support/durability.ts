/**
 * Writers that record every write the API acknowledged, and a check that each is still there after
 * the process was killed and restarted on the same data: no acknowledged write is lost
 * (docs/DESIGN.md property 4). Reusable by any test that stops the API
 * under write load (a kill, group commit, a store change).
 */
import { TsProcess } from './processes';
import { uniqueTrainee, type Version } from './trainee-input';

/**
 * The built API started as its own OS process on `dataDir` (through `prefix`, a command that runs
 * node, where given); its base URL and, on a fresh data dir, the demo token.
 */
export async function startApiProcess(
  dataDir: string,
  env: Record<string, string> = {},
  prefix: readonly string[] = [],
): Promise<{ proc: TsProcess; url: string; token: string | null }> {
  const proc = TsProcess.start('dist/apps/api/src/main.js', { DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'info', ...env }, [], prefix);
  const line = await proc.waitForLine(/trainee records API listening/);
  const token = proc.lines.map((l) => /^\s+(sandbox_[0-9a-f]{64})$/.exec(l)?.[1]).find(Boolean) ?? null;
  return { proc, url: `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`, token };
}

/** One trainee a writer made, with what it must hold. */
interface WrittenTrainee {
  version: Version;
  id: string;
  /** The first_names of the last acknowledged write, and of a PATCH sent but not answered (it may have landed). */
  firstNames: string;
  inFlightFirstNames: string | null;
  /** Placements acknowledged with 201: id and the name sent (a known URN's school name may replace it). */
  placements: { id: string; name: string }[];
}

/** What a load recorded: the acknowledged writes, and every answer of 500 or more. */
export interface DurabilityRecord {
  trainees: WrittenTrainee[];
  acknowledged: number;
  serverErrors: string[];
}

type Json = Record<string, any>;

async function send(url: string, token: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Json) : {} };
}

/**
 * Runs `writers` concurrent writers against `url` until a request fails to connect (the process is
 * gone) or `stop()` turns true: each creates a trainee, then PATCHes its first_names and POSTs a
 * placement in turn, creating another every `createEvery` requests (default 7; 1: creates only),
 * recording every 2xx in `record` as it arrives. Resolves when all have stopped.
 */
export async function runWriters(
  url: string,
  token: string,
  writers: number,
  record: DurabilityRecord,
  stop: () => boolean,
  createEvery = 7,
): Promise<void> {
  const writer = async (n: number): Promise<void> => {
    const version: Version = n % 2 === 0 ? 'v2026.1' : 'v2025.0';
    const base = `/api/${version}/trainees`;
    let trainee: WrittenTrainee | null = null;
    for (let step = 0; !stop(); step++) {
      try {
        if (!trainee || step % createEvery === 0) {
          const res = await send(url, token, 'POST', base, uniqueTrainee(version));
          if (res.status >= 500) record.serverErrors.push(`POST ${base}: ${res.status}`);
          if (res.status !== 201) continue;
          const data = res.body.data as Json;
          trainee = { version, id: data.trainee_id, firstNames: data.first_names, inFlightFirstNames: null, placements: [] };
          record.trainees.push(trainee);
        } else if (step % 2 === 0) {
          const name = `Kept${n}x${step}`.replace(/\d/g, (d) => 'abcdefghij'[Number(d)]);
          trainee.inFlightFirstNames = name;
          const res = await send(url, token, 'PATCH', `${base}/${trainee.id}`, { data: { first_names: name } });
          if (res.status >= 500) record.serverErrors.push(`PATCH ${base}/${trainee.id}: ${res.status}`);
          if (res.status !== 200) continue;
          trainee.firstNames = name;
          trainee.inFlightFirstNames = null;
        } else {
          const name = `School ${n}-${step}`;
          const res = await send(url, token, 'POST', `${base}/${trainee.id}/placements`, { data: { urn: '100001', name } });
          if (res.status >= 500) record.serverErrors.push(`POST ${base}/${trainee.id}/placements: ${res.status}`);
          if (res.status !== 201) continue;
          trainee.placements.push({ id: res.body.data.placement_id, name });
        }
        record.acknowledged += 1;
      } catch {
        return; // connection refused or reset: the process is gone
      }
    }
  };
  await Promise.all(Array.from({ length: writers }, (_, n) => writer(n)));
}

/** The acknowledged writes of `record` that the API at `url` does not answer, as sentences (empty: none lost). */
export async function missingWrites(url: string, token: string, record: DurabilityRecord): Promise<string[]> {
  const missing: string[] = [];
  for (const t of record.trainees) {
    const path = `/api/${t.version}/trainees/${t.id}`;
    const got = await send(url, token, 'GET', path);
    if (got.status !== 200) {
      missing.push(`${path}: ${got.status}`);
      continue;
    }
    const firstNames = (got.body.data as Json).first_names;
    if (firstNames !== t.firstNames && firstNames !== t.inFlightFirstNames) {
      missing.push(`${path}: first_names ${firstNames}, acknowledged ${t.firstNames}`);
    }
    const placements = ((await send(url, token, 'GET', `${path}/placements`)).body.data ?? []) as Json[];
    for (const p of t.placements) {
      if (!placements.some((q) => q.placement_id === p.id)) missing.push(`${path}/placements/${p.id} (${p.name})`);
    }
  }
  return missing;
}
