import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyringError, KeyringFile, liveKeysOf, versionedKeys, withNewVersion } from '@app/keys';
import { SqliteDataKeyStore } from '@app/stores/sqlite';
import { DataKeys, wrappedKeyVersion } from './data-keys';
import type { DataKeyStore } from './data-key-store.port';

/**
 * A process's data keys over the service keyring file (docs/operations.md "Rotating the service
 * key"): a process started before a rotation wraps every key it makes after it under the new
 * version, whatever the path (a trainee's first key, a pool of new trainees', an adopted key, a
 * rotation's batch), and wraps nothing when the file cannot be read.
 */
describe('DataKeys with the keyring file', () => {
  let dir: string;
  let file: string;
  let store: SqliteDataKeyStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'data-keys-keyring-'));
    file = join(dir, 'keyring');
    writeFileSync(file, `${Buffer.alloc(32, 1).toString('base64')}\n`, { mode: 0o600 });
    store = SqliteDataKeyStore.open(dir);
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const keyring = () => new KeyringFile(file);
  const rotate = () => keyring().change((now) => ({ next: withNewVersion(now), result: null }));
  const started = (options: { poolSize?: number } = {}) =>
    new DataKeys(store, versionedKeys(keyring().read(), 'key-encryption'), { ...options, keyring: liveKeysOf(file, 'key-encryption') });
  const versionOf = async (id: string) => wrappedKeyVersion((await store.get(id)) as Buffer);

  it('wraps a first key and a pool made after a rotation under the new version, without a restart', async () => {
    let n = 0;
    const running = new DataKeys(store, versionedKeys(keyring().read(), 'key-encryption'), {
      poolSize: 2,
      newId: () => `P${n++}`,
      keyring: liveKeysOf(file, 'key-encryption'),
    });
    await running.keyFor('before');
    expect(await versionOf('before')).toBe(1);
    await rotate();
    await running.keyFor('after');
    expect(await versionOf('after')).toBe(2);
    expect(await versionOf(await running.newTraineeId())).toBe(2);
    expect(await running.existingKey('before')).toHaveLength(32);
  });

  it('wraps every batch of a rotation under the version current as that batch begins', async () => {
    const old = started();
    for (const id of ['A', 'B', 'C']) await old.keyFor(id);
    await rotate();
    // A third version made while the walk is between its batches: the batches after it use it.
    let reads = 0;
    const walked: DataKeyStore = Object.assign(Object.create(store) as DataKeyStore, {
      wrappedAfter: async (after: string | null, limit: number) => {
        if (reads++ === 1) await rotate();
        return store.wrappedAfter(after, limit);
      },
    });
    const rotating = new DataKeys(walked, versionedKeys(keyring().read(), 'key-encryption'), {
      keyring: liveKeysOf(file, 'key-encryption'),
    });
    const counts = await rotating.rewrapAll(1);
    expect(counts.rewrapped).toBe(3);
    expect([await versionOf('A'), await versionOf('B'), await versionOf('C')]).toEqual([2, 3, 3]);
  });

  it('wraps nothing while the keyring file cannot be read, and adopts no key then', async () => {
    const running = started({ poolSize: 2 });
    const wrapped = (await running.keyFor('T1'), (await store.get('T1')) as Buffer);
    rmSync(file);
    await expect(running.keyFor('T2')).rejects.toThrow(KeyringError);
    await expect(running.newTraineeId()).rejects.toThrow(KeyringError);
    await store.destroy('T1', new Date());
    await expect(running.adopt('T1', wrapped)).rejects.toThrow(KeyringError);
    expect([await store.get('T1'), await store.get('T2')]).toEqual(['erased', null]);
  });
});
