/**
 * Runs the data key store contract (test/contract/data-key-store.contract.ts) against the SQLite
 * adapter on a fresh temporary data directory per test; `reopen` opens another connection on the
 * same file (as another process would); once as the API opens it, with its new keys stored from a
 * thread of their own (`newKeysInThread`). Then what only a file can show: a destroyed key is left
 * neither in the file nor in its WAL, also when a reader holds the WAL for a while, and an erasure
 * is told when a reader holds it too long; and the registration reservations' contract
 * (test/contract/registration-reservations.contract.ts), whose erased claims are left in no file either.
 */
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Database from 'better-sqlite3';
import { DataKeyNotForgotten } from '@app/personal-data';
import { SqliteDataKeyStore } from '@app/stores/sqlite';
import { describeDataKeyStoreContract, type DataKeyStoreFixture } from './data-key-store.contract';
import { describeRegistrationReservationsContract } from './registration-reservations.contract';

function freshDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'data-keys-contract-'));
}

describe.each([
  ['SqliteDataKeyStore', false],
  ['SqliteDataKeyStore, its new keys stored from a thread of their own', true],
] as const)('%s', (name, newKeysInThread) => {
  const open = async (): Promise<DataKeyStoreFixture & { store: SqliteDataKeyStore; reopen(): Promise<SqliteDataKeyStore> }> => {
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
  };
  describeDataKeyStoreContract(name, open);
  describeRegistrationReservationsContract(name, open);
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

  it('leaves an erased trainee’s reservation name and claim in neither keys.sqlite nor its WAL, and keeps the others', async () => {
    const dataDir = freshDir();
    try {
      const store = SqliteDataKeyStore.open(dataDir, { newKeysInThread: true });
      const [doomed, kept] = [randomBytes(20).toString('hex'), randomBytes(20).toString('hex')];
      await store.ensure('Trainee-doomed-1', randomBytes(60));
      expect(await store.writeReservation(doomed, 0, [{ trainee_id: 'Trainee-doomed-1', at: '2026-01-01T00:00:00.000Z' }])).toBe(true);
      expect(await store.writeReservation(kept, 0, [{ trainee_id: 'Trainee-kept-1', at: '2026-01-01T00:00:00.000Z' }])).toBe(true);
      const files = () => fs.readdirSync(dataDir).map((f) => fs.readFileSync(path.join(dataDir, f)).toString('latin1'));
      for (const text of [doomed, 'Trainee-doomed-1', kept]) expect(files().some((bytes) => bytes.includes(text))).toBe(true);
      expect(await store.destroy('Trainee-doomed-1', new Date())).toBe(true);
      expect(files().some((bytes) => bytes.includes(doomed))).toBe(false);
      expect(files().filter((bytes) => bytes.includes('Trainee-doomed-1'))).toHaveLength(1); // the erased id, kept as erased
      expect(files().some((bytes) => bytes.includes(kept))).toBe(true);
      await store.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  /** A reader on its own connection inside a read transaction: it holds the WAL's frames until `release`. */
  function holdWal(dataDir: string): { release(): void } {
    const reader = new Database(path.join(dataDir, 'keys.sqlite'));
    reader.exec('BEGIN');
    reader.prepare('SELECT count(*) FROM data_keys').get();
    return {
      release: () => {
        reader.exec('COMMIT');
        reader.close();
      },
    };
  }

  it('waits for a reader that holds the WAL, then truncates it: the destroyed key is not left in the WAL', async () => {
    const dataDir = freshDir();
    const store = SqliteDataKeyStore.open(dataDir);
    try {
      const doomed = randomBytes(60);
      await store.ensure('T1', doomed);
      const wal = () => fs.readFileSync(path.join(dataDir, 'keys.sqlite-wal'));
      const reader = holdWal(dataDir);
      const released = setTimeout(() => reader.release(), 300);
      const started = Date.now();
      expect(await store.destroy('T1', new Date())).toBe(true);
      clearTimeout(released);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(wal().length).toBe(0);
      expect(wal().includes(doomed)).toBe(false);
    } finally {
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('says so when a reader holds the WAL past the limit, and a destroy run again finishes the forgetting', async () => {
    const dataDir = freshDir();
    const store = SqliteDataKeyStore.open(dataDir, { forgetWalWithinMs: 200 });
    try {
      const doomed = randomBytes(60);
      await store.ensure('T1', doomed);
      const reader = holdWal(dataDir);
      const refused = store.destroy('T1', new Date());
      await expect(refused).rejects.toThrow(DataKeyNotForgotten);
      await expect(refused).rejects.toThrow(/the data key of trainee T1 is destroyed, but a reader held keys.sqlite's WAL for 200 ms/);
      expect(await store.get('T1')).toBe('erased');
      reader.release();
      expect(await store.destroy('T1', new Date())).toBe(false);
      const files = fs.readdirSync(dataDir).map((f) => fs.readFileSync(path.join(dataDir, f)));
      expect(files.some((bytes) => bytes.includes(doomed))).toBe(false);
    } finally {
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
