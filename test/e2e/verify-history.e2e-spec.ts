/**
 * examples/verify-history.mjs (docs/operations.md "Verifying the history"): the standalone check an
 * auditor runs on one trainee's history against the latest signed digest, with Node.js alone. It
 * verifies a real history fetched from the API (and the same saved to files, and the admin CLI's
 * JSON lines), and rejects a history or a digest changed after it was fetched, a digest signed by
 * another key than the one given, a history rewritten under a digest its forger signed (unanchored
 * without a key given), another trainee's history, and an event stripped of its chain keys.
 */
import { generateKeyPairSync, createHash, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminWorker, runNode } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';
import { chainEvent, readChainKeys } from '@app/event-sourcing';
import { VERSION_1_STREAM, VERSION_1_STREAM_ID } from '@app/event-sourcing/testing/version-1-stream';

/** The admin CLI, loaded once in a process of its own for this file (test/support/admin-cli.ts). */
const admin = AdminWorker.forFile();

const SCRIPT = join(__dirname, '..', '..', 'examples', 'verify-history.mjs');

const verifyHistory = (args: string[]) => runNode([SCRIPT, ...args]);

/** A history entry as the API answers it, with the fields a forger rewrites. */
interface Entry {
  revision: number;
  stream_id: string;
  event_id: string;
  event_type: string;
  stored_data: string;
  stored_metadata: string;
  hash: string | null;
  previous_hash: string | null;
}

const sha256Hex = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** The lines of a run that name a fault. */
const failLines = (stdout: string) => stdout.split('\n').filter((l) => l.startsWith('FAIL'));

/** The entries of a saved history (`--save`'s history.json: an array of pages). */
const savedEntries = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { data: Entry[] }[]).flatMap((p) => p.data);

/**
 * A forger's rewrite: `entries` with `target`'s stored data changed and every hash from it on
 * computed afresh (the rule of docs/DESIGN.md "Verifiable history"), and a digest answer over a tree
 * of that one stream, signed with a key of the forger's own. Everything in it holds but the key.
 */
function forgedEvidence(entries: Entry[], answer: { data: Record<string, unknown> }, target: number) {
  const forged = structuredClone(entries);
  let previous: string | null = null;
  for (const e of forged) {
    if (e.revision === target) e.stored_data = e.stored_data.replace('"first_names"', '"first_Names"');
    const metadata = e.stored_metadata.replace(/,"previousHash":(null|"[0-9a-f]{64}"),"hash":"[0-9a-f]{64}"\}$/, '}');
    const withPrevious = `${metadata.slice(0, -1)},"previousHash":${previous === null ? 'null' : `"${previous}"`}}`;
    // Version 2 of the rule, as the service chains every event now.
    const header = [
      'chain/2',
      previous,
      e.stream_id,
      e.revision,
      e.event_type,
      e.event_id,
      (JSON.parse(withPrevious) as { occurredAt: string }).occurredAt,
      Buffer.byteLength(e.stored_data),
      Buffer.byteLength(withPrevious),
    ];
    const hash = sha256Hex(`${JSON.stringify(header)}\n${e.stored_data}${withPrevious}`);
    Object.assign(e, { stored_metadata: `${withPrevious.slice(0, -1)},"hash":"${hash}"}`, hash, previous_hash: previous });
    previous = hash;
  }
  return { history: { data: forged }, digest: { data: selfSigned(answer, forged[forged.length - 1]) } };
}

/** A digest over a tree of the one stream whose head is `head`, signed with a key of its maker's own (as `answer` otherwise). */
function selfSigned(answer: { data: Record<string, unknown> }, head: Pick<Entry, 'stream_id' | 'revision' | 'hash'>) {
  const root = sha256Hex(Buffer.concat([Buffer.of(0), Buffer.from(JSON.stringify([head.stream_id, head.revision, head.hash]))]));
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const fields = { format: 'trainee-records-audit-digest/1', position: answer.data.position, time: answer.data.time, streams: 1, root };
  const message = Buffer.from(JSON.stringify([fields.format, fields.position, fields.time, fields.streams, fields.root]));
  const x = String(publicKey.export({ format: 'jwk' }).x);
  const digest = {
    ...answer.data,
    ...fields,
    public_key: { kty: 'OKP', crv: 'Ed25519', x },
    signature: sign(null, message, privateKey).toString('base64'),
    key_fingerprint: sha256Hex(Buffer.from(x, 'base64url')),
    inclusion: { stream_id: head.stream_id, revision: head.revision, hash: head.hash, leaf_index: 0, tree_size: 1, audit_path: [] },
  };
  return digest;
}

/** {@link VERSION_1_STREAM} as history entries show it. */
const version1Entries = (): Entry[] =>
  VERSION_1_STREAM.map((e) => ({
    revision: e.revision,
    stream_id: e.streamId,
    event_id: e.id,
    event_type: e.type,
    stored_data: e.data,
    stored_metadata: e.metadata,
    hash: readChainKeys(e.metadata).hash,
    previous_hash: readChainKeys(e.metadata).previousHash ?? null,
  }));

describe('examples/verify-history.mjs', () => {
  let api: RunningApi;
  let token: string;
  let id: string;
  let saved: string;
  let fingerprint: string;
  let otherId: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000140');
    const base = '/api/v2026.1/trainees';
    const created = await api.request('POST', base, token, uniqueTrainee('v2026.1'));
    expect(created.status).toBe(201);
    id = (created.body as { data: { trainee_id: string } }).data.trainee_id;
    for (const name of ['Ada', 'Grace'])
      expect((await api.request('PATCH', `${base}/${id}`, token, { data: { first_names: name } })).status).toBe(200);
    const other = await api.request('POST', base, token, uniqueTrainee('v2026.1'));
    expect(other.status).toBe(201);
    otherId = (other.body as { data: { trainee_id: string } }).data.trainee_id;
    const signed = await admin.run(['audit', 'digest', '--by', 'auditor'], api.dataDir);
    expect(signed.code).toBe(0);
    fingerprint = /key fingerprint ([0-9a-f]{64})/.exec(signed.stderr)![1];
    expect((await api.request('PATCH', `${base}/${id}`, token, { data: { first_names: 'Edith' } })).status).toBe(200);
    saved = mkdtempSync(join(tmpdir(), 'verify-history-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(saved, { recursive: true, force: true });
  });

  it('imports nothing but Node.js itself', () => {
    const imports = [...readFileSync(SCRIPT, 'utf8').matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
    expect(imports.length).toBeGreaterThan(0);
    expect(imports.filter((m) => !m.startsWith('node:'))).toEqual([]);
  });

  it('verifies the history the API answers against the latest digest, signed by the key given', async () => {
    const run = await verifyHistory([
      '--api',
      api.baseUrl,
      '--token',
      token,
      '--trainee',
      id,
      '--fingerprint',
      fingerprint,
      '--save',
      saved,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`trainee-${id}: `);
    expect(run.stdout).toContain('every hash holds and chains from revision 0');
    expect(run.stdout).toContain('1 later event(s) chain to it but no digest covers them yet');
    expect(run.stdout).toContain(`signed by the key with fingerprint ${fingerprint}, the one you gave`);
  });

  it('verifies the same from saved files, and from the admin CLI’s JSON lines', async () => {
    const files = ['--digest', join(saved, 'digest.json'), '--history', join(saved, 'history.json')];
    expect((await verifyHistory([...files, '--fingerprint', fingerprint])).code).toBe(0);
    expect((await verifyHistory([...files, '--trainee', id.toUpperCase(), '--fingerprint', fingerprint])).code).toBe(0);
    const lines = await admin.run(['trainee', 'history', id, '--json'], api.dataDir);
    expect(lines.code).toBe(0);
    const cli = join(saved, 'history.jsonl');
    writeFileSync(cli, lines.stdout);
    expect((await verifyHistory(['--digest', join(saved, 'digest.json'), '--history', cli, '--fingerprint', fingerprint])).code).toBe(0);
  });

  it('rejects a history one byte of whose stored data changed, or with an event left out', async () => {
    const pages = JSON.parse(readFileSync(join(saved, 'history.json'), 'utf8')) as { data: { stored_data: string; revision: number }[] }[];
    const entries = pages.flatMap((p) => p.data);
    const changed = structuredClone(entries);
    const target = changed.find((e) => e.stored_data.includes('"first_names"'))!;
    target.stored_data = target.stored_data.replace('"first_names"', '"first_Names"');
    writeFileSync(join(saved, 'changed.json'), JSON.stringify({ data: changed }));
    const altered = await verifyHistory(['--digest', join(saved, 'digest.json'), '--history', join(saved, 'changed.json')]);
    expect(altered.code).toBe(1);
    // One fault, one line: the events after it chain to the hash it was stored with, as `admin audit verify` says.
    expect(altered.stdout.split('\n').filter((l) => l.startsWith('FAIL'))).toEqual([
      `FAIL revision ${target.revision}: altered (its stored form does not make its hash)`,
    ]);
    expect(changed.length).toBeGreaterThan(target.revision + 2);

    writeFileSync(join(saved, 'short.json'), JSON.stringify({ data: entries.filter((e) => e.revision !== 1) }));
    const short = await verifyHistory(['--digest', join(saved, 'digest.json'), '--history', join(saved, 'short.json')]);
    expect(short.code).toBe(1);
    expect(short.stdout.split('\n').filter((l) => l.startsWith('FAIL'))).toEqual([
      'FAIL revision 1: missing (the history goes on at revision 2)',
    ]);
  });

  it('rejects a digest whose root was changed, and one signed by a key other than the one given', async () => {
    const answer = JSON.parse(readFileSync(join(saved, 'digest.json'), 'utf8')) as { data: { root: string } };
    answer.data.root = answer.data.root.replace(/^./, (c) => (c === '0' ? '1' : '0'));
    writeFileSync(join(saved, 'forged-digest.json'), JSON.stringify(answer));
    const forged = await verifyHistory(['--digest', join(saved, 'forged-digest.json'), '--history', join(saved, 'history.json')]);
    expect(forged.code).toBe(1);
    expect(forged.stdout).toContain('FAIL the digest’s signature does not hold');

    const other = await verifyHistory([
      '--digest',
      join(saved, 'digest.json'),
      '--history',
      join(saved, 'history.json'),
      '--fingerprint',
      'ab'.repeat(32),
    ]);
    expect(other.code).toBe(1);
    expect(other.stdout).toContain(`FAIL the digest was signed by key ${fingerprint}, not ${'ab'.repeat(32)}`);
  });

  it('exits 3, unanchored, without --fingerprint, even when everything else holds', async () => {
    const run = await verifyHistory(['--digest', join(saved, 'digest.json'), '--history', join(saved, 'history.json')]);
    expect(run.code).toBe(3);
    expect(failLines(run.stdout)).toEqual([]);
    expect(run.stdout).toContain(`UNANCHORED: signed by the key with fingerprint ${fingerprint}, which the digest itself carries`);
  });

  it('refuses a rewritten history under a digest its forger signed: unanchored without a key, failed with the trusted one', async () => {
    const answer = JSON.parse(readFileSync(join(saved, 'digest.json'), 'utf8')) as { data: Record<string, unknown> };
    const { history, digest } = forgedEvidence(savedEntries(join(saved, 'history.json')), answer, 1);
    writeFileSync(join(saved, 'forged-history.json'), JSON.stringify(history));
    writeFileSync(join(saved, 'self-signed.json'), JSON.stringify(digest));
    const files = ['--digest', join(saved, 'self-signed.json'), '--history', join(saved, 'forged-history.json')];
    const unanchored = await verifyHistory(files);
    expect(unanchored.code).toBe(3);
    expect(unanchored.stdout).toContain(`UNANCHORED: signed by the key with fingerprint ${digest.data.key_fingerprint}`);
    const anchored = await verifyHistory([...files, '--fingerprint', fingerprint]);
    expect(anchored.code).toBe(1);
    expect(failLines(anchored.stdout)).toEqual([`FAIL the digest was signed by key ${digest.data.key_fingerprint}, not ${fingerprint}`]);
  });

  it('rejects a history whose event id was changed (the hash covers it)', async () => {
    const entries = savedEntries(join(saved, 'history.json'));
    const changed = structuredClone(entries);
    changed[1].event_id = '00000000-0000-4000-8000-000000000000';
    writeFileSync(join(saved, 'other-id.json'), JSON.stringify({ data: changed }));
    const run = await verifyHistory(['--digest', join(saved, 'digest.json'), '--history', join(saved, 'other-id.json')]);
    expect(run.code).toBe(1);
    expect(failLines(run.stdout)).toEqual(['FAIL revision 1: altered (its stored form does not make its hash)']);
  });

  it('verifies a history chained by version 1 of the rule (literal old events) and going on by version 2, never the reverse', async () => {
    const answer = JSON.parse(readFileSync(join(saved, 'digest.json'), 'utf8')) as { data: Record<string, unknown> };
    delete answer.data.trainee_id;
    const old = version1Entries();
    const text = { streamId: VERSION_1_STREAM_ID, revision: 3, id: 'e3', type: 'TraineeUpdated', data: '{"n":3}', metadata: '{}' };
    const next = chainEvent(old[2].hash, text);
    const mixed = [
      ...old,
      {
        ...old[2],
        revision: 3,
        event_id: 'e3',
        event_type: text.type,
        stored_data: text.data,
        stored_metadata: next.metadata,
        hash: next.hash,
        previous_hash: old[2].hash,
      },
    ];
    for (const [name, entries] of [
      ['old', old],
      ['mixed', mixed],
    ] as const) {
      writeFileSync(join(saved, `${name}.json`), JSON.stringify({ data: entries }));
      writeFileSync(join(saved, `${name}-digest.json`), JSON.stringify({ data: selfSigned(answer, entries[entries.length - 1]) }));
      const run = await verifyHistory([
        '--digest',
        join(saved, `${name}-digest.json`),
        '--history',
        join(saved, `${name}.json`),
        '--trainee',
        'T1',
      ]);
      expect(failLines(run.stdout)).toEqual([]);
      expect(run.code).toBe(3); // every check held, against the key the digest carries
    }
    // The reverse: version 2 at revision 0, then the old events chained to it by version 1.
    const first = chainEvent(null, { ...VERSION_1_STREAM[0], metadata: VERSION_1_STREAM[0].metadata.replace(/,"previousHash".*$/, '}') });
    const reverse = [{ ...old[0], stored_metadata: first.metadata, hash: first.hash }, ...old.slice(1)];
    writeFileSync(join(saved, 'reverse.json'), JSON.stringify({ data: reverse }));
    writeFileSync(join(saved, 'reverse-digest.json'), JSON.stringify({ data: selfSigned(answer, reverse[2]) }));
    const run = await verifyHistory([
      '--digest',
      join(saved, 'reverse-digest.json'),
      '--history',
      join(saved, 'reverse.json'),
      '--trainee',
      'T1',
    ]);
    expect(run.code).toBe(1);
    expect(failLines(run.stdout)).toContain('FAIL revision 1: altered (chained by version 1 of the rule, after events of version 2)');
  });

  it('refuses another trainee’s history and proof for the trainee asked about', async () => {
    const dir = join(saved, 'other');
    const own = await verifyHistory([
      '--api',
      api.baseUrl,
      '--token',
      token,
      '--trainee',
      otherId,
      '--fingerprint',
      fingerprint,
      '--save',
      dir,
    ]);
    expect(own.code).toBe(0);
    const answer = JSON.parse(readFileSync(join(dir, 'digest.json'), 'utf8')) as { data: Record<string, unknown> };
    delete answer.data.trainee_id;
    writeFileSync(join(dir, 'unnamed-digest.json'), JSON.stringify(answer));
    const files = ['--history', join(dir, 'history.json'), '--trainee', id, '--fingerprint', fingerprint];
    const swapped = await verifyHistory(['--digest', join(dir, 'unnamed-digest.json'), ...files]);
    expect(swapped.code).toBe(1);
    expect(failLines(swapped.stdout)).toEqual([
      `FAIL the history holds events of trainee-${otherId}, not of the trainee asked about (${id})`,
    ]);
    const named = await verifyHistory(['--digest', join(dir, 'digest.json'), ...files]);
    expect(named.code).toBe(1);
    expect(failLines(named.stdout)).toContain(`FAIL the digest answer is of trainee ${otherId}, not ${id}`);
  });

  it('calls an event without a hash after chained ones altered, in one line, as the server’s check does', async () => {
    const entries = savedEntries(join(saved, 'history.json'));
    const stripped = entries.map((e) =>
      e.revision !== 1
        ? e
        : {
            ...e,
            stored_metadata: e.stored_metadata.replace(/,"previousHash":(null|"[0-9a-f]{64}"),"hash":"[0-9a-f]{64}"\}$/, '}'),
            hash: null,
            previous_hash: null,
          },
    );
    expect(stripped[1].stored_metadata).not.toBe(entries[1].stored_metadata);
    writeFileSync(join(saved, 'unchained.json'), JSON.stringify({ data: stripped }));
    const run = await verifyHistory([
      '--digest',
      join(saved, 'digest.json'),
      '--history',
      join(saved, 'unchained.json'),
      '--fingerprint',
      fingerprint,
    ]);
    expect(run.code).toBe(1);
    expect(failLines(run.stdout)).toEqual(['FAIL revision 1: altered (it has no hash, though the events before it are chained)']);
  });

  it('says how to call it, and what its exit codes mean, when its arguments are missing or asked for', async () => {
    const run = await verifyHistory([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('usage: verify-history.mjs');
    const help = await verifyHistory(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 .*\n {2}3 {2}unanchored/);
  });
});
