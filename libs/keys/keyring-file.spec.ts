import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatKeyring, KeyringError, parseKeyring, withNewVersion } from './keyring';
import { KeyringFile } from './keyring-file';
import { KeyringBusy } from './keyring-lock';

const K1 = Buffer.alloc(32, 1).toString('base64');

/** Whether `file` holds `text` (compared so that a failure prints no key). */
const holds = (file: string, text: string) => readFileSync(file, 'utf8') === text;

/**
 * Another process holding the keyring's lock `how` (alone, as a change does, or shared, as a
 * process storing a key does) until it is killed; resolves once it holds it.
 */
function holder(lockFile: string, how: 'alone' | 'shared'): Promise<ChildProcess> {
  const code = `const lock = require(${JSON.stringify(require.resolve('./keyring-lock'))});
    Promise.resolve(${how === 'alone' ? 'lock.lockAlone' : 'lock.lockShared'}(process.argv[1], 1000)).then((release) => {
      // Kept: a connection no longer referenced may be closed by the garbage collector, and its lock with it.
      globalThis.release = release;
      process.stdout.write('held\\n');
      setInterval(() => undefined, 1000);
    });`;
  const child = spawn(process.execPath, ['-r', require.resolve('tsx/cjs'), '-e', code, lockFile], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve(child));
    child.once('exit', (status) => reject(new Error(`the holder exited (${status})`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('the keyring file and its lock (docs/operations.md "Rotating the service key")', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'keyring-file-'));
    file = join(dir, 'keyring');
    writeFileSync(file, `${K1}\n`, { mode: 0o600 });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('changes the keyring as the file holds it inside the lock, whole, 0600, leaving no draft', async () => {
    const keyring = new KeyringFile(file);
    // Another process rotates after this one read the file: the change is made on what is there then.
    const seen = keyring.read();
    writeFileSync(file, formatKeyring(withNewVersion(parseKeyring(readFileSync(file, 'utf8'), file, 'keyring'))));
    const made = await keyring.change((now) => ({ next: withNewVersion(now), result: now.current + 1 }));
    expect(seen.current).toBe(1);
    expect(made).toBe(3);
    expect([...keyring.read().versions.keys()]).toEqual([1, 2, 3]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir).sort()).toEqual(['keyring', 'keyring.lock']);
    expect(statSync(keyring.lockFile).size).toBe(0);
    expect(statSync(keyring.lockFile).mode & 0o777).toBe(0o600);
  });

  it('writes nothing when the change throws or gives no keyring', async () => {
    const keyring = new KeyringFile(file);
    await expect(
      keyring.change(() => {
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    expect(await keyring.change(() => ({ next: null, result: 'kept' }))).toBe('kept');
    expect(holds(file, `${K1}\n`)).toBe(true);
  });

  it('waits for a process changing it, at most its wait, then says so; a killed holder leaves it at once', async () => {
    const keyring = new KeyringFile(file, { waitMs: 200 });
    const child = await holder(keyring.lockFile, 'alone');
    try {
      await expect(keyring.change((now) => ({ next: withNewVersion(now), result: null }))).rejects.toThrow(KeyringBusy);
      await expect(keyring.holding(async () => 'used')).rejects.toThrow(`the service keyring's lock ${keyring.lockFile} stayed held`);
    } finally {
      await killed(child);
    }
    await keyring.change((now) => ({ next: withNewVersion(now), result: null }));
    expect(keyring.read().current).toBe(2);
  });

  it('makes no change while a process stores keys under it (a shared hold), and lets sharers in together', async () => {
    const keyring = new KeyringFile(file, { waitMs: 200 });
    const child = await holder(keyring.lockFile, 'shared');
    try {
      await expect(keyring.change((now) => ({ next: withNewVersion(now), result: null }))).rejects.toThrow(KeyringBusy);
      expect(await keyring.holding(async (now) => now.current)).toBe(1);
    } finally {
      await killed(child);
    }
    expect(holds(file, `${K1}\n`)).toBe(true);
  });

  it('runs nothing under a shared hold when the keyring cannot be read', async () => {
    const keyring = new KeyringFile(file);
    writeFileSync(file, 'not a keyring');
    let ran = false;
    const use = async () => {
      ran = true;
    };
    await expect(keyring.holding(use)).rejects.toThrow(KeyringError);
    rmSync(file);
    await expect(keyring.holding(use)).rejects.toThrow(/cannot read/);
    expect(ran).toBe(false);
  });

  it('makes a first keyring once and never replaces one, refusing a text that is not a keyring', () => {
    const other = join(dir, 'sub', 'first');
    const keyring = new KeyringFile(other);
    expect(() => keyring.createIfAbsent('not a keyring')).toThrow(KeyringError);
    expect(keyring.createIfAbsent(`${K1}\n`)).toBe(true);
    expect(keyring.createIfAbsent(`${Buffer.alloc(32, 9).toString('base64')}\n`)).toBe(false);
    expect(holds(other, `${K1}\n`)).toBe(true);
    expect(readdirSync(join(dir, 'sub'))).toEqual(['first']);
  });
});
