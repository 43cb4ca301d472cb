/**
 * examples/verify-history.mjs (docs/operations.md "Verifying the history"): the standalone check an
 * auditor runs on one trainee's history against the latest signed digest, with Node.js alone. It
 * verifies a real history fetched from the API (and the same saved to files, and the admin CLI's
 * JSON lines), and rejects a history or a digest changed after it was fetched, and a digest signed
 * by another key than the one given.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin, runNode } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

const SCRIPT = join(__dirname, '..', '..', 'examples', 'verify-history.mjs');

const verifyHistory = (args: string[]) => runNode([SCRIPT, ...args]);

describe('examples/verify-history.mjs', () => {
  let api: RunningApi;
  let token: string;
  let id: string;
  let saved: string;
  let fingerprint: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000140');
    const base = '/api/v2026.1/trainees';
    const created = await api.request('POST', base, token, uniqueTrainee('v2026.1'));
    expect(created.status).toBe(201);
    id = (created.body as { data: { trainee_id: string } }).data.trainee_id;
    for (const name of ['Ada', 'Grace'])
      expect((await api.request('PATCH', `${base}/${id}`, token, { data: { first_names: name } })).status).toBe(200);
    const signed = await runAdmin(['audit', 'digest', '--by', 'auditor'], api.dataDir);
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
    expect((await verifyHistory(files)).code).toBe(0);
    const lines = await runAdmin(['trainee', 'history', id, '--json'], api.dataDir);
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

  it('says how to call it when its arguments are missing', async () => {
    const run = await verifyHistory([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('usage: verify-history.mjs');
  });
});
