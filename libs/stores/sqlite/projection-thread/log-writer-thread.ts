/**
 * The API's log writer thread on the embedded stores (docs/DESIGN.md "The projection thread"),
 * seen from the API's thread: a worker thread that is the one writer of the event log
 * (log-writer.worker.ts). The API's thread posts each append, checked and serialized, here; the
 * appends of one turn of its event loop go in one message, and the thread commits them in its next
 * group commit. So the API's thread never waits on the disk's sync, and neither does the projector.
 */
import type { MessagePort, Worker } from 'node:worker_threads';
import type { AppendOutcome } from '../event-log/sqlite-event-store';
import type { QueuedWrite } from '../event-log/sqlite-rows';
import { holdSealedValues, revive, type FromWriter, type LogWriterJob, type SealedValuesShared, type ToWriter } from './messages';
import { startWorker } from '../start-worker';

interface Pending<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

/** The log writer thread: appends go in, commits come out. */
export class LogWriterThread {
  private readonly worker: Worker;
  private nextId = 1;
  private readonly appends = new Map<number, Pending<AppendOutcome[]>[]>();
  private readonly closing = new Map<number, Pending<void>>();
  private queued: { unit: QueuedWrite[]; pending: Pending<AppendOutcome[]> }[] = [];
  private scheduled = false;
  /** Sealed values to send with the next append message (see {@link shareSealedValues}). */
  private sealed: SealedValuesShared = { eventIds: [], values: [] };
  private failure: Error | null = null;
  private readonly exited: Promise<void>;

  /**
   * Starts the thread on `dataDir`'s event log; it posts a message on `commits` after each commit
   * that wrote events (the projection thread's end of a channel); `onCommitted` is called in this
   * thread for the same; `onDied` once if the thread fails.
   */
  constructor(
    dataDir: string,
    commits: MessagePort,
    private readonly onCommitted: () => void,
    private readonly onDied: (error: Error) => void,
    hashChain = true,
  ) {
    const job: LogWriterJob = { dataDir, hashChain };
    this.worker = startWorker(__dirname, 'log-writer', { job, commits }, [commits]);
    this.worker.on('message', (message: FromWriter) => this.receive(message));
    this.worker.on('error', (error) => this.died(error));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  /** Queues a unit of work for the thread; resolves with its outcomes once committed, rejects with its error (the port's own classes). */
  append(unit: QueuedWrite[]): Promise<AppendOutcome[]> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.queued.push({ unit, pending: { resolve, reject } });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.post());
    });
  }

  /**
   * Sends the sealed values of an event this thread sealed with the next append message; the log
   * writer hands them to the projection thread with its next commit message (`SealedValuesShared`).
   */
  shareSealedValues(eventId: string, values: string): void {
    if (this.failure) return;
    holdSealedValues(this.sealed, [eventId], [values]);
  }

  /** Commits what is queued, ends the thread, and waits for it to exit (terminating it after {@link STOP_TIMEOUT_MS}). */
  async close(): Promise<void> {
    if (this.scheduled) this.post();
    if (!this.failure) {
      const id = this.nextId++;
      await new Promise<void>((resolve, reject) => {
        this.closing.set(id, { resolve, reject });
        this.send({ type: 'close', id });
      }).catch(() => undefined);
    }
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, STOP_TIMEOUT_MS).unref())]);
    await this.worker.terminate();
  }

  private post(): void {
    this.scheduled = false;
    const batch = this.queued;
    this.queued = [];
    if (batch.length === 0) return;
    const id = this.nextId++;
    this.appends.set(
      id,
      batch.map((b) => b.pending),
    );
    const sealed = this.sealed.eventIds.length > 0 ? this.sealed : null;
    if (sealed) this.sealed = { eventIds: [], values: [] };
    this.send({ type: 'append', id, units: batch.map((b) => b.unit), sealed });
  }

  private send(message: ToWriter): void {
    this.worker.postMessage(message);
  }

  private receive(message: FromWriter): void {
    switch (message.type) {
      case 'appended': {
        const pending = this.appends.get(message.id) ?? [];
        this.appends.delete(message.id);
        message.units.forEach((u, i) => (u.ok ? pending[i]?.resolve(u.outcomes) : pending[i]?.reject(revive(u.error))));
        return;
      }
      case 'committed':
        this.onCommitted();
        return;
      case 'closed': {
        const pending = this.closing.get(message.id);
        this.closing.delete(message.id);
        if (message.error) pending?.reject(revive(message.error));
        else pending?.resolve();
        return;
      }
    }
  }

  /** The thread failed: every append waiting on it is refused, later ones too, and the owner is told. */
  private died(error: Error): void {
    this.failure = error;
    for (const list of this.appends.values()) for (const pending of list) pending.reject(error);
    for (const { pending } of this.queued) pending.reject(error);
    for (const pending of this.closing.values()) pending.reject(error);
    this.appends.clear();
    this.queued = [];
    this.closing.clear();
    this.onDied(error);
  }
}

/** How long {@link LogWriterThread.close} waits for the thread to end before terminating it, in ms. */
const STOP_TIMEOUT_MS = 10_000;
