import type { Worker } from 'node:worker_threads';
import { startWorker } from '../start-worker';

/**
 * The automatic WAL checkpoint, in pages (32 MiB at 4 KiB pages), of every connection to a read
 * store whose checkpoints a {@link WalCheckpointer} makes: a backstop, reached only when the
 * checkpointer falls behind (docs/DESIGN.md "The projection thread"). Every connection checkpoints
 * when its own commit finds the WAL past its own threshold, so all of them take this one.
 */
export const WAL_BACKSTOP_PAGES = 8192;

/** Options of a connection to a read store's file (`read-models.sqlite`). */
export interface ReadStoreConnectionOptions {
  /** The connection's automatic WAL checkpoint, in pages (SQLite's default: 1,000). */
  walAutocheckpointPages?: number;
}

/** The options of every connection to a read store whose checkpoints a {@link WalCheckpointer} makes. */
export const CHECKPOINTED_BY_THREAD: ReadStoreConnectionOptions = { walAutocheckpointPages: WAL_BACKSTOP_PAGES };

/** How long after a commit the checkpointer checkpoints, in ms: commits meanwhile share the checkpoint. */
export const CHECKPOINT_DELAY_MS = 100;

/** Slots of the shared counter: commits told, and the stop flag. */
const COMMITS = 0;
const STOP = 1;

/**
 * The WAL checkpoints of one SQLite file, made in a thread of their own (`wal-checkpointer.worker`)
 * rather than inside the writer's commits: {@link committed} wakes the thread, which waits
 * {@link CHECKPOINT_DELAY_MS} and runs `PRAGMA wal_checkpoint(PASSIVE)` on its own connection (a
 * passive checkpoint takes no write lock, so no writer ever waits on it). The thread sleeps while
 * nothing is committed (a shared counter, `Atomics.wait`): no timer, no work when idle. Writers
 * keep their automatic checkpoint at {@link WAL_BACKSTOP_PAGES} for when it falls behind.
 */
export class WalCheckpointer {
  private readonly flags = new Int32Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  /**
   * Starts the thread on `file` (which must exist); `onError` gets the message of a failed
   * checkpoint or of the thread's end by an error (the backstop then keeps the WAL bounded).
   */
  constructor(file: string, onError: (message: string) => void) {
    this.worker = startWorker(__dirname, 'wal-checkpointer', { file, flags: this.flags, delayMs: CHECKPOINT_DELAY_MS });
    this.worker.on('message', (message: string) => onError(message));
    this.worker.on('error', (error) => onError(error.message));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** Tells the thread of a commit (a few ns: an atomic add and a notify). */
  committed(): void {
    Atomics.add(this.flags, COMMITS, 1);
    Atomics.notify(this.flags, COMMITS, 1);
  }

  /** Stops the thread (a checkpoint under way ends first; none is started after) and waits for it to exit. */
  async stop(): Promise<void> {
    Atomics.store(this.flags, STOP, 1);
    // The counter moves too, so a thread about to wait on it does not sleep through the stop.
    Atomics.add(this.flags, COMMITS, 1);
    Atomics.notify(this.flags, COMMITS);
    Atomics.notify(this.flags, STOP);
    await this.exited;
  }
}
