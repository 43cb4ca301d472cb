/**
 * Retiring a service key version safely (docs/operations.md "Rotating the service key"): a process
 * that dies holding the keyring's lock leaves it to the next command; `keys retire` names each
 * backup in BACKUP_DIR that would no longer open without the version and refuses until each is
 * named; and an API started before a rotation wraps the keys it makes after it under the new
 * version at once, so the version just replaced can be retired without a restart.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lockFileOf } from '@app/keys';
import { SANDBOX_KEY_FILE } from '@app/runtime/process';
import { AdminWorker, runAdmin } from '../support/admin-cli';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';
import { csvFile, traineeRows } from '../support/upload-files';

const ROOT = join(__dirname, '..', '..');
const base = '/api/v2026.1/trainees';

/** A process of its own holding the keyring's lock alone, as a change being made does, until it is killed. */
function lockHolder(lockFile: string): Promise<ChildProcess> {
  // The release is kept: a connection no longer referenced may be closed by the garbage collector, and its lock with it.
  const code = `globalThis.release = require(${JSON.stringify(join(ROOT, 'dist/libs/keys/keyring-lock.js'))}).lockAlone(process.argv[1], 1000);
    process.stdout.write('held\\n');
    setInterval(() => undefined, 1000);`;
  const child = spawn(process.execPath, ['-e', code, lockFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve(child));
    child.once('exit', (status) => reject(new Error(`the lock holder exited (${status})`)));
  });
}

/**
 * The admin CLI loaded once in a process of its own, for commands run again here; the first run of
 * each command, and the runs about the program itself, start it as operators do.
 */
const admin = AdminWorker.forFile();

describe('retiring a service key version (admin keys retire)', () => {
  let api: RunningApi;
  let token: string;
  let work: string;
  let keyring: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000161');
    work = mkdtempSync(join(tmpdir(), 'key-retirement-'));
    keyring = join(api.dataDir, SANDBOX_KEY_FILE);
  });
  afterAll(async () => {
    await api.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('wraps the keys an API started before a rotation makes after it under the new version, and waits for no restart', async () => {
    expect((await runAdmin(['keys', 'rotate'], api.dataDir)).code).toBe(0);
    // An upload's key is made when it is received: after the rotation, in a process that read version 1 at its start.
    const posted = await api.request('POST', '/api/v2026.1/trainee-uploads', token, csvFile('v2026.1', traineeRows('v2026.1', 2)), {
      'content-type': 'text/csv',
    });
    expect(posted.status).toBe(202);
    expect((await api.request('POST', base, token, uniqueTrainee('v2026.1'))).status).toBe(201);
    const retired = await runAdmin(['keys', 'retire', '1'], api.dataDir);
    expect({ code: retired.code, stderr: retired.stderr }).toEqual({ code: 0, stderr: '' });
    expect(retired.stdout).toMatch(/\nNo backup was checked \(BACKUP_DIR is not set\): any backup that needs version 1 no longer opens/);
  }, 120_000);

  it("waits for a process holding the keyring's lock, says so past the wait, and goes on once that process is killed", async () => {
    const holder = await lockHolder(lockFileOf(keyring));
    try {
      const refused = await runAdmin(['keys', 'rotate'], api.dataDir, { ADMIN_BUSY_WAIT_MS: '300' });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `Error: the service keyring's lock ${lockFileOf(keyring)} stayed held for 0.3 s by another process (keys rotate or keys retire, ` +
          'or a process storing new keys); run the command again once that process has finished\n',
      );
    } finally {
      holder.kill('SIGKILL');
      await new Promise((resolve) => holder.once('exit', resolve));
    }
    const rotated = await runAdmin(['keys', 'rotate'], api.dataDir, { ADMIN_BUSY_WAIT_MS: '300' });
    expect({ code: rotated.code, stderr: rotated.stderr }).toEqual({ code: 0, stderr: '' });
    expect(rotated.stdout).toMatch(/^Version 3 is current\./);
    expect(rotated.stdout).toMatch(/\nKeep version 2 until the next rotation, for the backups taken under it; retire it then/);
  }, 120_000);

  it('refuses while a backup in BACKUP_DIR needs the version, naming each, and retires it once each is named', async () => {
    const backups = join(work, 'backups');
    const env = { BACKUP_DIR: backups };
    expect((await runAdmin(['backup', 'create', '--output', join(backups, 'under-3')], api.dataDir, env)).code).toBe(0);
    const rotated = await admin.run(['keys', 'rotate'], api.dataDir, env);
    expect(rotated.stdout).toMatch(
      /\nOn the cadence of docs\/operations\.md "Rotating the service key", retire the version before the previous one now: admin keys retire 2; keep version 3 until the next rotation/,
    );
    // No backup holds a key under version 2; the backup holds its keys under version 3.
    const cadence = await admin.run(['keys', 'retire', '2'], api.dataDir, env);
    expect({ code: cadence.code, stderr: cadence.stderr }).toEqual({ code: 0, stderr: '' });
    expect(cadence.stdout).toMatch(new RegExp(`\\nBackups in ${backups}: none needed version 2\\.\\n$`));
    // A backup left unfinished: its files cannot be checked.
    mkdirSync(join(backups, 'left.partial'));
    writeFileSync(join(backups, 'left.partial', 'keys.sqlite'), '');
    // Compared by digest: a failure prints no key.
    const digest = () => createHash('sha256').update(readFileSync(keyring)).digest('hex');
    const unchanged = digest();
    const refused = await admin.run(['keys', 'retire', '3'], api.dataDir, env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^Error: version 3 is still needed by 2 backups in ${backups}, which would no longer open \\(backup verify, backup restore\\) once it is retired: ` +
          'left\\.partial \\(unfinished or without a readable manifest: not checked\\), under-3 \\(holds [1-9]\\d* data keys and 0 webhook secrets under version 3\\)\\. ' +
          'Retire it once they are deleted, or name them to break them: admin keys retire 3 --breaking-backups left\\.partial,under-3\\n$',
      ),
    );
    expect((await admin.run(['keys', 'retire', '3', '--breaking-backups', 'under-3'], api.dataDir, env)).stderr).toMatch(
      /needed by 1 backup .*: left\.partial \(/,
    );
    expect(digest()).toBe(unchanged);

    const retired = await admin.run(['keys', 'retire', '3', '--breaking-backups', 'left.partial,under-3'], api.dataDir, env);
    expect({ code: retired.code, stderr: retired.stderr }).toEqual({ code: 0, stderr: '' });
    expect(retired.stdout).toMatch(new RegExp(`\\nBackups in ${backups} that no longer open, as named: left\\.partial, under-3\\.\\n$`));
    // As said: the backup no longer opens.
    const verified = await admin.run(['backup', 'verify', join(backups, 'under-3')], api.dataDir, env);
    expect(verified.code).toBe(1);
    expect(verified.stderr).toMatch(/does not open under this service key/);
  }, 120_000);
});
