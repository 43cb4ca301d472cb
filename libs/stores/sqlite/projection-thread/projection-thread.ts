/**
 * The API's projection thread (docs/DESIGN.md "The projection thread") seen from the API's thread: the one writer of the read models,
 * beside the log writer thread ({@link LogWriterThread}), the one writer of the log. The API's event store reads on its own connection
 * and posts each append, checked and serialized, to the log writer, which commits it and tells the projection thread. Writers wait for
 * their position by a message, never by polling; the sync and the projection both leave the API's thread.
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

export interface ProjectionThreadOptions {
  dataDir: string;
  /** Its messages are carried over. */
  logger: ProjectorLogger;
  /** Each applied batch then carries its events' type and `traceparent`. */
  traced?: boolean;
  /** The thread opens sealed values with the keys of `keys.sqlite` under them, the source made again there; null: events as stored. */
  keyEncryptionKeys?: KeySource | null;
  /** `SqliteEventStoreOptions.hashChain`. */
  hashChain?: boolean;
}

/** Since the checkpoint last moved. */
export type ThreadApplied = AppliedBatch & { providerEvents: boolean };

interface Pending<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

export class ProjectionThread implements ProjectorHandle {
  /** Reads here, appends through the thread. */
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
  /** Told at the end of this turn of the event loop ({@link shareDataKey}). */
  private sharedKeys: { traineeId: string; key: Buffer }[] = [];

  /** The projector not yet live ({@link start}). */
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

  /** Resolves with the checkpoint. */
  catchUp(): Promise<LogPosition> {
    return this.request({ type: 'catch-up', id: this.nextId++ });
  }

  /** Each time the checkpoint moves: events, the store's time (s), the traced events, whether a provider's event was among them. */
  onApplied(listener: (applied: ThreadApplied) => void): void {
    this.appliedListeners.push(listener);
  }

  /** Once, when the projector cannot go on (its subscription ended for good) or the thread died. */
  onFatal(listener: (error: Error) => void): void {
    this.fatalListeners.push(listener);
  }

  /** Resolves once subscribed. */
  async start(): Promise<void> {
    await this.request({ type: 'start', id: this.nextId++ });
  }

  /** Appends still commit; {@link start} resumes. */
  async stop(): Promise<void> {
    if (this.closed) return;
    await this.request({ type: 'stop', id: this.nextId++ });
  }

  /** Ends the projection thread, then commits the log writer's queue and ends it, then closes this event store. Safe twice. */
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

  /** A data key this thread opened or made (`DataKeysOptions.onOpened`), so the thread need not unwrap it; a turn's keys in one message. */
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

  /** An event's sealed values (`PersonalDataOptions.onSealed`): carried with the next append and commit, taken once by the projector. */
  shareSealedValues(eventId: string, values: string): void {
    if (this.closed) return;
    this.writer.shareSealedValues(eventId, values);
  }

  /** False after `timeoutMs`. */
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

  /** Every call waiting on the thread is refused, and the process is told (it exits for its supervisor). */
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

  /** What it throws is logged, never thrown into the message handler. */
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

const STOP_TIMEOUT_MS = 10_000;
