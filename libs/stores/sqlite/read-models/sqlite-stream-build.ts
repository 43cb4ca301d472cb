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
import type { StreamBuildJob, StreamBuildMessage, StreamBuildRequest } from './stream-build.worker';
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
    createCursorTable(db);
    this.stmts = {
      cursor: db.prepare<[string], { toPosition: number; lastStream: string; order: StreamOrder }>(
        `SELECT to_position AS toPosition, last_stream AS lastStream, stream_order AS "order" FROM projection_rebuild_cursors
         WHERE checkpoint = ?`,
      ),
      setCursor: db.prepare<[string, number, string, StreamOrder]>(
        `INSERT OR REPLACE INTO projection_rebuild_cursors (checkpoint, to_position, last_stream, stream_order) VALUES (?, ?, ?, ?)`,
      ),
      dropCursor: db.prepare(`DELETE FROM projection_rebuild_cursors WHERE checkpoint = ?`),
    };
  }

  async cursor(): Promise<StreamCursor | null> {
    const row = this.stmts.cursor.get(this.checkpointName);
    return row ? { toPosition: logPosition(row.toPosition), lastStream: row.lastStream } : null;
  }

  async applyStreams(events: RecordedEvent[], cursor: StreamCursor): Promise<void> {
    writeAsSoonAsFree(this.db, () => this.write(cursor, 'id', () => this.tables.apply(events)));
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
   * order, each with its cursor. The streams go in the order they began, so that the trainee rows, keyed by `created_position`, are
   * appended rather than scattered over the table's pages; a phase begun in stream-id order (an older cursor) resumes in that order.
   * Stops between batches on `shouldStop()`. Rejects with a worker's error (the message only; the position-order path names the event).
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
    return this.runWorkers(eventsFile, this.keyEncryptionKeys, start, from?.order ?? 'created', options);
  }

  private runWorkers(
    eventsFile: string,
    kek: KeySource | null,
    first: RangeStart,
    order: StreamOrder,
    options: { batchSize: number; shouldStop?: () => boolean; onBatch?: (done: number) => void },
  ): Promise<StreamPhase> {
    return new Promise<StreamPhase>((resolve, reject) => {
      const eventsDb = new Database(eventsFile, { readonly: true, fileMustExist: true });
      // A throw here rejects the phase.
      const nextRange = rangesIn(eventsDb, first, order, options.batchSize);
      const job = { eventsFile, keyEncryptionKeys: kek ? kek.forThread() : null };
      const workers = Array.from({ length: STREAM_BUILD_WORKERS }, () =>
        startWorker(__dirname, 'stream-build', job satisfies StreamBuildJob),
      );
      // The build settles once every worker has exited: none still holds a connection to the data dir's files after it.
      const exited = workers.map((worker) => new Promise<void>((done) => worker.once('exit', () => done())));
      /** Null once the last range is handed out. */
      let next: StreamBuildRequest | null = nextRange(0);
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
          workers[sent % active].postMessage(next);
          sent++;
          next = nextRange(sent);
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
              if (batch.lastStream !== null) await this.writeRange(received(batch.trainees), batch.lastStream, first.toPosition, order);
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
  private async writeRange(trainees: PreparedTrainee[], lastStream: string, toPosition: number, order: StreamOrder): Promise<void> {
    for (let i = 0; i < trainees.length;) {
      const chunk = chunkOf(trainees, i, this.lock.size());
      const last = i + chunk.trainees.length === trainees.length ? lastStream : chunk.lastStream;
      await this.lock.run(chunk.events, () =>
        this.write({ toPosition: logPosition(toPosition), lastStream: last }, order, () => this.tables.write(chunk.trainees)),
      );
      i += chunk.trainees.length;
    }
  }

  /** In the caller's transaction, with the cursor; sets the store up for bulk writing first. */
  private write(cursor: StreamCursor, order: StreamOrder, store: () => void): void {
    if (!this.bulk) {
      // Fewer, larger WAL checkpoints (each fsyncs), and no secondary index updated row by row in random order: built at `finish`.
      this.bulk = { autocheckpoint: this.db.pragma('wal_autocheckpoint', { simple: true }) as number };
      this.db.pragma(`wal_autocheckpoint = ${BULK_WAL_AUTOCHECKPOINT_PAGES}`);
      this.tables.dropIndexes();
    }
    store();
    this.stmts.setCursor.run(this.checkpointName, cursor.toPosition, cursor.lastStream, order);
  }
}

/** The order a phase reads the streams in, kept with its cursor: `id` (stream id), or `created` (each stream's first position). */
type StreamOrder = 'id' | 'created';

/** `projection_rebuild_cursors`; a table made before the order was kept holds cursors in stream-id order. */
function createCursorTable(db: Database.Database): void {
  db.exec(`CREATE TABLE IF NOT EXISTS projection_rebuild_cursors (
    checkpoint TEXT PRIMARY KEY, to_position INTEGER NOT NULL, last_stream TEXT NOT NULL, stream_order TEXT NOT NULL DEFAULT 'id')`);
  const columns = db.prepare<[], string>(`SELECT name FROM pragma_table_info('projection_rebuild_cursors')`).pluck().all();
  if (!columns.includes('stream_order'))
    db.exec(`ALTER TABLE projection_rebuild_cursors ADD COLUMN stream_order TEXT NOT NULL DEFAULT 'id'`);
}

/** The requests of a phase from `first` in `order`, on `eventsDb`, which it closes when it throws. */
function rangesIn(
  eventsDb: Database.Database,
  first: RangeStart,
  order: StreamOrder,
  batchSize: number,
): (index: number) => StreamBuildRequest | null {
  const ranges = new StreamRanges(eventsDb);
  try {
    return order === 'id' ? idRanges(ranges, first, batchSize) : creationRanges(ranges, first, batchSize);
  } catch (err) {
    eventsDb.close();
    throw err;
  }
}

/** The `index`-th range from `first`, in stream-id order (`StreamRanges.end`); null past the last. */
function idRanges(ranges: StreamRanges, first: RangeStart, batchSize: number): (index: number) => StreamBuildRequest | null {
  let next: RangeStart | null = first;
  return (index) => {
    if (next === null) return null;
    const lastStream = ranges.end(next, batchSize);
    const range: StreamBuildRequest = { type: 'range', index, start: next, lastStream };
    next = lastStream === undefined ? null : { ...next, afterStream: lastStream };
    return range;
  };
}

/**
 * The `index`-th list of whole streams of about `batchSize` events, in the order the streams began (`StreamRanges.inCreationOrder`), after
 * the cursor's stream when resuming; null past the last. Throws when the cursor names no stream of the snapshot.
 */
function creationRanges(ranges: StreamRanges, first: RangeStart, batchSize: number): (index: number) => StreamBuildRequest | null {
  const { streams, events } = ranges.inCreationOrder(first.streamPrefix, first.toPosition);
  let from = 0;
  if (first.afterStream !== null) {
    from = streams.indexOf(first.afterStream) + 1;
    if (from === 0) throw new Error(`the stream phase's cursor names a stream its snapshot lacks: ${first.afterStream}`);
  }
  return (index) => {
    if (from >= streams.length) return null;
    let end = from;
    for (let n = 0; end < streams.length && (end === from || n < batchSize); end++) n += events[end];
    const list: StreamBuildRequest = { type: 'streams', index, streams: streams.slice(from, end), toPosition: first.toPosition };
    from = end;
    return list;
  };
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
