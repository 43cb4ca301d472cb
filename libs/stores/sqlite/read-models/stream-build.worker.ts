/**
 * The worker of a stream phase on SQLite (docs/DESIGN.md "Rebuilding by stream"): reads whole
 * trainee streams from the event store's file (its own read-only connection), folds and renders
 * them (`prepareTrainees`) and posts each batch to the main thread, which writes it. Runs at most
 * `CREDITS` batches ahead of the writer: it waits for a `more` message for each batch written; a
 * `stop` message ends it between batches.
 * Started by `SqliteStreamBuild` with a {@link StreamBuildJob} as `workerData.job`.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { StreamScan } from '../event-log/stream-scan';
import { prepareTrainees, type PreparedTrainee } from './trainee-rows';

/** What the worker builds: whole streams of `streamPrefix` after `afterStream`, events up to `toPosition`. */
export interface StreamBuildJob {
  eventsFile: string;
  streamPrefix: string;
  afterStream: string | null;
  toPosition: number;
  batchSize: number;
}

/** A message of the worker: a prepared batch (with its last stream and event count), the end, or a failure. */
export type StreamBuildMessage =
  { type: 'batch'; trainees: PreparedTrainee[]; lastStream: string; events: number } | { type: 'end' } | { type: 'error'; message: string };

/** Batches the worker may prepare before the writer has written them. */
export const CREDITS = 2;

/** Reads and prepares until the end, or until the main thread sends `stop`; closes its connection either way. */
async function run(job: StreamBuildJob): Promise<void> {
  let credits = CREDITS;
  let stopping = false;
  let wake: (() => void) | null = null;
  parentPort!.on('message', (message: 'more' | 'stop') => {
    if (message === 'stop') stopping = true;
    else credits++;
    wake?.();
  });
  const db = new Database(job.eventsFile, { readonly: true, fileMustExist: true });
  try {
    const scan = new StreamScan(db);
    let afterStream = job.afterStream;
    while (!stopping) {
      const events = scan.streams({ streamPrefix: job.streamPrefix, afterStream, toPosition: job.toPosition, maxCount: job.batchSize });
      if (events.length === 0) {
        post({ type: 'end' });
        break;
      }
      afterStream = events[events.length - 1].streamId;
      const trainees = prepareTrainees(events, () => new Map());
      post({ type: 'batch', trainees, lastStream: afterStream, events: events.length });
      if (--credits === 0 && !stopping) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
    }
  } finally {
    // Closed here, never by terminating the thread: a connection left open would keep its locks in the process.
    db.close();
  }
}

function post(message: StreamBuildMessage): void {
  parentPort!.postMessage(message);
}

run((workerData as { job: StreamBuildJob }).job)
  .catch((err: unknown) => post({ type: 'error', message: err instanceof Error ? err.message : String(err) }))
  .finally(() => parentPort!.close());
