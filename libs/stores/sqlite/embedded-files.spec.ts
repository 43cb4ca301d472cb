/**
 * A damaged read store (docs/operations.md "Health"): found at the start by `quick_check` (or by
 * its mark, when a read met the damage while it served), moved aside with its WAL, never read
 * again, unless another process has it open; a read that meets the damage is `ReadModelsDamaged`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ReadModelsDamaged } from '@app/runtime/projector';
import { SqliteReadModel } from './read-models/sqlite-read-model';
import { corruptPage, quickCheck } from './read-models/testing/damage';
import { closeFreshEventStore, openFreshEventStore, writeHistory } from './read-models/testing/read-model-histories';
import { isReadStoreDamaged, prepareEmbeddedFiles, type FilesLog } from './embedded-files';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store';
import type { SqliteEventStore } from './event-log/sqlite-event-store';

let dir: string;
let store: SqliteEventStore;
let file: string;
let logged: { level: string; message: string; context?: Record<string, unknown> }[];
const log: FilesLog = {
  info: (message, context) => logged.push({ level: 'info', message, context }),
  warn: (message, context) => logged.push({ level: 'warn', message, context }),
  error: (message, context) => logged.push({ level: 'error', message, context }),
};

/** A read store of 30 trainees, its connection closed (no WAL left), then one page of its trainees' table overwritten. */
async function damagedReadStore(): Promise<void> {
  await writeHistory(store, 30, 2);
  const rm = SqliteReadModel.open(dir);
  await rm.applyBatch(await store.readAll({ maxCount: 100_000 }));
  rm.close();
  corruptPage(file, 'trainees_');
  expect(quickCheck(file)).not.toEqual(['ok']);
}

/** Another OS process holding a connection to `path` until killed; resolves once it has read the file. */
async function holder(path: string): Promise<ChildProcess> {
  const script = `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(path)});
    db.prepare('SELECT COUNT(*) FROM sqlite_schema').get(); process.stdout.write('open\\n'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  return child;
}

beforeEach(() => {
  ({ dir, store } = openFreshEventStore());
  file = join(dir, 'read-models.sqlite');
  logged = [];
});
afterEach(() => closeFreshEventStore({ dir, store }));

describe('prepareEmbeddedFiles: the read store at start', () => {
  it('moves a damaged read store aside, its WAL and shared memory with it, logs at error where it went, and leaves no mark', async () => {
    await damagedReadStore();
    writeFileSync(`${file}-shm`, '');
    const prepared = await prepareEmbeddedFiles(dir, Infinity, log);
    expect(prepared.movedAside).toMatch(/\/read-models\.sqlite\.damaged-\d{8}T\d{6}Z$/);
    expect(existsSync(prepared.movedAside!)).toBe(true);
    // Nothing of it is left where a fresh store would open it.
    expect(readdirSync(dir).filter((f) => f.startsWith('read-models.sqlite') && !f.includes('.damaged-'))).toEqual([]);
    const error = logged.find((l) => l.level === 'error')!;
    expect(error.message).toMatch(/moved aside/);
    expect(error.context).toMatchObject({ moved_to: prepared.movedAside });
    expect(isReadStoreDamaged(dir)).toBe(false);
  });

  it('moves an older data dir’s kept state out of its damaged read store before moving the store aside', async () => {
    await writeHistory(store, 30, 2);
    const rm = SqliteReadModel.open(dir);
    await rm.applyBatch(await store.readAll({ maxCount: 100_000 }));
    rm.close();
    const olderKeys = new SqliteIdempotencyStore(file);
    const claim = await olderKeys.claim('token-1', 'key-1', 'fingerprint-1', new Date('2026-12-01T10:00:00Z'));
    if (claim.outcome === 'claimed')
      await olderKeys.complete('token-1', 'key-1', claim.claim, { status: 201, contentType: 'x', body: 'kept' });
    olderKeys.close();
    corruptPage(file, 'trainees_');
    expect((await prepareEmbeddedFiles(dir, Infinity, log)).movedAside).not.toBeNull();
    const keys = SqliteIdempotencyStore.open(dir);
    expect(await keys.claim('token-1', 'key-1', 'fingerprint-1', new Date('2026-12-01T10:00:01Z'))).toEqual({
      outcome: 'replay',
      answer: { status: 201, contentType: 'x', body: 'kept' },
    });
    keys.close();
  });

  it('leaves a sound read store where it is, saying it was checked', async () => {
    await writeHistory(store, 3, 0);
    const rm = SqliteReadModel.open(dir);
    await rm.applyBatch(await store.readAll({ maxCount: 1000 }));
    rm.close();
    const prepared = await prepareEmbeddedFiles(dir, Infinity, log);
    expect(prepared.movedAside).toBeNull();
    expect(existsSync(file)).toBe(true);
    expect(logged.map((l) => l.message)).toContain('read store checked: sound');
  });

  it('refuses to move a damaged read store another process has open, and marks it', async () => {
    await damagedReadStore();
    const other = await holder(file);
    try {
      await expect(prepareEmbeddedFiles(dir, Infinity, log)).rejects.toThrow(ReadModelsDamaged);
      expect(existsSync(file)).toBe(true);
      expect(isReadStoreDamaged(dir)).toBe(true);
    } finally {
      other.kill('SIGKILL');
      await new Promise((resolve) => other.once('exit', resolve));
    }
    // Once it is closed, the next start moves it aside by its mark.
    expect((await prepareEmbeddedFiles(dir, null, log)).movedAside).not.toBeNull();
  });

  it('follows a check past its wait beside the service, and marks the damage it finds', async () => {
    await damagedReadStore();
    const prepared = await prepareEmbeddedFiles(dir, 0, log);
    expect(prepared.movedAside).toBeNull();
    for (const until = Date.now() + 10_000; !isReadStoreDamaged(dir) && Date.now() < until;) await new Promise((r) => setTimeout(r, 20));
    expect(isReadStoreDamaged(dir)).toBe(true);
    expect(logged.find((l) => l.level === 'error')?.message).toMatch(/damaged: not ready; a restart moves it aside/);
    prepared.close();
  });
});

describe('SqliteReadModel on a damaged file', () => {
  it('answers ReadModelsDamaged to a read that meets the damage, and marks it for the next start', async () => {
    await writeHistory(store, 30, 2);
    const events = await store.readAll({ maxCount: 100_000 });
    let rm = SqliteReadModel.open(dir);
    await rm.applyBatch(events);
    rm.close();
    corruptPage(file, 'trainees_');
    rm = SqliteReadModel.open(dir);
    const reads = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => rm.getTrainee(`T${i}`)));
    rm.close();
    const failed = reads.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason);
    expect(failed.length).toBeGreaterThan(0);
    for (const err of failed) expect(err).toBeInstanceOf(ReadModelsDamaged);
    expect(isReadStoreDamaged(dir)).toBe(true);
    expect(readFileSync(`${file}.damaged`, 'utf8')).toMatch(/^\d{4}-\d\d-\d\dT.*Z .*malformed/);
    const prepared = await prepareEmbeddedFiles(dir, null, log);
    expect(prepared.movedAside).not.toBeNull();
    expect(existsSync(file)).toBe(false);
  });
});
