import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { versionedKeys } from './derived-keys';
import { fixedKeySource, keySourceIn, keySourceOf } from './key-source';
import { formatKeyring, parseKeyring } from './keyring';
import { unpackVersionedKeys } from './versioned-keys';

/** A keyring holding versions `held` (each key 32 bytes of its version number), the last current. */
function ring(...held: number[]): string {
  return formatKeyring({ current: Math.max(...held), versions: new Map(held.map((v) => [v, Buffer.alloc(32, v)])), pinned: new Map() });
}

describe('KeySource: the keys a store is handed, never the keyring file', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'key-source-'));
    file = join(dir, 'keyring');
    writeFileSync(file, ring(1));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const given = () => versionedKeys(parseKeyring(ring(1), 'ring', 'keyring'), 'key-encryption');

  it('gives the keys it was given, and the keyring as the file holds it now', () => {
    const source = keySourceOf(given(), file, 'key-encryption');
    expect(unpackVersionedKeys(source.keys).current).toBe(1);
    writeFileSync(file, ring(1, 2));
    expect(unpackVersionedKeys(source.live!.now()).current).toBe(2);
  });

  it('is made again from its ticket as a worker thread is started with it, reading the same file as it changes', () => {
    const ticket = keySourceOf(given(), file, 'key-encryption').forThread();
    writeFileSync(file, ring(1, 2, 3));
    // Structured-cloned, as a worker's `workerData` is, then made again as the worker does.
    const again = keySourceIn(structuredClone(ticket));
    expect(again.keys.equals(given())).toBe(true);
    expect(unpackVersionedKeys(again.live!.now()).current).toBe(3);
  });

  it('keeps fixed keys fixed: no keyring is read, in this thread or another', () => {
    const source = fixedKeySource(Buffer.alloc(32, 9));
    expect(source.live).toBeNull();
    const again = keySourceIn(structuredClone(source.forThread()));
    expect(again.live).toBeNull();
    expect(again.keys.equals(Buffer.alloc(32, 9))).toBe(true);
  });
});
