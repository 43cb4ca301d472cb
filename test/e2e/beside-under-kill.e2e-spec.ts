/**
 * Processes beside each other on one data directory, killed at random (docs/operations.md
 * "Commands beside the running service"; docs/DESIGN.md property 4): an API under write load
 * while the admin CLI erases trainees, rotates the service key, issues and revokes tokens, adds
 * webhook endpoints and takes backups, with the sqlite3 shell reading the stores, and `kill -9` of
 * the API or of a command at random moments. Afterwards every acknowledged write is there, every
 * erasure holds (key row, history, no byte of the person in any file), every rewrap is kept, every
 * token and endpoint acknowledged is as it was left, and `PRAGMA integrity_check`, `audit verify`
 * and `backup verify` pass.
 *
 * `BESIDE_ROUNDS` (default 1) sets the rounds, each about ten seconds on one data directory;
 * `BESIDE_SEED` replays a run (its seed is in every failure's message).
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wrappedKeyVersion } from '@app/personal-data';
import { AdminWorker, type CliResult } from '../support/admin-cli';
import { allFilesText } from '../support/data-dir-files';
import { dataKeyRow, sqliteShellReading } from '../support/beside';
import { missingWrites, runWriters, startApiProcess, type DurabilityRecord } from '../support/durability';
import { ensureBuilt, inheritedEnv, ROOT } from '../support/processes';
import { uniqueTrainee } from '../support/trainee-input';

const ROUNDS = Number(process.env.BESIDE_ROUNDS ?? 1);
const SEED = Number(process.env.BESIDE_SEED ?? Date.now() % 2 ** 31);
const UKPRN = '10000001';

/** mulberry32: the run's random choices, replayable from {@link SEED}. */
function randomFrom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = randomFrom(SEED);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An admin command as its own process, which the run may kill: its result, and whether it was killed before it ended. */
function adminCommand(
  args: string[],
  dataDir: string,
  env: Record<string, string>,
  killAfterMs: number | null,
): Promise<CliResult & { killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/apps/admin/src/main.js'), ...args], {
      cwd: ROOT,
      env: { ...inheritedEnv(), DATA_DIR: dataDir, APP_ENV: 'sandbox', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    const timer = killAfterMs === null ? null : setTimeout(() => (killed = child.kill('SIGKILL')), killAfterMs);
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr, killed: killed && signal === 'SIGKILL' });
    });
  });
}

/** What the operator's commands were acknowledged for (exit 0), and what was killed midway. */
interface Operations {
  erasures: { id: string; lastName: string; done: boolean }[];
  /** A rotation that exited 0: the version it made current, and the trainees acknowledged before it began. */
  rotations: { version: number; before: string[] }[];
  rotationKilled: boolean;
  tokens: { id: string; token: string; revoked: boolean }[];
  endpoints: string[];
  backups: string[];
  failures: string[];
}

/**
 * The admin CLI loaded once in a process of its own, for the checks after a round; the operator's
 * commands, which the run may kill, each start the program ({@link adminCommand}).
 */
const admin = AdminWorker.forFile();

describe('processes beside the API, killed at random', () => {
  let dir: string;
  let backups: string;
  let api: Awaited<ReturnType<typeof startApiProcess>> | null = null;
  let token: string;

  beforeAll(() => {
    ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'beside-kill-'));
    backups = mkdtempSync(join(tmpdir(), 'beside-kill-backups-'));
  }, 180_000);
  afterAll(async () => {
    await api?.proc.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    rmSync(backups, { recursive: true, force: true });
  });

  it(
    `loses no acknowledged write, erasure, rewrap, token or endpoint (seed ${SEED}, ${ROUNDS} round(s))`,
    async () => {
      api = await startApiProcess(dir);
      token = api.token!;
      const record: DurabilityRecord = { trainees: [], acknowledged: 0, serverErrors: [] };
      for (let round = 0; round < ROUNDS; round++) {
        const ops: Operations = {
          erasures: [],
          rotations: [],
          rotationKilled: false,
          tokens: [],
          endpoints: [],
          backups: [],
          failures: [],
        };
        const acknowledged = record.acknowledged;
        await runRound(round, record, ops);
        await api.proc.stop('SIGTERM');
        await settleKilledCommands(ops);
        const problems = [...ops.failures, ...(await storedProblems(ops))];
        api = await startApiProcess(dir);
        problems.push(...(await servedProblems(record, ops)));
        expect({ seed: SEED, round, problems, serverErrors: record.serverErrors }).toEqual({
          seed: SEED,
          round,
          problems: [],
          serverErrors: [],
        });
        expect(record.acknowledged).toBeGreaterThan(acknowledged);
      }
    },
    60_000 + ROUNDS * 60_000,
  );

  /** One round: load, the operator's commands, and the API killed and started again once at a random moment. */
  async function runRound(round: number, record: DurabilityRecord, ops: Operations): Promise<void> {
    const pool = await createToErase(3, round);
    let stop = false;
    let writers = startWriters(record, () => stop);
    const stopReading = sqliteShellReading(join(dir, 'keys.sqlite'));
    const operator = operate(pool, round, ops);
    await sleep(500 + random() * 3_000);
    await api!.proc.stop('SIGKILL');
    await writers;
    api = await startApiProcess(dir);
    writers = startWriters(record, () => stop);
    await operator;
    await sleep(500);
    stop = true;
    await writers;
    await stopReading();
  }

  function startWriters(record: DurabilityRecord, stop: () => boolean): Promise<unknown> {
    return Promise.all([runWriters(api!.url, token, 3, record, stop), runWriters(api!.url, token, 2, record, stop, 1)]);
  }

  /** `n` trainees for the operator to erase, each with a last name found nowhere else. */
  async function createToErase(n: number, round: number): Promise<{ id: string; lastName: string }[]> {
    const made: { id: string; lastName: string }[] = [];
    for (let i = 0; i < n; i++) {
      const lastName = `Zorvath${'abcdefghij'[round % 10]}${'klmnopqrst'[i]}${SEED.toString(36).replace(/\d/g, 'x')}`;
      const res = await fetch(`${api!.url}/api/v2026.1/trainees`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `erase-${SEED}-${round}-${i}` },
        body: JSON.stringify(uniqueTrainee('v2026.1', { last_name: lastName })),
      });
      expect(res.status).toBe(201);
      made.push({ id: ((await res.json()) as { data: { trainee_id: string } }).data.trainee_id, lastName });
    }
    return made;
  }

  /** The operator's commands of a round, one after another in a random order, each killed at a random moment one time in four. */
  async function operate(pool: { id: string; lastName: string }[], round: number, ops: Operations): Promise<void> {
    const env = { BACKUP_DIR: backups };
    const kill = () => (random() < 0.25 ? 50 + Math.floor(random() * 1_500) : null);
    const steps: (() => Promise<void>)[] = [
      ...pool.map((t) => async () => {
        const r = await adminCommand(['trainee', 'erase', t.id, '--reason', `Request ${round}`], dir, env, kill());
        ops.erasures.push({ ...t, done: r.code === 0 });
        if (r.code !== 0 && !r.killed) ops.failures.push(`trainee erase exited ${r.code}: ${r.stderr.trim()}`);
      }),
      async () => {
        const before = (await trainees()).filter((id) => !ops.erasures.some((e) => e.id === id));
        const r = await adminCommand(['keys', 'rotate'], dir, env, kill());
        const version = /Version (\d+) is current/.exec(r.stdout)?.[1];
        if (r.code === 0 && version) ops.rotations.push({ version: Number(version), before });
        else if (r.killed) ops.rotationKilled = true;
        else ops.failures.push(`keys rotate exited ${r.code}: ${r.stderr.trim()}`);
      },
      async () => {
        const r = await adminCommand(['token', 'issue', '--ukprn', UKPRN], dir, env, kill());
        const id = /Token ([0-9a-f-]{36}) issued/.exec(r.stdout)?.[1];
        const issued = r.stdout.trim().split('\n').pop() ?? '';
        if (r.code === 0 && id) ops.tokens.push({ id, token: issued, revoked: false });
        else if (!r.killed) ops.failures.push(`token issue exited ${r.code}: ${r.stderr.trim()}`);
      },
      async () => {
        const issued = ops.tokens.find((t) => !t.revoked);
        if (!issued) return;
        const r = await adminCommand(['token', 'revoke', '--token-id', issued.id], dir, env, kill());
        if (r.code === 0) issued.revoked = true;
        else if (!r.killed) ops.failures.push(`token revoke exited ${r.code}: ${r.stderr.trim()}`);
      },
      async () => {
        const r = await adminCommand(['webhook', 'add', '--ukprn', UKPRN, '--url', 'http://127.0.0.1:9/hooks'], dir, env, kill());
        const id = /Webhook endpoint (wh_[0-9a-f]+) added/.exec(r.stdout)?.[1];
        if (r.code === 0 && id) ops.endpoints.push(id);
        else if (!r.killed) ops.failures.push(`webhook add exited ${r.code}: ${r.stderr.trim()}`);
      },
      async () => {
        const out = join(backups, `round-${round}`);
        const r = await adminCommand(['backup', 'create', '--output', out], dir, env, kill());
        if (r.code === 0) ops.backups.push(out);
        else if (!r.killed) ops.failures.push(`backup create exited ${r.code}: ${r.stderr.trim()}`);
      },
    ];
    const order = shuffled(steps);
    const lane = async (from: number) => {
      for (let i = from; i < order.length; i += 2) await order[i]();
    };
    await Promise.all([lane(0), lane(1)]);
  }

  /** Commands killed midway run again to their end, as the operator would: erasures finished, a rotation resumed. */
  async function settleKilledCommands(ops: Operations): Promise<void> {
    const env = { BACKUP_DIR: backups };
    for (const e of ops.erasures.filter((x) => !x.done)) {
      const r = await admin.run(['trainee', 'erase', e.id, '--reason', 'Request again'], dir, env);
      if (r.code === 0) e.done = true;
      else ops.failures.push(`trainee erase run again exited ${r.code}: ${r.stderr.trim()}`);
    }
    if (ops.rotationKilled) {
      const r = await admin.run(['keys', 'rotate', '--resume'], dir, env);
      if (r.code !== 0) ops.failures.push(`keys rotate --resume exited ${r.code}: ${r.stderr.trim()}`);
    }
  }

  /** What the stores hold, the API stopped: erasures, rewraps, integrity, the chains, the last backup. */
  async function storedProblems(ops: Operations): Promise<string[]> {
    const problems: string[] = [];
    const text = allFilesText(dir);
    for (const e of ops.erasures) {
      const row = dataKeyRow(dir, e.id);
      if (!row || row.wrapped || row.erasedAt === null) problems.push(`erased trainee ${e.id}: key row ${JSON.stringify(row)}`);
      if (text.includes(e.lastName)) problems.push(`erased trainee ${e.id}: its last name is in a file of DATA_DIR`);
    }
    // The history opens sealed values with the key store's keys, which the rows above show; one is read to see it.
    const shown = ops.erasures[Math.floor(random() * ops.erasures.length)];
    if (shown) {
      const history = await admin.run(['trainee', 'history', shown.id, '--json'], dir);
      if (history.code !== 0 || history.stdout.includes(shown.lastName) || !history.stdout.includes('[erased]')) {
        problems.push(`erased trainee ${shown.id}: history exited ${history.code} or shows its last name`);
      }
    }
    const versions = keyVersions();
    for (const r of ops.rotations) {
      const left = r.before.filter((id) => versions.has(id) && versions.get(id)! < r.version);
      if (left.length > 0) problems.push(`${left.length} data keys wrapped before version ${r.version} after its rotation`);
    }
    for (const f of readdirSync(dir).filter((name) => name.endsWith('.sqlite'))) {
      const db = new Database(join(dir, f), { readonly: true });
      const check = db.pragma('integrity_check', { simple: true });
      db.close();
      if (check !== 'ok') problems.push(`${f}: integrity_check ${String(check)}`);
    }
    const audit = await admin.run(['audit', 'verify'], dir);
    if (audit.code !== 0) problems.push(`audit verify exited ${audit.code}: ${audit.stdout.slice(-300)} ${audit.stderr.slice(-300)}`);
    const last = ops.backups.at(-1);
    if (last) {
      const verified = await admin.run(['backup', 'verify', last], dir);
      if (verified.code !== 0) problems.push(`backup verify ${last} exited ${verified.code}: ${verified.stderr.slice(-300)}`);
    }
    return problems;
  }

  /** What the restarted API answers: every acknowledged write, erased trainees gone, tokens and endpoints as left. */
  async function servedProblems(record: DurabilityRecord, ops: Operations): Promise<string[]> {
    const problems = await missingWrites(api!.url, token, record);
    for (const e of ops.erasures) {
      const res = await fetch(`${api!.url}/api/v2026.1/trainees/${e.id}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 404) problems.push(`erased trainee ${e.id} answered ${res.status}`);
    }
    for (const t of ops.tokens) {
      const res = await fetch(`${api!.url}/api/v2026.1/info`, { headers: { authorization: `Bearer ${t.token}` } });
      if (res.status !== (t.revoked ? 401 : 200)) problems.push(`token ${t.id} (revoked: ${t.revoked}) answered ${res.status}`);
    }
    const listed = await admin.run(['webhook', 'list', '--ukprn', UKPRN], dir);
    for (const id of ops.endpoints) if (!listed.stdout.includes(id)) problems.push(`webhook endpoint ${id} is not listed`);
    return problems;
  }

  /** The trainee ids of the key store's living data keys. */
  async function trainees(): Promise<string[]> {
    return [...keyVersions().keys()];
  }

  /** The version each living data key is wrapped under, by trainee id. */
  function keyVersions(): Map<string, number> {
    const db = new Database(join(dir, 'keys.sqlite'), { readonly: true });
    try {
      const rows = db.prepare('SELECT trainee_id, wrapped FROM data_keys WHERE wrapped IS NOT NULL').all() as {
        trainee_id: string;
        wrapped: Buffer;
      }[];
      return new Map(rows.map((r) => [r.trainee_id, wrappedKeyVersion(r.wrapped) ?? 0]));
    } finally {
      db.close();
    }
  }
});

/** `items` in an order drawn from the run's random source. */
function shuffled<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
