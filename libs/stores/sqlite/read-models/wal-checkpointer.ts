import type { Worker } from 'node:worker_threads';
import { startWorker } from '../start-worker';

/**
 * The automatic WAL checkpoint (pages: 32 MiB) of every connection to a checkpointed read store: a backstop for when the checkpointer
 * falls behind (docs/DESIGN.md "The projection thread"); a connection checks its own threshold at its commits, so all take it.
 */
export const WAL_BACKSTOP_PAGES = 8192;

export interface ReadStoreConnectionOptions {
  /** SQLite's default: 1,000 pages. */
  walAutocheckpointPages?: number;
}

export const CHECKPOINTED_BY_THREAD: ReadStoreConnectionOptions = { walAutocheckpointPages: WAL_BACKSTOP_PAGES };

/** Commits meanwhile share the checkpoint. */
export const CHECKPOINT_DELAY_MS = 100;

/** Slots of the shared counter. */
const COMMITS = 0;
const STOP = 1;

/**
 * WAL checkpoints on a thread of their own rather than in the writer's commits: {@link committed} wakes it, it waits
 * {@link CHECKPOINT_DELAY_MS} and runs a passive checkpoint (no write lock: no writer waits on it); idle, it sleeps on `Atomics.wait`.
 */
export class WalCheckpointer {
  private readonly flags = new Int32Array(new SharedArrayBuffer(8));
  private readonly worker: Worker;
  private readonly exited: Promise<void>;

  /** `file` must exist; `onError` hears a failed checkpoint or the thread's end by an error (the backstop then bounds the WAL). */
  constructor(file: string, onError: (message: string) => void) {
    this.worker = startWorker(__dirname, 'wal-checkpointer', { file, flags: this.flags, delayMs: CHECKPOINT_DELAY_MS });
    this.worker.on('message', (message: string) => onError(message));
    this.worker.on('error', (error) => onError(error.message));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** A few ns: an atomic add and a notify. */
  committed(): void {
    Atomics.add(this.flags, COMMITS, 1);
    Atomics.notify(this.flags, COMMITS, 1);
  }

  /** A checkpoint under way ends first; none starts after. */
  async stop(): Promise<void> {
    Atomics.store(this.flags, STOP, 1);
    // The counter moves too, so a thread about to wait on it does not sleep through the stop.
    Atomics.add(this.flags, COMMITS, 1);
    Atomics.notify(this.flags, COMMITS);
    Atomics.notify(this.flags, STOP);
    await this.exited;
  }
}
