/**
 * Runs the data key store contract (test/contract/data-key-store.contract.ts) against the SQLite
 * adapter on a fresh temporary data directory per test; `reopen` opens another connection on the
 * same file (as another process would); once as the API opens it, with its new keys stored from a
 * thread of their own (`newKeysInThread`). Then what only a file can show: a destroyed key is left
 * neither in the file nor in its WAL.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteDataKeyStore } from '@app/stores/sqlite';
import { describeDataKeyStoreContract } from './data-key-store.contract';

function freshDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'data-keys-contract-'));
}

describe.each([
  ['SqliteDataKeyStore', false],
  ['SqliteDataKeyStore, its new keys stored from a thread of their own', true],
] as const)('%s', (name, newKeysInThread) => {
  describeDataKeyStoreContract(name, async () => {
    const dataDir = freshDir();
    const opened = [SqliteDataKeyStore.open(dataDir, { newKeysInThread })];
    return {
      store: opened[0],
      reopen: async () => {
        const another = SqliteDataKeyStore.open(dataDir);
        opened.push(another);
        return another;
      },
      cleanup: async () => {
        for (const s of opened) await s.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  });
});

describe('SqliteDataKeyStore: forgetting', () => {
  it('leaves a destroyed key in neither keys.sqlite nor its WAL, and keeps the others', async () => {
    const dataDir = freshDir();
    try {
      const store = SqliteDataKeyStore.open(dataDir);
      const doomed = randomBytes(60);
      const kept = randomBytes(60);
      await store.ensure('T1', doomed);
      await store.ensure('T2', kept);
      const files = () => fs.readdirSync(dataDir).map((f) => fs.readFileSync(path.join(dataDir, f)));
      expect(files().some((bytes) => bytes.includes(doomed))).toBe(true);
      expect(await store.destroy('T1', new Date())).toBe(true);
      expect(files().some((bytes) => bytes.includes(doomed))).toBe(false);
      expect(files().some((bytes) => bytes.includes(kept))).toBe(true);
      await store.close();
      expect(files().some((bytes) => bytes.includes(doomed))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
