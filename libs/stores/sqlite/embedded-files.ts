import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ReadModelsDamaged } from '@app/runtime/projector';
import { makePrivateDirectory } from '@app/sqlite';
import { READ_STORE_FILE } from './read-models/read-store-file';
import { checkReadStore, type CheckOutcome, type ReadStoreCheck } from './read-models/read-store-check';
import {
  damageMark,
  forgetStaleMark,
  isCorruption,
  isMarkedDamaged,
  markDamaged,
  moveAside,
  openElsewhere,
} from './read-models/read-store-damage';
import { moveStateOutOfReadStore } from './state-migration';
import { STATE_FILE } from './state-file';

/** Where the start's notes go (message first, as the projector's logger takes them). */
export interface FilesLog {
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

/**
 * How long a start waits for the read store's `quick_check`, ms: past it the service starts and the
 * check goes on beside it (docs/operations.md "Health"). A warm 20,000-trainee file takes about 0.5 s.
 */
export const READ_STORE_CHECK_WAIT_MS = 1_000;

/** What {@link prepareEmbeddedFiles} did. */
export interface PreparedFiles {
  /** Where the damaged read store was moved, when it was at this start; else null. */
  movedAside: string | null;
  /** Ends a check still going on beside the service (its thread stops once SQLite answers). */
  close(): void;
}

/**
 * Readies the embedded stores' files in `dataDir` before any of this process's connections opens
 * them (docs/operations.md "Health", "Backups and restore"):
 *
 * 1. the read store (`read-models.sqlite`) is checked with `PRAGMA quick_check` when `checkWaitMs`
 *    is given, waiting that long at most (Infinity: to the end); a check still going on is followed
 *    beside the service, and damage it finds is marked (`/readyz` not ready; the next start moves
 *    the file aside). Damage recorded earlier (its mark) is acted on without a check;
 * 2. what an older data dir kept in the read store and the log cannot make again is moved into
 *    `state.sqlite` (`moveStateOutOfReadStore`; from a damaged file, the tables that still read);
 * 3. a damaged read store is moved aside (`moveAside`), logged at error naming the file it became,
 *    so that the projector builds a fresh one from the log by its first build by stream and never
 *    reads the damaged one. Throws {@link ReadModelsDamaged} (saying to restart the service) when
 *    another process has it open: moving it from under that process would split the two.
 */
export async function prepareEmbeddedFiles(dataDir: string, checkWaitMs: number | null, log: FilesLog): Promise<PreparedFiles> {
  makePrivateDirectory(dataDir);
  const file = join(dataDir, READ_STORE_FILE);
  forgetStaleMark(file);
  let problem = existsSync(file) ? damageMark(file) : null;
  let check: ReadStoreCheck | null = null;
  if (problem === null && checkWaitMs !== null && existsSync(file)) {
    const started = performance.now();
    check = checkReadStore(file);
    const verdict = await within(check.outcome, checkWaitMs);
    if (verdict) {
      check = null;
      problem = verdictOf(verdict, log);
      if (problem === null) log.info('read store checked: sound', { file: READ_STORE_FILE, seconds: secondsSince(started) });
    } else {
      log.info('read store check goes on beside the service', { file: READ_STORE_FILE, waited_ms: checkWaitMs });
      followCheck(check, file, started, log);
    }
  }
  problem = moveState(dataDir, problem, log) ?? problem;
  if (problem !== null) return { movedAside: repair(file, problem, log), close: () => undefined };
  const pending = check;
  return { movedAside: null, close: () => void pending?.stop() };
}

/** `outcome` when it settles within `ms`, else null. */
async function within<T>(outcome: Promise<T>, ms: number): Promise<T | null> {
  if (ms === Infinity) return outcome;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([outcome, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The problem a check found (null: sound, or no verdict, which is logged at warn and leaves the file as it is). */
function verdictOf(verdict: CheckOutcome, log: FilesLog): string | null {
  if ('error' in verdict) {
    log.warn('read store could not be checked; starting on it as it is', { file: READ_STORE_FILE, error: verdict.error });
    return null;
  }
  return verdict.problem;
}

/** A check past the start's wait: damage it finds is marked and logged at error; a sound file is logged. */
function followCheck(check: ReadStoreCheck, file: string, started: number, log: FilesLog): void {
  void check.outcome.then((verdict) => {
    if ('error' in verdict) return;
    if (verdict.problem === null) {
      log.info('read store checked: sound', { file: READ_STORE_FILE, seconds: secondsSince(started) });
      return;
    }
    markDamaged(file, verdict.problem);
    log.error('read store is damaged: not ready; a restart moves it aside and rebuilds it from the event log', {
      file: READ_STORE_FILE,
      problem: verdict.problem,
    });
  });
}

/**
 * The kept state moved out of the read store, before its repair; returns the damage met in a read store not known to be damaged
 * (then moved from as from a damaged one), else null. Throws what the move throws from a sound store.
 */
function moveState(dataDir: string, problem: string | null, log: FilesLog): string | null {
  try {
    const moved = moveStateOutOfReadStore(dataDir, { damaged: problem !== null });
    if (moved) log.info(`moved the kept state out of ${READ_STORE_FILE} into ${STATE_FILE}`, { ...moved });
    if (moved?.unreadable.length)
      log.error(`kept state left in the damaged ${READ_STORE_FILE}, which cannot read it`, { unreadable: moved.unreadable });
    return null;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (problem === null && isCorruption(err)) {
      moveState(dataDir, message, log);
      return message;
    }
    if (problem === null) throw err;
    log.error(`kept state could not be read from the damaged ${READ_STORE_FILE}; it stays in it`, { error: message });
    return null;
  }
}

/** The damaged read store moved aside, once the kept state is out of it; returns its new path. */
function repair(file: string, problem: string, log: FilesLog): string {
  if (openElsewhere(file)) {
    markDamaged(file, problem);
    throw new ReadModelsDamaged(`${problem}; another process has ${READ_STORE_FILE} open, so it was left where it is`);
  }
  const movedTo = moveAside(file);
  log.error('read store is damaged: moved aside; building a fresh one from the event log', {
    problem,
    moved_to: movedTo,
  });
  return movedTo;
}

/** Whether the read store of `dataDir` was found damaged since it was opened, by this thread or by any process (its mark). */
export function isReadStoreDamaged(dataDir: string): boolean {
  return isMarkedDamaged(join(dataDir, READ_STORE_FILE));
}

function secondsSince(started: number): number {
  return Math.round((performance.now() - started) / 10) / 100;
}
