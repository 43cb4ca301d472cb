import type { KeySource } from '@app/keys';
import { Database } from '@app/sqlite';
import type { Worker } from 'node:worker_threads';
import { TRAINEE_STREAM_PREFIX, traineeStreamId } from '@app/trainees/decider';
import { SqliteEventStore } from '../event-log/sqlite-event-store';
import { type RangeStart, StreamRanges } from '../event-log/stream-ranges';
import { logPosition, type EventStore, type LogPosition, type RecordedEvent } from '@app/event-sourcing';
import type { StreamBuild, StreamCursor, StreamPhase } from '@app/runtime/projector';
import type { TraineeTables } from './trainee-tables';
import type { PreparedTrainee } from './trainee-rows';
import type { StreamBuildJob, StreamBuildMessage, StreamRange } from './stream-build.worker';
import { SharedWriteLock, writeAsSoonAsFree } from './shared-write-lock';
import { startWorker } from '../start-worker';

export interface StreamBuildOptions {
  /** Default {@link WORKER_FROM_POSITION}. */
  workerFromPosition?: number;
  /** For a sealed log (docs/DESIGN.md "Personal data"): the workers, on connections of their own, open sealed values with them. */
  keyEncryptionKeys?: KeySource | null;
}

/**
 * The stream phase of a trainee store ({@link StreamBuild}; docs/DESIGN.md "Rebuilding by stream"): documents from whole streams and
 * the cursor in one transaction; `finish` builds the secondary indexes (also rebuilt at the next open after an interruption), stores
 * the checkpoint and forgets the cursor together. On a file-backed log, workers read, fold and render while this thread writes.
 */
export class SqliteStreamBuild implements StreamBuild {
  readonly streamPrefix = TRAINEE_STREAM_PREFIX;
  private readonly stmts;
  /** The connection's WAL auto-checkpoint while set up for bulk writing, put back by {@link finish} and {@link abandon}; else null. */
  private bulk: { autocheckpoint: number } | null = null;
  private readonly workerFromPosition: number;
  private readonly keyEncryptionKeys: KeySource | null;
  private readonly lock: SharedWriteLock;

  constructor(
    private readonly db: Database.Database,
    private readonly tables: TraineeTables,
    private readonly checkpointName: string,
    options: StreamBuildOptions | undefined,
    private readonly setCheckpoint: (position: number) => void,
  ) {
    this.workerFromPosition = options?.workerFromPosition ?? WORKER_FROM_POSITION;
    this.keyEncryptionKeys = options?.keyEncryptionKeys ?? null;
    this.lock = new SharedWriteLock(db, undefined, QUIET_TRANSACTION_MS);
    db.exec(`CREATE TABLE IF NOT EXISTS projection_rebuild_cursors (
      checkpoint TEXT PRIMARY KEY, to_position INTEGER NOT NULL, last_stream TEXT NOT NULL)`);
    this.stmts = {
      cursor: db.prepare<[string], { toPosition: number; lastStream: string }>(
        `SELECT to_position AS toPosition, last_stream AS lastStream FROM projection_rebuild_cursors WHERE checkpoint = ?`,
      ),
      setCursor: db.prepare(`INSERT OR REPLACE INTO projection_rebuild_cursors (checkpoint, to_position, last_stream) VALUES (?, ?, ?)`),
      dropCursor: db.prepare(`DELETE FROM projection_rebuild_cursors WHERE checkpoint = ?`),
    };
  }

  async cursor(): Promise<StreamCursor | null> {
    const row = this.stmts.cursor.get(this.checkpointName);
    return row ? { toPosition: logPosition(row.toPosition), lastStream: row.lastStream } : null;
  }

  async applyStreams(events: RecordedEvent[], cursor: StreamCursor): Promise<void> {
    writeAsSoonAsFree(this.db, () => this.write(cursor, () => this.tables.apply(events)));
  }

  async finish(toPosition: LogPosition): Promise<void> {
    // Each index in its own transaction (a store serving meanwhile writes between them), then checkpoint and cursor together.
    for (const sql of this.tables.indexStatements()) await this.lock.run(0, () => this.db.exec(sql));
    this.db
      .transaction(() => {
        this.tables.createIndexes();
        this.setCheckpoint(toPosition);
        this.forget();
      })
      .immediate();
    this.endBulk();
  }

  /** `StreamBuild.abandon`: the secondary indexes and the WAL auto-checkpoint back. */
  async abandon(): Promise<void> {
    this.tables.createIndexes();
    this.endBulk();
  }

  private endBulk(): void {
    if (this.bulk) this.db.pragma(`wal_autocheckpoint = ${this.bulk.autocheckpoint}`);
    this.bulk = null;
  }

  forget(): void {
    this.stmts.dropCursor.run(this.checkpointName);
  }

  /**
   * Runs the whole phase in workers when the log is a file-backed {@link SqliteEventStore} and the phase reads to `workerFromPosition` or
   * further; else null (batch by batch costs less than starting workers). Ranges of about `batchSize` events (`StreamRanges`) go in turn
   * to {@link STREAM_BUILD_WORKERS} workers (one while live writes share the lock), at most {@link CREDITS} ahead, and are written in
   * order, each with its cursor. Stops between batches on `shouldStop()`. Rejects with a worker's error (the message only; the
   * position-order path names the event).
   */
  run(
    eventStore: EventStore,
    options: { batchSize: number; shouldStop?: () => boolean; onBatch?: (done: number) => void },
  ): Promise<StreamPhase> | null {
    if (!(eventStore instanceof SqliteEventStore) || eventStore.file === null) return null;
    const eventsFile = eventStore.file;
    const from = this.stmts.cursor.get(this.checkpointName) ?? null;
    const toPosition = from?.toPosition ?? eventStore.headPositionNow();
    if (toPosition < this.workerFromPosition) return null;
    const start: RangeStart = { streamPrefix: this.streamPrefix, afterStream: from?.lastStream ?? null, toPosition };
    return this.runWorkers(eventsFile, this.keyEncryptionKeys, start, options);
  }

  private runWorkers(
    eventsFile: string,
    kek: KeySource | null,
    first: RangeStart,
    options: { batchSize: number; shouldStop?: () => boolean; onBatch?: (done: number) => void },
  ): Promise<StreamPhase> {
    return new Promise<StreamPhase>((resolve, reject) => {
      const eventsDb = new Database(eventsFile, { readonly: true, fileMustExist: true });
      const ranges = new StreamRanges(eventsDb);
      const job = { eventsFile, keyEncryptionKeys: kek ? kek.forThread() : null };
      const workers = Array.from({ length: STREAM_BUILD_WORKERS }, () =>
        startWorker(__dirname, 'stream-build', job satisfies StreamBuildJob),
      );
      // The build settles once every worker has exited: none still holds a connection to the data dir's files after it.
      const exited = workers.map((worker) => new Promise<void>((done) => worker.once('exit', () => done())));
      /** Null once the last range is handed out. */
      let next: RangeStart | null = first;
      let sent = 0;
      let written = 0;
      let done = 0;
      let settled = false;
      const prepared = new Map<number, Extract<StreamBuildMessage, { type: 'batch' }>>();
      const settle = (outcome: { phase: StreamPhase } | { error: Error }) => {
        if (settled) return;
        settled = true;
        for (const worker of workers) stopWorker(worker);
        eventsDb.close();
        void Promise.all(exited).then(() => ('error' in outcome ? reject(outcome.error) : resolve(outcome.phase)));
      };
      const phase = (interrupted: boolean) => ({ phase: { toPosition: logPosition(first.toPosition), done, interrupted } });
      const handOut = () => {
        // Beside live writes, one worker: the rebuild leaves the other core to the service.
        const active = this.lock.contended ? 1 : workers.length;
        while (next !== null && sent - written < active * CREDITS) {
          const lastStream = ranges.end(next, options.batchSize);
          const range: StreamRange = { type: 'range', index: sent, start: next, lastStream };
          workers[sent % active].postMessage(range);
          sent++;
          next = lastStream === undefined ? null : { ...next, afterStream: lastStream };
        }
      };
      // In range order, one at a time, in short transactions (SharedWriteLock).
      let writing = Promise.resolve();
      const writeInOrder = () => {
        writing = writing.then(async () => {
          try {
            for (let batch = prepared.get(written); !settled && batch; batch = prepared.get(written)) {
              prepared.delete(written);
              if (options.shouldStop?.()) return settle(phase(true));
              if (batch.lastStream !== null) await this.writeRange(received(batch.trainees), batch.lastStream, first.toPosition);
              written++;
              done += batch.events;
              if (batch.events > 0) options.onBatch?.(done);
              handOut();
            }
          } catch (err) {
            return settle({ error: err instanceof Error ? err : new Error(String(err)) });
          }
          if (!settled && next === null && written === sent) settle(phase(false));
        });
      };
      for (const worker of workers) {
        worker.on('message', (message: StreamBuildMessage) => {
          if (settled) return;
          if (message.type === 'error') return settle({ error: new Error(message.message) });
          prepared.set(message.index, message);
          writeInOrder();
        });
        worker.on('error', (err) => settle({ error: err }));
        worker.on('exit', (code) => settle({ error: new Error(`a stream build worker exited before the end (code ${code})`) }));
      }
      try {
        handOut();
      } catch (err) {
        settle({ error: err instanceof Error ? err : new Error(String(err)) });
      }
    });
  }

  /** In transactions of about the lock's size, each with the cursor of its last stream. */
  private async writeRange(trainees: PreparedTrainee[], lastStream: string, toPosition: number): Promise<void> {
    for (let i = 0; i < trainees.length;) {
      const chunk = chunkOf(trainees, i, this.lock.size());
      const last = i + chunk.trainees.length === trainees.length ? lastStream : chunk.lastStream;
      await this.lock.run(chunk.events, () =>
        this.write({ toPosition: logPosition(toPosition), lastStream: last }, () => this.tables.write(chunk.trainees)),
      );
      i += chunk.trainees.length;
    }
  }

  /** In the caller's transaction, with the cursor; sets the store up for bulk writing first. */
  private write(cursor: StreamCursor, store: () => void): void {
    if (!this.bulk) {
      // Fewer, larger WAL checkpoints (each fsyncs), and no secondary index updated row by row in random order: built at `finish`.
      this.bulk = { autocheckpoint: this.db.pragma('wal_autocheckpoint', { simple: true }) as number };
      this.db.pragma(`wal_autocheckpoint = ${BULK_WAL_AUTOCHECKPOINT_PAGES}`);
      this.tables.dropIndexes();
    }
    store();
    this.stmts.setCursor.run(this.checkpointName, cursor.toPosition, cursor.lastStream);
  }
}

/** It closes its connection and exits after the ranges sent; terminated after {@link WORKER_STOP_TIMEOUT_MS}. */
function stopWorker(worker: Worker): void {
  const timer = setTimeout(() => void worker.terminate(), WORKER_STOP_TIMEOUT_MS);
  timer.unref();
  worker.once('exit', () => clearTimeout(timer));
  worker.postMessage('stop');
}

const WORKER_STOP_TIMEOUT_MS = 10_000;

/** From `from`, up to about `events` events (at least one trainee), with the cursor a transaction of them stores: the last one's stream. */
function chunkOf(
  trainees: PreparedTrainee[],
  from: number,
  events: number,
): { trainees: PreparedTrainee[]; events: number; lastStream: string } {
  let n = 0;
  let end = from;
  while (end < trainees.length && (end === from || n < events)) n += Math.max(1, trainees[end++].changes.length);
  const chunk = trainees.slice(from, end);
  return { trainees: chunk, events: n, lastStream: traineeStreamId(chunk[chunk.length - 1].row.trainee_id) };
}

/** Answer bodies arrive as Uint8Array; the driver binds Buffers. */
function received(trainees: PreparedTrainee[]): PreparedTrainee[] {
  for (const t of trainees) for (const a of t.answers) a.body = Buffer.from(a.body.buffer, a.body.byteOffset, a.body.byteLength);
  return trainees;
}

/** Starting a worker takes tens of ms (about a second in the tests' TypeScript). */
const WORKER_FROM_POSITION = 50_000;

/** Reading, folding and rendering a range take longer than writing it: one worker leaves the writer waiting, two keep it busy. */
const STREAM_BUILD_WORKERS = 2;

/** Ranges a worker may be ahead of the writer: prepared batches wait in memory. */
const CREDITS = 2;

/**
 * Ms of a transaction while no live write commits beside the phase: each commit writes every page it dirtied, and rows stored in stream
 * order land on pages all over the trainee table, so fewer, larger commits write fewer pages.
 */
const QUIET_TRANSACTION_MS = 100;

/** In pages (256 MiB): fewer checkpoints, each of which fsyncs, make the bulk writes faster. */
const BULK_WAL_AUTOCHECKPOINT_PAGES = 65_536;
