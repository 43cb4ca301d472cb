import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deriveKey } from './derived-keys';
import { formatKeyring, KeyringError, parseKeyring, PINNED_PURPOSES } from './keyring';
import { KeyringFile } from './keyring-file';
import { KeyringBusy } from './keyring-lock';
import type { BackupNeed, RetirementPorts } from './ports';
import { retireKeyVersion, RetirementRefused } from './retire-key-version';
import { rotateKeys } from './rotate-keys';

/** A keyring of versions `held` (the highest current), each a key of its own. */
function ring(...held: number[]): string {
  return formatKeyring({ current: Math.max(...held), versions: new Map(held.map((v) => [v, Buffer.alloc(32, v)])), pinned: new Map() });
}

/** Ports that count `keys` data keys and `secrets` webhook secrets under each version, and name `backups` as needing any. */
function ports(counts: { keys?: Record<number, number>; secrets?: Record<number, number>; backups?: BackupNeed[] | null } = {}) {
  const calls: string[] = [];
  const map = (o: Record<number, number> = {}) => new Map(Object.entries(o).map(([v, n]) => [Number(v), n]));
  const given: RetirementPorts = {
    dataKeys: {
      rewrapAll: async () => (calls.push('rewrap'), { rewrapped: 3, current: 1, changed: 0, before: map(counts.keys) }),
      versionCounts: async () => (calls.push('count keys'), map(counts.keys)),
    },
    secrets: {
      resealSecrets: async () => (calls.push('reseal'), { resealed: 1, current: 0, before: new Map() }),
      secretVersions: async () => (calls.push('count secrets'), map(counts.secrets)),
    },
    backups: counts.backups === null ? null : { dir: '/backups', needing: async () => (calls.push('backups'), counts.backups ?? []) },
  };
  return { calls, withPorts: <T>(work: (p: RetirementPorts) => Promise<T>) => work(given) };
}

describe('rotating the service key and retiring a version (docs/operations.md "Rotating the service key")', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'key-rotation-'));
    file = join(dir, 'keyring');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const held = () => [...parseKeyring(readFileSync(file, 'utf8'), file, 'keyring').versions.keys()].sort((a, b) => a - b);

  it('adds a version after the highest held, wraps everything again, and names the version before the previous one to retire', async () => {
    writeFileSync(file, ring(1, 2));
    const { calls, withPorts } = ports();
    const report = await rotateKeys(new KeyringFile(file), withPorts);
    expect(held()).toEqual([1, 2, 3]);
    expect(calls).toEqual(['rewrap', 'reseal']);
    expect(report).toEqual({
      current: 3,
      dataKeys: { rewrapped: 3, current: 1, changed: 0 },
      secrets: { resealed: 1, current: 0 },
      retireNext: [1],
      previous: 2,
    });
    const resumed = await rotateKeys(new KeyringFile(file), withPorts, { resume: true });
    expect(held()).toEqual([1, 2, 3]);
    expect(resumed.current).toBe(3);
    writeFileSync(file, ring(1));
    expect(await rotateKeys(new KeyringFile(file), withPorts)).toMatchObject({ current: 2, retireNext: [], previous: 1 });
  });

  it('retires a version nothing is wrapped under, counting inside the lock, and keeps the keys version 1 names and signs with', async () => {
    writeFileSync(file, ring(1, 2, 3));
    const before = parseKeyring(readFileSync(file, 'utf8'), file, 'keyring');
    const { calls, withPorts } = ports({ keys: { 3: 5 }, secrets: { 3: 1 } });
    // While it counts, no process can take the keyring to store a key under the version counted.
    let lockedOut: unknown = null;
    const counting = <T>(work: (p: RetirementPorts) => Promise<T>) =>
      withPorts((p) =>
        work({
          ...p,
          dataKeys: {
            ...p.dataKeys!,
            versionCounts: async () => {
              lockedOut = await new KeyringFile(file, { waitMs: 0 }).holding(async () => null).catch((err: unknown) => err);
              return p.dataKeys!.versionCounts();
            },
          },
        }),
      );
    const report = await retireKeyVersion(new KeyringFile(file), 1, counting);
    expect(lockedOut).toBeInstanceOf(KeyringBusy);
    expect(report).toEqual({ version: 1, file, backups: { dir: '/backups', broken: [] } });
    expect(calls).toEqual(['count keys', 'count secrets', 'backups']);
    const after = parseKeyring(readFileSync(file, 'utf8'), file, 'keyring');
    expect([...after.versions.keys()]).toEqual([2, 3]);
    for (const purpose of PINNED_PURPOSES) expect(deriveKey(after, purpose)).toEqual(deriveKey(before, purpose));
  });

  it('refuses the current version, one not held, and one a data key or an endpoint secret is still wrapped under, changing nothing', async () => {
    writeFileSync(file, ring(1, 2, 3));
    const text = readFileSync(file, 'utf8');
    const keyring = new KeyringFile(file);
    await expect(retireKeyVersion(keyring, 3, ports().withPorts)).rejects.toThrow(
      new KeyringError('version 3 is current: rotate to a new version before retiring it'),
    );
    await expect(retireKeyVersion(keyring, 7, ports().withPorts)).rejects.toThrow(KeyringError);
    await expect(retireKeyVersion(keyring, 2, ports({ keys: { 2: 4 } }).withPorts)).rejects.toThrow(
      'version 2 still wraps 4 data keys and 0 webhook secrets: run admin keys rotate --resume, then retire again',
    );
    await expect(retireKeyVersion(keyring, 2, ports({ secrets: { 2: 1 } }).withPorts)).rejects.toThrow(RetirementRefused);
    expect(readFileSync(file, 'utf8') === text).toBe(true);
  });

  it('refuses while a kept backup needs the version, naming each, and retires it once every one is named', async () => {
    writeFileSync(file, ring(1, 2, 3));
    const keyring = new KeyringFile(file);
    const backups = [
      { name: '2026-11-28T12', why: 'holds 4 data keys and 0 webhook secrets under version 2' },
      { name: 'made.partial', why: 'unfinished or without a readable manifest: not checked' },
    ];
    const refused = retireKeyVersion(keyring, 2, ports({ backups }).withPorts, { breakingBackups: ['2026-11-28T12'] });
    await expect(refused).rejects.toThrow(RetirementRefused);
    await expect(refused).rejects.toThrow(
      'version 2 is still needed by 1 backup in /backups, which would no longer open (backup verify, backup restore) once it is retired: ' +
        'made.partial (unfinished or without a readable manifest: not checked). Retire it once they are deleted, or name them to break ' +
        'them: admin keys retire 2 --breaking-backups made.partial',
    );
    expect(held()).toEqual([1, 2, 3]);
    const report = await retireKeyVersion(keyring, 2, ports({ backups }).withPorts, { breakingBackups: ['2026-11-28T12', 'made.partial'] });
    expect(report.backups).toEqual({ dir: '/backups', broken: backups });
    expect(held()).toEqual([1, 3]);
  });

  it('retires with no backup checked where no backup directory is given, and says so', async () => {
    writeFileSync(file, ring(1, 2));
    const { calls, withPorts } = ports({ backups: null });
    expect(await retireKeyVersion(new KeyringFile(file), 1, withPorts)).toEqual({ version: 1, file, backups: null });
    expect(calls).toEqual(['count keys', 'count secrets']);
  });
});
