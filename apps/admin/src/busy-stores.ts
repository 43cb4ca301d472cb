import { busyStoreIn, isStoreBusy } from '@app/composition';

export { busyStoreIn, isStoreBusy };

/** In all (docs/operations.md "The admin CLI"); `ADMIN_BUSY_WAIT_MS` sets another. */
export const ADMIN_BUSY_WAIT_MS = 30_000;

/** Doubles each time, up to {@link MAX_PAUSE_MS}. */
const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 2_000;

/** `ADMIN_BUSY_WAIT_MS` (whole ms, 0 to 3,600,000), else the default; RangeError naming the variable for another value. */
export function busyWaitOf(env: NodeJS.ProcessEnv): number {
  const text = (env.ADMIN_BUSY_WAIT_MS ?? '').trim();
  if (text === '') return ADMIN_BUSY_WAIT_MS;
  if (!/^\d{1,7}$/.test(text) || Number(text) > 3_600_000) {
    throw new RangeError(`ADMIN_BUSY_WAIT_MS must be a whole number of ms from 0 to 3600000, got '${text.slice(0, 20)}'`);
  }
  return Number(text);
}

/** Exit 1: one sentence naming the file still busy, if found ({@link busyStoreIn}), and what to do. */
export class StoreBusy extends Error {
  constructor(
    readonly file: string | null,
    readonly dataDir: string,
    readonly waitedMs: number,
  ) {
    const what = file ?? `a store in ${dataDir}`;
    super(
      `${what} stayed busy for ${waitedMs / 1000} s (another process held its lock: an admin command such as keys rotate or ` +
        `backup create, a projection rebuild, or a stuck process); run the command again once that process has finished.`,
    );
    this.name = 'StoreBusy';
  }
}

/** One wait of `waitMs` in all, from the first refused attempt; each later attempt's connections wait only what is left (`setLockWait`). */
export class BusyWait {
  private deadline: number | null = null;

  constructor(
    private readonly waitMs: number,
    private readonly dataDir: string,
    private readonly setLockWait: (ms: number) => void,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /**
   * Reruns `op` while a busy store refuses it within the wait (pauses doubling from 100 ms to 2 s), then {@link StoreBusy}; other errors as
   * they come. Only for an `op` safe to rerun after a refusal (SQLite rolled it back, or every step is idempotent): the caller says why.
   */
  async again<T>(op: () => Promise<T>): Promise<T> {
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
      const began = Date.now();
      try {
        return await op();
      } catch (error) {
        if (!isStoreBusy(error)) throw error;
        this.deadline ??= began + this.waitMs;
        const left = this.deadline - Date.now();
        if (left <= 0) throw this.gaveUp();
        await this.sleep(Math.min(pause, left));
        this.setLockWait(Math.max(0, this.deadline - Date.now()));
      }
    }
  }

  /** A refusal by a busy store is thrown as {@link StoreBusy}. */
  async once<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (error) {
      throw isStoreBusy(error) ? this.gaveUp() : error;
    }
  }

  /** Naming the file still busy. */
  gaveUp(): StoreBusy {
    return new StoreBusy(busyStoreIn(this.dataDir), this.dataDir, this.waitMs);
  }
}
