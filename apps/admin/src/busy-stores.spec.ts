/** The admin CLI's wait for busy SQLite stores (docs/operations.md "The admin CLI"). */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ADMIN_BUSY_WAIT_MS, BusyWait, busyStoreIn, busyWaitOf, isStoreBusy, StoreBusy } from './busy-stores';
import { CliError } from './cli-context';
import { failureLine } from './main';

/** An error as better-sqlite3 throws it for a busy store. */
const busy = (code = 'SQLITE_BUSY') => Object.assign(new Error('database is locked'), { name: 'SqliteError', code });

describe('a busy SQLite store, as the admin CLI meets it', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'busy-stores-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is SQLITE_BUSY or SQLITE_LOCKED with their extended codes, thrown here, carried from a thread, or the cause', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED', 'SQLITE_LOCKED_SHAREDCACHE'])
      expect(isStoreBusy(busy(code))).toBe(true);
    expect(isStoreBusy({ name: 'SqliteError', message: 'database is locked', code: 'SQLITE_BUSY' })).toBe(true);
    expect(isStoreBusy(new Error('Cannot open the SQLite event store', { cause: busy() }))).toBe(true);
    for (const other of [busy('SQLITE_BUSYNESS'), busy('SQLITE_FULL'), new Error('database is locked'), null, 'SQLITE_BUSY']) {
      expect(isStoreBusy(other)).toBe(false);
    }
  });

  it(`is waited for ${ADMIN_BUSY_WAIT_MS} ms unless ADMIN_BUSY_WAIT_MS says otherwise`, () => {
    expect(busyWaitOf({})).toBe(30_000);
    expect(busyWaitOf({ ADMIN_BUSY_WAIT_MS: ' 1500 ' })).toBe(1500);
    for (const bad of ['1.5', '-1', 'soon', '3600001']) expect(() => busyWaitOf({ ADMIN_BUSY_WAIT_MS: bad })).toThrow(/ADMIN_BUSY_WAIT_MS/);
  });

  it('is named by its file when another connection holds its write lock', () => {
    for (const name of ['a.sqlite', 'b.sqlite']) new Database(join(dir, name)).close();
    expect(busyStoreIn(dir)).toBeNull();
    const holder = new Database(join(dir, 'b.sqlite'));
    holder.exec('BEGIN IMMEDIATE');
    try {
      expect(busyStoreIn(dir)).toBe(join(dir, 'b.sqlite'));
    } finally {
      holder.close();
    }
    expect(busyStoreIn(join(dir, 'missing'))).toBeNull();
  });

  it('runs an operation a busy store refused at once again, after growing pauses, each new connection then waiting what is left', async () => {
    const pauses: number[] = [];
    const lockWaits: number[] = [];
    const wait = new BusyWait(
      60_000,
      dir,
      (ms) => lockWaits.push(ms),
      async (ms) => void pauses.push(ms),
    );
    let attempts = 0;
    const result = await wait.again(async () => {
      if (++attempts <= 3) throw busy('SQLITE_BUSY_SNAPSHOT');
      return 'done';
    });
    expect(result).toBe('done');
    expect(pauses).toEqual([100, 200, 400]);
    expect(lockWaits).toHaveLength(3);
    for (const ms of lockWaits) expect(ms).toBeGreaterThan(50_000);
  });

  it('gives up once its wait is over, naming the store still busy; other errors pass at once', async () => {
    const holder = new Database(join(dir, 'keys.sqlite'));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const wait = new BusyWait(
        0,
        dir,
        () => undefined,
        async () => undefined,
      );
      const refused = wait.again(async () => Promise.reject(busy()));
      await expect(refused).rejects.toBeInstanceOf(StoreBusy);
      await expect(refused).rejects.toThrow(`${join(dir, 'keys.sqlite')} stayed busy for 0 s`);
      await expect(wait.once(async () => Promise.reject(busy()))).rejects.toBeInstanceOf(StoreBusy);
    } finally {
      holder.close();
    }
    let attempts = 0;
    const other = new BusyWait(
      60_000,
      dir,
      () => undefined,
      async () => undefined,
    ).again(async () => {
      attempts++;
      throw new RangeError('no');
    });
    await expect(other).rejects.toThrow(RangeError);
    expect(attempts).toBe(1);
  });
});

describe('what the admin CLI says when a command stops', () => {
  it('is one sentence: the reason of a refusal, or the class and code of an unexpected error, never its message or stack', () => {
    expect(failureLine(new CliError('No trainee with id X'), {}, 30_000)).toBe('Error: No trainee with id X');
    const unexpected = Object.assign(new TypeError('Cannot read properties of undefined (reading "Ann Smith")'), { code: 'E_X' });
    const line = failureLine(unexpected, {}, 30_000);
    expect(line).toBe(
      'Error: the command stopped on an unexpected TypeError (E_X); run it again with LOG_LEVEL=debug to see its message and stack trace.',
    );
    expect(line).not.toContain('Ann Smith');
    const debug = failureLine(unexpected, { LOG_LEVEL: 'debug' }, 30_000).split('\n');
    expect(debug[0]).toBe(line);
    expect(debug[1]).toBe('TypeError: Cannot read properties of undefined (reading "Ann Smith")');
    expect(debug.slice(2).every((l) => l.startsWith('    at '))).toBe(true);
  });

  it('names the store of a busy error that reached it, with the wait', () => {
    const dir = mkdtempSync(join(tmpdir(), 'busy-line-'));
    try {
      expect(failureLine(busy(), { DATA_DIR: dir }, 2500)).toBe(
        `Error: a store in ${dir} stayed busy for 2.5 s (another process held its lock: an admin command such as keys rotate or ` +
          'backup create, a projection rebuild, or a stuck process); run the command again once that process has finished.',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
