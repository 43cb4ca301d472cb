import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createCipheriv } from 'node:crypto';
import { SqliteDataKeyStore } from '@app/stores/sqlite';
import { DataKeyNotOpened, DataKeys, wrappedKeyVersion } from './data-keys';
import { packVersionedKeys, unpackVersionedKeys } from '@app/keys';

const V1 = Buffer.alloc(32, 4);
const V2 = Buffer.alloc(32, 6);
const keyring = (current: number, versions: Array<[number, Buffer]>) => packVersionedKeys({ current, keys: new Map(versions) });

/** A key wrapped as before versions: IV, wrapped key, tag (60 bytes), the trainee id the only associated data. */
function wrappedBeforeVersions(kek: Buffer, traineeId: string, key: Buffer): Buffer {
  const iv = Buffer.alloc(12, 1);
  const cipher = createCipheriv('aes-256-gcm', kek, iv).setAAD(Buffer.from(traineeId));
  return Buffer.concat([iv, cipher.update(key), cipher.final(), cipher.getAuthTag()]);
}

describe('DataKeys across service key versions (docs/operations.md "Rotating the service key")', () => {
  let dir: string;
  let store: SqliteDataKeyStore;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-key-versions-'));
    store = SqliteDataKeyStore.open(dir);
  });
  afterEach(async () => {
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('packs keys by version, the current first, and takes a lone 32-byte key as version 1', () => {
    const packed = keyring(2, [
      [1, V1],
      [2, V2],
    ]);
    expect(packed).toHaveLength(72);
    expect(packed.readUInt32BE(0)).toBe(2);
    const unpacked = unpackVersionedKeys(packed);
    expect(unpacked.current).toBe(2);
    expect(unpacked.keys.get(1)).toEqual(V1);
    expect(unpackVersionedKeys(V1)).toEqual({ current: 1, keys: new Map([[1, V1]]) });
    expect(() => unpackVersionedKeys(Buffer.alloc(40))).toThrow();
    expect(() => packVersionedKeys({ current: 1, keys: new Map([[1, Buffer.alloc(16)]]) })).toThrow('32 bytes');
  });

  it('wraps under the current version, naming it; opens a key of any version held, and one from before versions as version 1', async () => {
    const key = await new DataKeys(store, V1).keyFor('T1');
    const wrapped = (await store.get('T1')) as Buffer;
    expect(wrapped).toHaveLength(65);
    expect(wrappedKeyVersion(wrapped)).toBe(1);
    const plain = Buffer.alloc(32, 8);
    await store.ensure('OLD', wrappedBeforeVersions(V1, 'OLD', plain));
    expect(wrappedKeyVersion((await store.get('OLD')) as Buffer)).toBe(1);
    const both = new DataKeys(
      store,
      keyring(2, [
        [1, V1],
        [2, V2],
      ]),
    );
    expect(await both.existingKey('T1')).toEqual(key);
    expect(await both.existingKey('OLD')).toEqual(plain);
    await both.keyFor('T2');
    expect(wrappedKeyVersion((await store.get('T2')) as Buffer)).toBe(2);
    await expect(new DataKeys(store, keyring(2, [[2, V2]])).existingKey('T1')).rejects.toBeInstanceOf(DataKeyNotOpened);
  });

  it('refuses a wrapped key relabelled with another version', async () => {
    await new DataKeys(store, V1).keyFor('T1');
    const wrapped = Buffer.from((await store.get('T1')) as Buffer);
    wrapped.writeUInt32BE(2, 1);
    await store.ensure('T2', Buffer.alloc(65));
    await store.replace('T2', Buffer.alloc(65), wrapped);
    const both = new DataKeys(
      store,
      keyring(2, [
        [1, V2],
        [2, V1],
      ]),
    );
    await expect(both.existingKey('T2')).rejects.toBeInstanceOf(DataKeyNotOpened);
  });

  it('rewraps every key under the current version, leaving the data keys and erased trainees as they are', async () => {
    const old = new DataKeys(store, V1);
    const ids = Array.from({ length: 7 }, (_, i) => `T${i}`);
    const keys = await Promise.all(ids.map((id) => old.keyFor(id)));
    await store.ensure('OLD', wrappedBeforeVersions(V1, 'OLD', Buffer.alloc(32, 8)));
    await old.destroy('T3', new Date());
    const rotated = new DataKeys(
      store,
      keyring(2, [
        [1, V1],
        [2, V2],
      ]),
    );
    expect(await rotated.versionCounts()).toEqual(new Map([[1, 7]]));
    const counts = await rotated.rewrapAll(3);
    expect(counts).toEqual({ rewrapped: 7, current: 0, changed: 0, before: new Map([[1, 7]]) });
    expect(await rotated.versionCounts()).toEqual(new Map([[2, 7]]));
    const retired = new DataKeys(store, keyring(2, [[2, V2]]));
    for (const [i, id] of ids.entries()) expect(await retired.existingKey(id)).toEqual(id === 'T3' ? 'erased' : keys[i]);
    expect(await retired.existingKey('OLD')).toEqual(Buffer.alloc(32, 8));
    expect((await rotated.rewrapAll()).rewrapped).toBe(0);
  });

  it('leaves a key erased while the rotation read it erased (compare-and-set)', async () => {
    const old = new DataKeys(store, V1);
    for (const id of ['A', 'B', 'C']) await old.keyFor(id);
    const erasing = Object.assign(Object.create(store) as SqliteDataKeyStore, {
      replace: async (id: string, expected: Buffer, wrapped: Buffer) => {
        if (id === 'B') await store.destroy('B', new Date());
        return store.replace(id, expected, wrapped);
      },
    });
    const rotated = new DataKeys(
      erasing,
      keyring(2, [
        [1, V1],
        [2, V2],
      ]),
    );
    const counts = await rotated.rewrapAll();
    expect(counts.rewrapped).toBe(2);
    expect(counts.changed).toBe(1);
    expect(await store.get('B')).toBe('erased');
  });

  it('learns a rotation from its keyring: opens a key of a version it did not hold, and wraps new pools under it', async () => {
    const both = keyring(2, [
      [1, V1],
      [2, V2],
    ]);
    let now: Buffer = V1;
    const running = new DataKeys(store, V1, { poolSize: 2, keyring: { now: () => now, holding: (use) => use(now) } });
    await new DataKeys(store, both).keyFor('T2');
    await expect(running.existingKey('T2')).rejects.toBeInstanceOf(DataKeyNotOpened);
    now = both;
    expect(await running.existingKey('T2')).toHaveLength(32);
    expect(running.currentVersion).toBe(2);
    const id = await running.newTraineeId();
    expect(wrappedKeyVersion((await store.get(id)) as Buffer)).toBe(2);
  });
});
