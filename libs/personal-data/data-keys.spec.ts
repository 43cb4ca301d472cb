import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SqliteDataKeyStore } from '@app/stores/sqlite';
import { DataKeyNotOpened, DataKeys, TraineeErased } from './data-keys';

describe('DataKeys: one data key per trainee, wrapped under the key-encryption key (issue 27)', () => {
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
    await expect(keys.keyFor('T1')).rejects.toBeInstanceOf(TraineeErased);
  });
});
