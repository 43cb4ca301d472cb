/**
 * The API's projection thread on the embedded stores (docs/DESIGN.md "The projection thread"),
 * seen from the API's thread: a worker thread that is the one writer of the read models
 * (projection-thread.worker.ts), beside the log writer thread ({@link LogWriterThread}), the one
 * writer of the event log. The API's thread keeps HTTP, the wire checks, the decider and every
 * read; its event store ({@link eventStore}) reads on its own connection and posts each append,
 * checked and serialized, to the log writer, which commits it in its next group commit and tells
 * the projection thread, which projects it. Writers wait for their position by a message from the
 * projection thread, never by polling. So the disk's sync and the projection (folding, rendering
 * each version's answer, writing the read models) leave the API's thread, and the projection does
 * not wait for the sync either.
 */
import { MessageChannel, type Worker } from 'node:worker_threads';
import { LOG_START, type LogPosition } from '@app/event-sourcing';
import type { KeySource } from '@app/keys';
import type { AppliedBatch } from '@app/runtime/telemetry';
import { PositionWaiters, type ProjectorHandle, type ProjectorHealth, type ProjectorLogger } from '@app/runtime/projector';
import { openSqliteEventStore, type SqliteEventStore } from '../event-log/sqlite-event-store';
import { LogWriterThread } from './log-writer-thread';
import { revive, type FromThread, type ProjectionThreadJob, type ToThread } from './messages';
import { startWorker } from '../start-worker';

/** How the thread is run and what the API's thread is told. */
export interface ProjectionThreadOptions {
  dataDir: string;
  /** Where the thread's projector logs (its messages are carried over). */
  logger: ProjectorLogger;
  /** Whether tracing is on: each applied batch then carries its events' type and `traceparent`. */
  traced?: boolean;
  /**
   * The key-encryption keys of the trainees' data keys (docs/DESIGN.md "Personal data"): the thread
   * opens sealed personal values with the keys of `<dataDir>/keys.sqlite`, with the same source made
   * again there (`KeySource.forThread`). Null: it reads events as stored.
   */
  keyEncryptionKeys?: KeySource | null;
  /** Whether appends chain each stream's events (default true; `SqliteEventStoreOptions.hashChain`). */
  hashChain?: boolean;
}

/** The batches the thread stored since its checkpoint last moved, and whether a provider's event was among them. */
export type ThreadApplied = AppliedBatch & { providerEvents: boolean };

interface Pending<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

/** The projection thread, its event store and its projector's state as the API's thread sees them. */
export class ProjectionThread implements ProjectorHandle {
  /** The event store of the API's thread: reads here, appends through the thread. */
  readonly eventStore: SqliteEventStore;
  private readonly worker: Worker;
  private readonly writer: LogWriterThread;
  private nextId = 1;
  private readonly requests = new Map<number, Pending<LogPosition>>();
  private position = LOG_START;
  private lastHealth: ProjectorHealth = { state: 'stopped', checkpoint: LOG_START, failure: null };
  private readonly waiters = new PositionWaiters();
  private exited: Promise<void>;
  private closed = false;
  private readonly appliedListeners: ((applied: ThreadApplied) => void)[] = [];
  private readonly fatalListeners: ((error: Error) => void)[] = [];
  /** Data keys to tell the thread of at the end of this turn of the event loop (see {@link shareDataKey}). */
  private sharedKeys: { traineeId: string; key: Buffer }[] = [];

  /** Starts the two threads on `options.dataDir` (the projector not yet live: see {@link start}). */
  constructor(private readonly options: ProjectionThreadOptions) {
    const commits = new MessageChannel();
    const job: ProjectionThreadJob = {
      dataDir: options.dataDir,
      traced: options.traced ?? false,
      keyEncryptionKeys: options.keyEncryptionKeys?.forThread() ?? null,
    };
    this.worker = startWorker(__dirname, 'projection-thread', { job, commits: commits.port2 }, [commits.port2]);
    this.writer = new LogWriterThread(
      options.dataDir,
      commits.port1,
      () => this.eventStore.signalAppended(),
      (error) => this.died(error),
      options.hashChain ?? true,
    );
    this.eventStore = openSqliteEventStore(options.dataDir, { appendThrough: (unit) => this.writer.append(unit) });
    this.worker.on('message', (message: FromThread) => this.receive(message));
    this.worker.on('error', (error) => this.died(error));
    this.exited = new Promise((resolve) => this.worker.once('exit', () => resolve()));
  }

  get checkpoint(): LogPosition {
    return this.position;
  }

  get live(): boolean {
    return this.health().state === 'live';
  }

  health(): ProjectorHealth {
    return { ...this.lastHealth, checkpoint: this.position };
  }

  /** Applies everything up to the head once, in the thread; resolves with the checkpoint. */
  catchUp(): Promise<LogPosition> {
    return this.request({ type: 'catch-up', id: this.nextId++ });
  }

  /**
   * Tells `listener` of the batches stored each time the checkpoint moves: how many events, the
   * store's time (s), the traced events (where `traced`), whether a provider's event was among them.
   */
  onApplied(listener: (applied: ThreadApplied) => void): void {
    this.appliedListeners.push(listener);
  }

  /** Tells `listener` once when the thread's projector cannot go on (its subscription ended for good) or the thread died. */
  onFatal(listener: (error: Error) => void): void {
    this.fatalListeners.push(listener);
  }

  /** Catches up, then projects live in the thread; resolves once subscribed. */
  async start(): Promise<void> {
    await this.request({ type: 'start', id: this.nextId++ });
  }

  /** Stops the thread's projector (appends still commit); {@link start} resumes it. */
  async stop(): Promise<void> {
    if (this.closed) return;
    await this.request({ type: 'stop', id: this.nextId++ });
  }

  /**
   * Stops the projector, closes its connections and ends its thread, then commits the appends
   * queued for the log writer and ends that thread, and closes this event store. Safe to call twice.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.request({ type: 'close', id: this.nextId++ }).catch(() => undefined);
    await Promise.race([this.exited, new Promise((r) => setTimeout(r, STOP_TIMEOUT_MS).unref())]);
    await this.worker.terminate();
    await this.writer.close();
    await this.eventStore.close();
    this.waiters.releaseAll(false);
  }

  /**
   * Tells the thread of a trainee's data key this thread opened or made (`DataKeysOptions.onOpened`),
   * so that it does not read and unwrap it again to open the trainee's events (docs/DESIGN.md
   * "Personal data"). The keys of one turn of the event loop go in one message; the thread keeps
   * them no longer than one it read itself.
   */
  shareDataKey(traineeId: string, key: Buffer): void {
    if (this.closed) return;
    this.sharedKeys.push({ traineeId, key });
    if (this.sharedKeys.length > 1) return;
    setImmediate(() => {
      const shared = this.sharedKeys;
      this.sharedKeys = [];
      if (this.closed || shared.length === 0) return;
      const bytes = new Uint8Array(shared.length * 32);
      shared.forEach((s, i) => bytes.set(s.key, i * 32));
      this.send({ type: 'data-keys', ids: shared.map((s) => s.traineeId), bytes });
    });
  }

  /**
   * Tells the thread of the sealed values of an event this thread sealed (`PersonalDataOptions.onSealed`):
   * they go with the next append to the log writer, which hands them on with its next commit
   * message, and the projector takes them, once, instead of opening the event's box (docs/DESIGN.md
   * "Personal data"). No message of their own.
   */
  shareSealedValues(eventId: string, values: string): void {
    if (this.closed) return;
    this.writer.shareSealedValues(eventId, values);
  }

  /** Resolves true once the thread has applied every event up to `position`, false after `timeoutMs` (default 10 s). */
  waitFor(position: LogPosition, timeoutMs = 10_000): Promise<boolean> {
    return this.waiters.wait(position, this.position, timeoutMs);
  }

  private request(message: ToThread & { id: number }): Promise<LogPosition> {
    return new Promise((resolve, reject) => {
      this.requests.set(message.id, { resolve, reject });
      this.send(message);
    });
  }

  private send(message: ToThread): void {
    this.worker.postMessage(message);
  }

  private receive(message: FromThread): void {
    switch (message.type) {
      case 'applied':
        this.lastHealth = message.health;
        this.advance(message.checkpoint);
        if (message.events > 0) {
          const applied = {
            count: message.events,
            seconds: message.seconds,
            traced: message.traced,
            providerEvents: message.providerEvents,
          };
          for (const listener of this.appliedListeners) this.tell(() => listener(applied));
        }
        return;
      case 'health':
        this.lastHealth = message.health;
        return;
      case 'done':
      case 'failed': {
        const pending = this.requests.get(message.id);
        this.requests.delete(message.id);
        if (message.type === 'done') {
          this.lastHealth = message.health;
          this.advance(message.checkpoint);
          pending?.resolve(message.checkpoint);
        } else pending?.reject(revive(message.error));
        return;
      }
      case 'log':
        this.options.logger[message.level](message.message, message.context);
        return;
      case 'fatal':
        this.lastHealth = { ...this.lastHealth, state: 'failed' };
        for (const listener of this.fatalListeners) this.tell(() => listener(revive(message.error)));
        return;
    }
  }

  /** A thread failed: every call waiting on the projection thread is refused, and the process is told (it exits for its supervisor). */
  private died(error: Error): void {
    this.lastHealth = {
      ...this.lastHealth,
      state: 'failed',
      failure: { kind: 'subscription', message: error.message, attempts: 1, since: new Date().toISOString() },
    };
    for (const pending of this.requests.values()) pending.reject(error);
    this.requests.clear();
    for (const listener of this.fatalListeners) this.tell(() => listener(error));
  }

  /** Runs a listener; what it throws is logged, never thrown into the message handler. */
  private tell(listener: () => void): void {
    try {
      listener();
    } catch (error) {
      this.options.logger.warn('a projection thread listener failed', { error: error instanceof Error ? error.message : String(error) });
    }
  }

  private advance(position: LogPosition): void {
    if (position <= this.position) return;
    this.position = position;
    this.waiters.advance(position);
  }
}

/** How long {@link ProjectionThread.stop} waits for the thread to end before terminating it, in ms. */
const STOP_TIMEOUT_MS = 10_000;
