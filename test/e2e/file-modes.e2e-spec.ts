/**
 * Every file the service writes under DATA_DIR is readable and writable by the service's user only
 * (docs/operations.md "File permissions"): the SQLite stores with their WAL and shared-memory files,
 * the service key, whatever the process's umask; and so are the admin CLI's exports and digests.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAdmin } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

/** Every file under `dir` (recursively) with its permission bits, as `path mode` in octal. */
function fileModes(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => ({ name, stat: statSync(join(dir, name)) }))
    .filter((f) => f.stat.isFile())
    .map((f) => `${f.name} ${(f.stat.mode & 0o777).toString(8)}`)
    .sort();
}

describe('file modes under DATA_DIR', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await RunningApi.start();
  });
  afterAll(() => api.close());

  it('creates every store, its WAL and its shared memory 0600, with a umask that would allow more', async () => {
    const token = await api.providerToken('10000001');
    const created = await api.request('POST', '/api/v2025.0/trainees', token, uniqueTrainee('v2025.0'), {
      'idempotency-key': 'file-modes-1',
    });
    expect(created.status).toBe(201);
    await api.infra.catchUp();

    const modes = fileModes(api.dataDir);
    expect(modes.map((m) => m.split(' ')[0])).toEqual(expect.arrayContaining(['events.sqlite', 'events.sqlite-wal', 'read-models.sqlite']));
    expect(modes.filter((m) => !m.endsWith(' 600'))).toEqual([]);
  });

  it("writes an export 0600, narrowing a file that was there, and the admin CLI's other files too (umask 077)", async () => {
    const out = mkdtempSync(join(tmpdir(), 'file-modes-out-'));
    try {
      const fresh = join(out, 'events.jsonl');
      const existing = join(out, 'again.jsonl');
      writeFileSync(existing, '', { mode: 0o644 });
      const digest = join(out, 'digest.json');
      // The child inherits this process's umask, 022 unless the machine says otherwise: the files would come out 0644.
      for (const args of [
        ['events', 'export', '--output', fresh],
        ['events', 'export', '--output', existing],
        ['audit', 'digest', '--output', digest, '--by', 'auditor'],
      ]) {
        const run = await runAdmin(args, api.dataDir);
        expect({ args, code: run.code, stderr: run.code === 0 ? '' : run.stderr }).toEqual({ args, code: 0, stderr: '' });
      }
      expect(fileModes(out)).toEqual(['again.jsonl 600', 'digest.json 600', 'events.jsonl 600']);
      expect(fileModes(api.dataDir).filter((m) => !m.endsWith(' 600'))).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
