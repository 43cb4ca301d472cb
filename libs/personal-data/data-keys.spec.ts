import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteDataKeyStore } from '@app/stores/sqlite';
import { DataKeyNotOpened, DataKeys, DataKeyDestroyed } from './data-keys';

describe('DataKeys: one data key per trainee, wrapped under the key-encryption key (docs/DESIGN.md "Personal data")', () => {
  let dir: string;
  let store: SqliteDataKeyStore;
  const kek = Buffer.alloc(32, 4);

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-keys-'));
    store = SqliteDataKeyStore.open(dir);
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('makes a 32-byte key for a trainee once and gives the same one back; each trainee has its own', async () => {
    const keys = new DataKeys(store, kek);
    expect(await keys.existingKey('T1')).toBeNull();
    const key = await keys.keyFor('T1');
    expect(key).toHaveLength(32);
    expect(await keys.keyFor('T1')).toEqual(key);
    expect(await keys.existingKey('T1')).toEqual(key);
    expect(await keys.keyFor('T2')).not.toEqual(key);
  });

  it('stores the key wrapped: the store never holds the key itself', async () => {
    const key = await new DataKeys(store, kek).keyFor('T1');
    const wrapped = (await store.get('T1')) as Buffer;
    expect(wrapped.includes(key)).toBe(false);
  });

  it('refuses to open a key under another key-encryption key, or one moved to another trainee', async () => {
    await new DataKeys(store, kek).keyFor('T1');
    await expect(new DataKeys(store, Buffer.alloc(32, 5)).keyFor('T1')).rejects.toBeInstanceOf(DataKeyNotOpened);
    await store.ensure('T2', (await store.get('T1')) as Buffer);
    await expect(new DataKeys(store, kek).existingKey('T2')).rejects.toBeInstanceOf(DataKeyNotOpened);
  });

  it('makes no key for an erased trainee: its personal data can be neither read nor written again', async () => {
    const keys = new DataKeys(store, kek);
    await keys.keyFor('T1');
    expect(await keys.destroy('T1', new Date())).toBe(true);
    expect(await keys.existingKey('T1')).toBe('erased');
    await expect(keys.keyFor('T1')).rejects.toBeInstanceOf(DataKeyDestroyed);
  });

  it('forgets at once a key kept in memory when another process erases its trainee, long before the kept key would expire', async () => {
    const elsewhere = SqliteDataKeyStore.open(dir);
    try {
      const here = new DataKeys(store, kek);
      const there = new DataKeys(elsewhere, kek);
      await here.keyFor('T1');
      const kept = await here.keyFor('T2');
      expect(await there.destroy('T1', new Date())).toBe(true);
      await expect(here.keyFor('T1')).rejects.toBeInstanceOf(DataKeyDestroyed);
      expect(await here.existingKey('T1')).toBe('erased');
      // The others are still used from memory: only the erased one is read again.
      const reads: string[] = [];
      const counting = Object.assign(Object.create(store) as SqliteDataKeyStore, { get: (id: string) => (reads.push(id), store.get(id)) });
      const watched = new DataKeys(counting, kek);
      await watched.keyFor('T2');
      await watched.keyFor('T2');
      expect(reads).toEqual(['T2']);
      expect(await here.keyFor('T2')).toEqual(kept);
      // And an erasure after the first ask, from the other connection, is seen too.
      await watched.keyFor('T2');
      expect(await there.destroy('T2', new Date())).toBe(true);
      await expect(watched.keyFor('T2')).rejects.toBeInstanceOf(DataKeyDestroyed);
    } finally {
      await elsewhere.close();
    }
  });

  it('hands out new trainee ids whose keys were stored beforehand, a pool at a time, each id once', async () => {
    let n = 0;
    const keys = new DataKeys(store, kek, { poolSize: 3, newId: () => `N${n++}` });
    const ids = await Promise.all(Array.from({ length: 7 }, () => keys.newTraineeId()));
    expect(ids).toEqual(['N0', 'N1', 'N2', 'N3', 'N4', 'N5', 'N6']);
    // Three pools were stored (nine keys); the two not handed out wait for the next creates.
    expect(n).toBe(9);
    for (const id of ids) expect(await store.get(id)).toBeInstanceOf(Buffer);
    const other = new DataKeys(store, kek);
    expect(await other.existingKey('N4')).toEqual(await keys.keyFor('N4'));
  });

  it('starts storing the next pool when half is left, before a create has to wait for it, and tries a failed one again', async () => {
    let n = 0;
    let failing = false;
    const writes: string[] = [];
    const counting = Object.assign(Object.create(store) as SqliteDataKeyStore, {
      reserve: (entries: { traineeId: string; wrapped: Buffer }[]) => {
        writes.push(failing ? 'failed' : `${entries.length}`);
        return failing ? Promise.reject(new Error('disk full')) : store.reserve(entries);
      },
    });
    const keys = new DataKeys(counting, kek, { poolSize: 4, newId: () => `N${n++}` });
    expect([await keys.newTraineeId(), await keys.newTraineeId()]).toEqual(['N0', 'N1']);
    expect(writes).toEqual(['4']);
    failing = true;
    // Taking the third leaves one of four: the next pool's write starts with no create waiting on it.
    expect(await keys.newTraineeId()).toBe('N2');
    expect(writes).toEqual(['4', 'failed']);
    await new Promise((r) => setImmediate(r));
    // Its failure is no create's; the next one tries again, and the one that finds the pool empty gets the error.
    expect(await keys.newTraineeId()).toBe('N3');
    await expect(keys.newTraineeId()).rejects.toThrow('disk full');
    failing = false;
    expect(await keys.newTraineeId()).toMatch(/^N\d+$/);
    expect(writes.filter((w) => w !== 'failed')).toEqual(['4', '4']);
  });

  it('forgets a key destroyed by another DataKeys at once, and one it destroys itself', async () => {
    let now = 0;
    const keys = new DataKeys(store, kek, { cacheMs: 1000, now: () => now });
    const key = await keys.keyFor('T1');
    expect(await keys.existingKey('T1')).toEqual(key);
    // Another one destroys the key: this one does not go on with its copy in memory.
    await new DataKeys(store, kek).destroy('T1', new Date());
    expect(await keys.existingKey('T1')).toBe('erased');
    now = 1001;
    expect(await keys.existingKey('T1')).toBe('erased');
    const second = await keys.keyFor('T2');
    expect(second).toHaveLength(32);
    await keys.destroy('T2', new Date());
    expect(await keys.existingKey('T2')).toBe('erased');
  });

  it('keeps a key for cacheMs after it was read, however often writes seal with it meanwhile', async () => {
    let now = 0;
    const reads: string[] = [];
    const counting = Object.assign(Object.create(store) as SqliteDataKeyStore, { get: (id: string) => (reads.push(id), store.get(id)) });
    const keys = new DataKeys(counting, kek, { cacheMs: 1000, now: () => now });
    for (const id of ['W', 'R']) await new DataKeys(store, kek).keyFor(id);
    const written = await keys.keyFor('W');
    const read = await keys.existingKey('R');
    now = 900;
    expect(await keys.keyFor('W')).toEqual(written);
    expect(await keys.existingKey('R')).toEqual(read);
    expect(reads).toEqual(['W', 'R']);
    // Sealed with at 900, the written key is still read again once 1000 ms have passed since its read.
    now = 1500;
    expect(await keys.keyFor('W')).toEqual(written);
    expect(await keys.existingKey('R')).toEqual(read);
    expect(reads).toEqual(['W', 'R', 'W', 'R']);
    // Another process erases it: the next write here finds it erased, well within cacheMs of the last read.
    const elsewhere = SqliteDataKeyStore.open(dir);
    await new DataKeys(elsewhere, kek).destroy('W', new Date());
    await elsewhere.close();
    now = 1600;
    await expect(keys.keyFor('W')).rejects.toThrow(DataKeyDestroyed);
  });

  it('keeps at most cacheSize opened keys, dropping the oldest', async () => {
    const reads: string[] = [];
    const counting = Object.assign(Object.create(store) as SqliteDataKeyStore, { get: (id: string) => (reads.push(id), store.get(id)) });
    const keys = new DataKeys(counting, kek, { cacheSize: 2 });
    for (const id of ['A', 'B', 'C']) await new DataKeys(store, kek).keyFor(id);
    for (const id of ['A', 'B', 'C', 'C', 'A']) await keys.existingKey(id);
    expect(reads).toEqual(['A', 'B', 'C', 'A']);
  });

  it('tells onOpened of each key it makes, reserves or reads, never of an erased one; learn() keeps a key without the store', async () => {
    const told: string[] = [];
    let n = 0;
    const keys = new DataKeys(store, kek, { poolSize: 2, newId: () => `P${n++}`, onOpened: (id, key) => told.push(`${id}:${key.length}`) });
    await keys.keyFor('T1');
    await keys.newTraineeId();
    await new DataKeys(store, kek).keyFor('T2');
    await keys.existingKey('T2');
    await new DataKeys(store, kek).destroy('T1', new Date());
    expect(await new DataKeys(store, kek, { onOpened: (id) => told.push(id) }).existingKey('T1')).toBe('erased');
    expect(told).toEqual(['T1:32', 'P0:32', 'P1:32', 'T2:32']);

    const reads: string[] = [];
    const counting = Object.assign(Object.create(store) as SqliteDataKeyStore, { get: (id: string) => (reads.push(id), store.get(id)) });
    const learner = new DataKeys(counting, kek);
    const shared = await keys.existingKey('T2');
    learner.learn('T2', shared as Buffer);
    expect(await learner.existingKey('T2')).toEqual(shared);
    expect(reads).toEqual([]);
    expect(() => learner.learn('T3', Buffer.alloc(16))).toThrow('32 bytes');
  });
});
