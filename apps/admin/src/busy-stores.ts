import { busyStoreIn, isStoreBusy } from '@app/composition';

export { busyStoreIn, isStoreBusy };

/**
 * The longest an admin command waits for a busy SQLite store, in all, in ms: 30 s
 * (docs/operations.md "The admin CLI"). `ADMIN_BUSY_WAIT_MS` in the environment sets another.
 */
export const ADMIN_BUSY_WAIT_MS = 30_000;

/** The first pause before an operation refused by a busy store runs again, in ms; it doubles each time, up to {@link MAX_PAUSE_MS}. */
const FIRST_PAUSE_MS = 100;
const MAX_PAUSE_MS = 2_000;

/**
 * The admin CLI's wait for a busy store: `ADMIN_BUSY_WAIT_MS` when set (a whole number of ms, 0 to
 * 3,600,000), else {@link ADMIN_BUSY_WAIT_MS}. Throws RangeError naming the variable for another value.
 */
export function busyWaitOf(env: NodeJS.ProcessEnv): number {
  const text = (env.ADMIN_BUSY_WAIT_MS ?? '').trim();
  if (text === '') return ADMIN_BUSY_WAIT_MS;
  if (!/^\d{1,7}$/.test(text) || Number(text) > 3_600_000) {
    throw new RangeError(`ADMIN_BUSY_WAIT_MS must be a whole number of ms from 0 to 3600000, got '${text.slice(0, 20)}'`);
  }
  return Number(text);
}

/**
 * A command gave up on a busy store (exit 1): one sentence naming the file, when one was still
 * found busy ({@link busyStoreIn}), and what to do.
 */
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

/**
 * Runs operations that a busy SQLite store may refuse, within one wait of `waitMs` in all. The
 * wait starts when an attempt that is then refused began; each attempt after it sets the lock wait
 * of the connections it opens (`setLockWait`) to what is left, so no wait runs past it.
 */
export class BusyWait {
  private deadline: number | null = null;

  constructor(
    private readonly waitMs: number,
    private readonly dataDir: string,
    private readonly setLockWait: (ms: number) => void,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  ) {}

  /**
   * `op`'s result. While it is refused by a busy store (`isStoreBusy`) and the wait is not over,
   * it runs again after a pause (100 ms, doubling up to 2 s, never past the wait's end); then
   * throws {@link StoreBusy}. Other errors are thrown as they come. Only for an `op` that is safe
   * to run again after a refusal: the caller says why (an operation that stored nothing, because
   * SQLite rolled back the transaction refused, or one whose every step is idempotent).
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

  /** `op`'s result, run once: a refusal by a busy store is thrown as {@link StoreBusy}. */
  async once<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (error) {
      throw isStoreBusy(error) ? this.gaveUp() : error;
    }
  }

  /** The {@link StoreBusy} of this wait, naming the file still busy. */
  gaveUp(): StoreBusy {
    return new StoreBusy(busyStoreIn(this.dataDir), this.dataDir, this.waitMs);
  }
}
