import type Database from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import { TRAINEE_STREAM_PREFIX, traineeStreamId } from '@app/trainees/decider';
import { SqliteEventStore } from '../event-log/sqlite-event-store';
import type { EventStore, RecordedEvent } from '@app/event-sourcing';
import type { StreamBuild, StreamCursor, StreamPhase } from '@app/runtime/projector';
import type { TraineeTables } from './trainee-tables';
import type { PreparedTrainee } from './trainee-rows';
import type { StreamBuildJob, StreamBuildMessage } from './stream-build.worker';
import { SharedWriteLock, writeAsSoonAsFree } from './shared-write-lock';
import { startWorker } from '../start-worker';

/**
 * The stream phase of a trainee store (see {@link StreamBuild}): documents from whole streams, and
 * the cursor in `projection_rebuild_cursors` (keyed by the store's checkpoint name) written in the
 * same transaction; `finish` builds the secondary indexes, stores the checkpoint (`setCheckpoint`)
 * and forgets the cursor together. A store left without its indexes by an interrupted phase gets
 * them back when it is next opened (`TraineeTables` creates missing ones) or finished.
 *
 * On a file-backed {@link SqliteEventStore}, {@link run} reads, folds and renders in a worker
 * thread (`stream-build.worker`) while this thread writes (docs/DESIGN.md "Rebuilding by stream").
 */
export class SqliteStreamBuild implements StreamBuild {
  readonly streamPrefix = TRAINEE_STREAM_PREFIX;
  private readonly stmts;
  /** True once this run's first batch set the store up for bulk writing (see {@link write}). */
  private bulk = false;
  private readonly workerFromPosition: number;
  private readonly lock: SharedWriteLock;

  constructor(
    private readonly db: Database.Database,
    private readonly tables: TraineeTables,
    private readonly checkpointName: string,
    options: { workerFromPosition: number } | undefined,
    private readonly setCheckpoint: (position: number) => void,
  ) {
    this.workerFromPosition = options?.workerFromPosition ?? WORKER_FROM_POSITION;
    this.lock = new SharedWriteLock(db);
    db.exec(`CREATE TABLE IF NOT EXISTS projection_rebuild_cursors (
      checkpoint TEXT PRIMARY KEY, to_position INTEGER NOT NULL, last_stream TEXT NOT NULL)`);
    this.stmts = {
      cursor: db.prepare<[string], StreamCursor>(
        `SELECT to_position AS toPosition, last_stream AS lastStream FROM projection_rebuild_cursors WHERE checkpoint = ?`,
      ),
      setCursor: db.prepare(`INSERT OR REPLACE INTO projection_rebuild_cursors (checkpoint, to_position, last_stream) VALUES (?, ?, ?)`),
      dropCursor: db.prepare(`DELETE FROM projection_rebuild_cursors WHERE checkpoint = ?`),
    };
  }

  async cursor(): Promise<StreamCursor | null> {
    return this.stmts.cursor.get(this.checkpointName) ?? null;
  }

  async applyStreams(events: RecordedEvent[], cursor: StreamCursor): Promise<void> {
    writeAsSoonAsFree(this.db, () => this.write(cursor, () => this.tables.apply(events)));
  }

  async finish(toPosition: number): Promise<void> {
    // Each index in its own transaction (a store that serves meanwhile writes between them), then
    // the checkpoint and the cursor together.
    for (const sql of this.tables.indexStatements()) await this.lock.run(0, () => this.db.exec(sql));
    this.db
      .transaction(() => {
        this.tables.createIndexes();
        this.setCheckpoint(toPosition);
        this.forget();
      })
      .immediate();
    this.db.pragma(`wal_autocheckpoint = ${DEFAULT_WAL_AUTOCHECKPOINT_PAGES}`);
    this.bulk = false;
  }

  /** See `StreamBuild.abandon`: the secondary indexes back and the default WAL auto-checkpoint. */
  async abandon(): Promise<void> {
    this.tables.createIndexes();
    this.db.pragma(`wal_autocheckpoint = ${DEFAULT_WAL_AUTOCHECKPOINT_PAGES}`);
    this.bulk = false;
  }

  /** Drops the cursor. */
  forget(): void {
    this.stmts.dropCursor.run(this.checkpointName);
  }

  /**
   * Runs the whole stream phase with a worker thread when `eventStore` is a file-backed
   * {@link SqliteEventStore} and the phase reads up to position `workerFromPosition` or further
   * (default {@link WORKER_FROM_POSITION}; else returns null: the caller runs it batch by batch,
   * which costs less than starting a worker for a short log): the worker
   * reads and prepares up to `CREDITS` batches ahead while this thread writes each with its cursor.
   * Stops between batches when `shouldStop()` turns true. Rejects with the worker's error (a
   * projection failure names nothing more than the message; the position-order path names the event).
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
    return (async () => {
      const job: StreamBuildJob = {
        eventsFile,
        streamPrefix: this.streamPrefix,
        afterStream: from?.lastStream ?? null,
        toPosition,
        batchSize: options.batchSize,
      };
      return this.runWorker(job, options);
    })();
  }

  private runWorker(job: StreamBuildJob, options: { shouldStop?: () => boolean; onBatch?: (done: number) => void }): Promise<StreamPhase> {
    return new Promise<StreamPhase>((resolve, reject) => {
      const worker = startWorker(__dirname, 'stream-build', { job });
      let done = 0;
      let settled = false;
      const settle = (outcome: { phase: StreamPhase } | { error: Error }) => {
        if (settled) return;
        settled = true;
        stopWorker(worker);
        if ('error' in outcome) reject(outcome.error);
        else resolve(outcome.phase);
      };
      // One batch at a time, in short transactions (see SharedWriteLock).
      let writing = Promise.resolve();
      worker.on('message', (message: StreamBuildMessage) => {
        if (settled) return;
        if (message.type === 'error') return settle({ error: new Error(message.message) });
        writing = writing.then(async () => {
          if (settled) return;
          if (message.type === 'end') return settle({ phase: { toPosition: job.toPosition, done, interrupted: false } });
          if (options.shouldStop?.()) return settle({ phase: { toPosition: job.toPosition, done, interrupted: true } });
          try {
            const trainees = received(message.trainees);
            for (let i = 0; i < trainees.length;) {
              const chunk = chunkOf(trainees, i, this.lock.size());
              const lastStream = i + chunk.trainees.length === trainees.length ? message.lastStream : chunk.lastStream;
              await this.lock.run(chunk.events, () =>
                this.write({ toPosition: job.toPosition, lastStream }, () => this.tables.write(chunk.trainees)),
              );
              i += chunk.trainees.length;
            }
          } catch (err) {
            return settle({ error: err instanceof Error ? err : new Error(String(err)) });
          }
          done += message.events;
          options.onBatch?.(done);
          worker.postMessage('more');
        });
      });
      worker.on('error', (err) => settle({ error: err }));
      // After the batches received before it: a worker exits right after posting its end.
      worker.on(
        'exit',
        (code) => void writing.then(() => settle({ error: new Error(`the stream build worker exited before the end (code ${code})`) })),
      );
    });
  }

  /** Writes one batch (`store`) and the cursor (in the caller's transaction), setting the store up for bulk writing first. */
  private write(cursor: StreamCursor, store: () => void): void {
    if (!this.bulk) {
      // Fewer, larger WAL checkpoints while the store is written in bulk (each one fsyncs), and no
      // secondary index to update row by row in random order: they are built at `finish`.
      this.db.pragma(`wal_autocheckpoint = ${BULK_WAL_AUTOCHECKPOINT_PAGES}`);
      this.tables.dropIndexes();
      this.bulk = true;
    }
    store();
    this.stmts.setCursor.run(this.checkpointName, cursor.toPosition, cursor.lastStream);
  }
}

/**
 * Asks the worker to stop between batches (it closes its connection and exits), and terminates it
 * if it has not exited after {@link WORKER_STOP_TIMEOUT_MS}.
 */
function stopWorker(worker: Worker): void {
  const timer = setTimeout(() => void worker.terminate(), WORKER_STOP_TIMEOUT_MS);
  timer.unref();
  worker.once('exit', () => clearTimeout(timer));
  worker.postMessage('stop');
}

const WORKER_STOP_TIMEOUT_MS = 10_000;

/**
 * The prepared trainees (whole streams, in stream order) from `from` up to about `events` events
 * (at least one trainee), their events, and the cursor a transaction of them stores: the last one's
 * stream (the batch's own last stream, where the chunk ends the batch, is the caller's).
 */
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

/** The prepared trainees as posted: answer bodies arrive as Uint8Array; the driver binds Buffers. */
function received(trainees: PreparedTrainee[]): PreparedTrainee[] {
  for (const t of trainees) for (const a of t.answers) a.body = Buffer.from(a.body.buffer, a.body.byteOffset, a.body.byteLength);
  return trainees;
}

/**
 * The snapshot position from which a stream phase runs in a worker (starting one takes tens of ms;
 * in the tests' TypeScript, about a second).
 */
const WORKER_FROM_POSITION = 50_000;

/** SQLite's default WAL auto-checkpoint, in pages (4 MiB at 4 KiB pages). */
const DEFAULT_WAL_AUTOCHECKPOINT_PAGES = 1000;
/**
 * The WAL auto-checkpoint of a stream phase, in pages (256 MiB of WAL at 4 KiB pages): fewer
 * checkpoints, each of which fsyncs, make the bulk writes faster (bench/results/HISTORY.md "Rebuilding by stream").
 */
const BULK_WAL_AUTOCHECKPOINT_PAGES = 65_536;
