import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ConfigError, loadConfig } from './config';
import { deriveKey, loadServiceKey, SANDBOX_KEY_FILE } from './service-key';

describe('the service key (docs/operations.md "The service key")', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'service-key-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is made in the sandbox data dir on first use, readable by the owner only, and the same key afterwards', () => {
    const first = loadServiceKey({ dataDir: join(dir, 'data'), dataKeyFile: null });
    expect(first.created).toBe(join(dir, 'data', SANDBOX_KEY_FILE));
    expect(first.key).toHaveLength(32);
    expect(statSync(first.created!).mode & 0o777).toBe(0o600);
    const again = loadServiceKey({ dataDir: join(dir, 'data'), dataKeyFile: null });
    expect(again.created).toBeNull();
    expect(again.key.equals(first.key)).toBe(true);
  });

  it('is read from a read-only data dir that holds it, and nothing is written there', () => {
    const dataDir = join(dir, 'data');
    const made = loadServiceKey({ dataDir, dataKeyFile: null });
    chmodSync(dataDir, 0o500);
    // Root writes through 0500 too: the directory's mtime, set in the past, shows any entry made or removed there.
    const past = new Date('2020-01-01T00:00:00Z');
    utimesSync(dataDir, past, past);
    const before = { names: readdirSync(dataDir), mtime: statSync(dataDir, { bigint: true }).mtimeNs };
    try {
      const again = loadServiceKey({ dataDir, dataKeyFile: null });
      expect(again.created).toBeNull();
      expect(again.key.equals(made.key)).toBe(true);
      expect({ names: readdirSync(dataDir), mtime: statSync(dataDir, { bigint: true }).mtimeNs }).toEqual(before);
    } finally {
      chmodSync(dataDir, 0o700);
    }
  });

  it('is one key for threads that make it at the same moment', async () => {
    const dataDir = join(dir, 'race');
    // Each thread loads this module through tsx (a dev dependency) and reads the key as soon as all are ready.
    const code = `const { parentPort, workerData } = require('node:worker_threads');
      require(workerData.tsx).register();
      const { loadServiceKey } = require(workerData.module);
      const go = new Int32Array(workerData.go);
      Atomics.wait(go, 0, 0);
      const { key, created } = loadServiceKey({ dataDir: workerData.dataDir, dataKeyFile: null });
      parentPort.postMessage({ key: key.toString('base64'), created: created !== null });`;
    const go = new SharedArrayBuffer(4);
    const data = { tsx: require.resolve('tsx/cjs/api'), module: require.resolve('./service-key'), dataDir, go };
    const workers = Array.from({ length: 4 }, () => new Worker(code, { eval: true, workerData: data }));
    const answers = workers.map(
      (w) => new Promise<{ key: string; created: boolean }>((resolve, reject) => w.once('message', resolve).once('error', reject)),
    );
    await new Promise((r) => setTimeout(r, 1500));
    Atomics.store(new Int32Array(go), 0, 1);
    Atomics.notify(new Int32Array(go), 0);
    const keys = await Promise.all(answers);
    await Promise.all(workers.map((w) => w.terminate()));
    expect(keys.filter((k) => k.created)).toHaveLength(1);
    expect(new Set(keys.map((k) => k.key)).size).toBe(1);
    expect(readdirSync(dataDir)).toEqual([SANDBOX_KEY_FILE]);
  });

  it('is made once: every later call reads that key, and no draft file is left', () => {
    const dataDir = join(dir, 'data');
    const keys = Array.from({ length: 8 }, () => loadServiceKey({ dataDir, dataKeyFile: null }));
    expect(keys.filter((k) => k.created !== null)).toHaveLength(1);
    for (const k of keys) expect(k.key.equals(keys[0].key)).toBe(true);
    expect(readdirSync(dataDir)).toEqual([SANDBOX_KEY_FILE]);
  });

  it.each(['events.sqlite', 'keys.sqlite', 'state.sqlite'])(
    'is never made in a data dir that holds %s: refused naming DATA_KEY_FILE, nothing written',
    (held) => {
      const dataDir = join(dir, 'data');
      mkdirSync(dataDir);
      writeFileSync(join(dataDir, held), '');
      const before = readdirSync(dataDir);
      expect(() => loadServiceKey({ dataDir, dataKeyFile: null })).toThrow(ConfigError);
      expect(() => loadServiceKey({ dataDir, dataKeyFile: null })).toThrow(
        `${dataDir} holds data (${held}) but no service key: set DATA_KEY_FILE to the key file it was written under`,
      );
      expect(readdirSync(dataDir)).toEqual(before);
      const file = join(dir, 'key');
      writeFileSync(file, `${Buffer.alloc(32, 4).toString('base64')}\n`, { mode: 0o600 });
      expect(loadServiceKey({ dataDir, dataKeyFile: file }).key.equals(Buffer.alloc(32, 4))).toBe(true);
    },
  );

  it('is read from DATA_KEY_FILE when set, and refused, without quoting the file, when it is not 32 bytes in base64', () => {
    const file = join(dir, 'key');
    writeFileSync(file, `${Buffer.alloc(32, 3).toString('base64')}\n`, { mode: 0o600 });
    expect(loadServiceKey({ dataDir: dir, dataKeyFile: file }).key.equals(Buffer.alloc(32, 3))).toBe(true);
    for (const content of ['secret-not-base64!', Buffer.alloc(16, 3).toString('base64'), '']) {
      writeFileSync(file, content);
      expect(() => loadServiceKey({ dataDir: dir, dataKeyFile: file })).toThrow(ConfigError);
      if (content) expect(() => loadServiceKey({ dataDir: dir, dataKeyFile: file })).not.toThrow(content);
    }
    const missing = join(dir, 'missing');
    expect(() => loadServiceKey({ dataDir: dir, dataKeyFile: missing })).toThrow(
      `DATA_KEY_FILE: cannot read ${missing} (ENOENT): make it once with admin keys init (docs/operations.md "The service key")`,
    );
  });

  it('is refused from a DATA_KEY_FILE its group or other users may read or write, naming the file and the fix', () => {
    const file = join(dir, 'key');
    writeFileSync(file, `${Buffer.alloc(32, 5).toString('base64')}\n`, { mode: 0o600 });
    for (const mode of [0o640, 0o604, 0o644, 0o620, 0o660]) {
      chmodSync(file, mode);
      expect(() => loadServiceKey({ dataDir: dir, dataKeyFile: file })).toThrow(ConfigError);
      expect(() => loadServiceKey({ dataDir: dir, dataKeyFile: file })).toThrow(
        `DATA_KEY_FILE: ${file} is open to other users (mode 0${mode.toString(8)}); make it the service's user's only: chmod 600 ${file}`,
      );
    }
    for (const mode of [0o600, 0o400]) {
      chmodSync(file, mode);
      expect(loadServiceKey({ dataDir: dir, dataKeyFile: file }).key.equals(Buffer.alloc(32, 5))).toBe(true);
    }
  });

  it('is required in production, and optional in the sandbox', () => {
    expect(() => loadConfig({ APP_ENV: 'production' })).toThrow(/DATA_KEY_FILE: required in production/);
    expect(loadConfig({ APP_ENV: 'production', DATA_KEY_FILE: '/run/secrets/data-key' }).dataKeyFile).toBe('/run/secrets/data-key');
    expect(loadConfig({}).dataKeyFile).toBeNull();
  });

  it('seals personal data by default; the clear (the bench only) is refused in production', () => {
    expect(loadConfig({}).sealPersonalData).toBe(true);
    expect(loadConfig({ SEAL_PERSONAL_DATA: 'false' }).sealPersonalData).toBe(false);
    const production = { APP_ENV: 'production', DATA_KEY_FILE: '/run/secrets/data-key' };
    expect(loadConfig(production).sealPersonalData).toBe(true);
    expect(() => loadConfig({ ...production, SEAL_PERSONAL_DATA: 'false' })).toThrow(/SEAL_PERSONAL_DATA: production always seals/);
  });

  it('chains the log by default; an unchained log (the bench only) is refused in production', () => {
    expect(loadConfig({}).hashChain).toBe(true);
    expect(loadConfig({ HASH_CHAIN: 'false' }).hashChain).toBe(false);
    const production = { APP_ENV: 'production', DATA_KEY_FILE: '/run/secrets/data-key' };
    expect(loadConfig(production).hashChain).toBe(true);
    expect(() => loadConfig({ ...production, HASH_CHAIN: 'false' })).toThrow(/HASH_CHAIN: production always chains/);
  });

  it('derives a purpose key of 32 bytes, not the service key, that changes with the service key', () => {
    const key = Buffer.alloc(32, 9);
    const cursors = deriveKey(key, 'change-feed-cursors');
    expect(cursors).toHaveLength(32);
    expect(cursors.equals(key)).toBe(false);
    expect(cursors.equals(deriveKey(Buffer.alloc(32, 10), 'change-feed-cursors'))).toBe(false);
  });
});
