import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ProcessMetrics } from '@app/runtime/process';
import { StorageFaults } from './storage-faults';

const coded = (code: string) => Object.assign(new Error('database or disk is full'), { code });

/** StorageFaults over `dataDir` with a logger and a counter that record what they are told. */
function faultsOver(dataDir: string) {
  const logged: Array<[string, string]> = [];
  const counted: string[] = [];
  const logger = {
    error: (_context: object, message: string) => logged.push(['error', message]),
    warn: (_context: object, message: string) => logged.push(['warn', message]),
  } as unknown as Logger;
  const metrics = { metrics: { counter: () => ({ inc: (labels: { kind: string }) => counted.push(labels.kind) }) } };
  return { faults: new StorageFaults({ dataDir }, logger, metrics as unknown as ProcessMetrics), logged, counted };
}

describe('StorageFaults (docs/operations.md "When the disk fills")', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'storage-faults-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('notes nothing for an error that is no storage fault', async () => {
    const { faults, logged, counted } = faultsOver(dir);
    expect(faults.noted(new Error('boom'))).toBeNull();
    expect(faults.noted(coded('SQLITE_BUSY'))).toBeNull();
    expect([logged, counted, await faults.reasons()]).toEqual([[], [], []]);
  });

  it('counts every fault, logs a kind once however often it comes, and says why until a write is stored', async () => {
    const { faults, logged, counted } = faultsOver(join(dir, 'missing', 'deeper'));
    for (let i = 0; i < 50; i++) expect(faults.noted(coded('SQLITE_FULL'))).toBe('full');
    faults.noted(coded('EROFS'));
    expect(counted).toEqual([...Array<string>(50).fill('full'), 'read_only']);
    expect(logged).toEqual([
      ['error', 'a write failed: the data directory is full; answering 503 until it can write again'],
      ['error', 'a write failed: the data directory is read-only; answering 503 until it can write again'],
    ]);
    // The probe cannot write where the data directory is missing: the fault stands.
    expect(await faults.reasons()).toEqual(['the data directory is read-only']);
    faults.writeSucceeded();
    expect(await faults.reasons()).toEqual([]);
    expect(logged.at(-1)?.[0]).toBe('warn');
    // Over, so a fault of the same kind is logged again.
    faults.noted(coded('EROFS'));
    expect(logged.filter(([level]) => level === 'error')).toHaveLength(3);
  });

  it('forgets the fault once a probe writes to the data directory, and leaves no probe file behind', async () => {
    const { faults } = faultsOver(dir);
    writeFileSync(join(dir, 'events.sqlite'), '');
    faults.noted(coded('ENOSPC'));
    expect(await faults.reasons()).toEqual([]);
    expect(readdirSync(dir)).toEqual(['events.sqlite']);
  });
});
