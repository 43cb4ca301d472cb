import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadServiceKey } from '@app/runtime/process';
import { deriveKey, versionedKeys } from './derived-keys';
import { formatKeyring, hkdfOf, KeyringError, parseKeyring, withNewVersion, withoutVersion } from './keyring';
import { KeyringFile } from './keyring-file';
import { unpackVersionedKeys } from './versioned-keys';

const K1 = Buffer.alloc(32, 1);
const K2 = Buffer.alloc(32, 2);
const parse = (text: string) => parseKeyring(text, '/keys', 'DATA_KEY_FILE');

describe('the service keyring (docs/operations.md "The service key", "Rotating the service key")', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'keyring-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a lone key as version 1, and versioned lines with the highest version current', () => {
    expect(parse(`${K1.toString('base64')}\n`)).toEqual({ current: 1, versions: new Map([[1, K1]]), pinned: new Map() });
    const ring = parse(`# a comment\n\n1 ${K1.toString('base64')}\n2 ${K2.toString('base64')}\n`);
    expect(ring.current).toBe(2);
    expect(ring.versions.get(1)).toEqual(K1);
    expect(parse(formatKeyring(ring))).toEqual(ring);
  });

  it('reads a one-line keyring whose version and key a tab separates as that version', () => {
    expect(parse(`1\t${K1.toString('base64')}\n`)).toEqual({ current: 1, versions: new Map([[1, K1]]), pinned: new Map() });
  });

  it('refuses, without quoting the file, lines that are not a version or a purpose, repeats, short keys, and no version', () => {
    const secret = K1.toString('base64');
    for (const text of [
      '',
      `x ${secret}`,
      `1 ${secret}\n1 ${secret}`,
      `1 ${Buffer.alloc(16).toString('base64')}`,
      `1 ${secret} extra`,
      `0 ${secret}`,
    ]) {
      expect(() => parse(text)).toThrow(KeyringError);
      expect(() => parse(text)).not.toThrow(secret);
    }
    expect(() => parse(`2 ${secret}`)).toThrow(/neither version 1 nor the keys kept from it/);
  });

  it('seals with the current version and opens with every version held; names and signs with version 1, kept once it is retired', () => {
    const ring = parse(`1 ${K1.toString('base64')}\n2 ${K2.toString('base64')}`);
    expect(deriveKey(ring, 'key-encryption')).toEqual(hkdfOf(K2, 'key-encryption'));
    const keks = unpackVersionedKeys(versionedKeys(ring, 'key-encryption'));
    expect(keks.current).toBe(2);
    expect(keks.keys.get(1)).toEqual(hkdfOf(K1, 'key-encryption'));
    for (const purpose of ['registration-guards', 'change-feed-cursors', 'backup-manifests'] as const) {
      expect(deriveKey(ring, purpose)).toEqual(deriveKey(K1, purpose));
    }
    const retired = withoutVersion(ring, 1);
    expect([...retired.versions.keys()]).toEqual([2]);
    const reread = parse(formatKeyring(retired));
    expect(formatKeyring(reread)).not.toContain(K1.toString('base64'));
    for (const purpose of ['registration-guards', 'change-feed-cursors', 'backup-manifests'] as const) {
      expect(deriveKey(reread, purpose)).toEqual(deriveKey(K1, purpose));
    }
    expect(unpackVersionedKeys(versionedKeys(reread, 'key-encryption')).keys.has(1)).toBe(false);
  });

  it('adds a new random version as current, and refuses to retire the current version or one not held', () => {
    const ring = parse(K1.toString('base64'));
    const next = withNewVersion(ring);
    expect(next.current).toBe(2);
    expect(next.versions.get(2)).toHaveLength(32);
    expect(next.versions.get(2)!.equals(K1)).toBe(false);
    expect(() => withoutVersion(next, 2)).toThrow(/is current/);
    expect(() => withoutVersion(next, 7)).toThrow(/no version 7/);
  });

  it('writes the keyring whole, readable by its owner only, and the service loads it', async () => {
    const file = join(dir, 'keyring');
    writeFileSync(file, K1.toString('base64'), { mode: 0o600 });
    await new KeyringFile(file).change((now) => ({ next: withNewVersion(now), result: null }));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toMatch(/^1 /m);
    const loaded = loadServiceKey({ dataDir: dir, dataKeyFile: file });
    expect(loaded.keyring.current).toBe(2);
    expect(loaded.key).toEqual(loaded.keyring.versions.get(2));
  });
});
