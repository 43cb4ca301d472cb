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

/** Message first, as the projector's logger takes them. */
export interface FilesLog {
  info(message: string, context?: Record<string, unknown>): void;
  warn(message: string, context?: Record<string, unknown>): void;
  error(message: string, context?: Record<string, unknown>): void;
}

/** Past it the service starts and the check goes on beside it (docs/operations.md "Health"); a warm 20,000-trainee file takes ~0.5 s. */
export const READ_STORE_CHECK_WAIT_MS = 1_000;

export interface PreparedFiles {
  /** At this start; else null. */
  movedAside: string | null;
  /** Its thread stops once SQLite answers. */
  close(): void;
}

/**
 * Readies the embedded files before any connection of this process opens them (docs/operations.md "Health"): (1) with `checkWaitMs`,
 * `quick_check` of the read store for at most that long, then beside the service, damage marked; a mark from earlier acted on unchecked;
 * (2) an older data dir's kept state moved into `state.sqlite`; (3) a damaged read store moved aside, logged, so the projector builds a
 * fresh one. Throws {@link ReadModelsDamaged} when another process has the damaged store open: moving it would split the two.
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

/** Null: sound, or no verdict (logged at warn, the file left as it is). */
function verdictOf(verdict: CheckOutcome, log: FilesLog): string | null {
  if ('error' in verdict) {
    log.warn('read store could not be checked; starting on it as it is', { file: READ_STORE_FILE, error: verdict.error });
    return null;
  }
  return verdict.problem;
}

/** Damage it finds is marked and logged at error; a sound file is logged. */
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

/** The kept state moved out of the read store; returns damage met in a store not known damaged (moved as from a damaged one) or null. */
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

/** The damaged read store moved aside; returns its new path. */
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

/** By this thread, or any process (its mark). */
export function isReadStoreDamaged(dataDir: string): boolean {
  return isMarkedDamaged(join(dataDir, READ_STORE_FILE));
}

function secondsSince(started: number): number {
  return Math.round((performance.now() - started) / 10) / 100;
}
