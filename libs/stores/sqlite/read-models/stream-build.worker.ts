/**
 * A worker of a stream phase on SQLite (docs/DESIGN.md "Rebuilding by stream"): for each range of
 * whole trainee streams the main thread sends (a {@link StreamRange}), reads them from the event
 * store's file (its own read-only connection), folds and renders them (`prepareTrainees`) and posts
 * the batch back, which the main thread writes. A `stop` message ends it; it closes its connection
 * either way. Started by `SqliteStreamBuild` with the events file as `workerData.eventsFile`.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';
import { type RangeStart, StreamRanges } from '../event-log/stream-ranges';
import { prepareTrainees, type PreparedTrainee } from './trainee-rows';

/** A range to prepare, the `index`-th of the phase: whole streams from `start` to `lastStream` (inclusive; undefined: to the last). */
export interface StreamRange {
  type: 'range';
  index: number;
  start: RangeStart;
  lastStream: string | undefined;
}

/**
 * A message of a worker: a prepared range (its index, its last stream, null when it held none, and
 * its event count), or a failure.
 */
export type StreamBuildMessage =
  | { type: 'batch'; index: number; trainees: PreparedTrainee[]; lastStream: string | null; events: number }
  | { type: 'error'; message: string };

const db = new Database((workerData as { eventsFile: string }).eventsFile, { readonly: true, fileMustExist: true });
const ranges = new StreamRanges(db);

parentPort!.on('message', (message: StreamRange | 'stop') => {
  if (message === 'stop') {
    // Closed here, never by terminating the thread: a connection left open would keep its locks in the process.
    db.close();
    parentPort!.close();
    return;
  }
  try {
    const events = ranges.read(message.start, message.lastStream);
    const trainees = prepareTrainees(events, () => new Map());
    const lastStream = events.length === 0 ? null : events[events.length - 1].streamId;
    post({ type: 'batch', index: message.index, trainees, lastStream, events: events.length });
  } catch (err) {
    post({ type: 'error', message: err instanceof Error ? err.message : String(err) });
  }
});

function post(message: StreamBuildMessage): void {
  parentPort!.postMessage(message);
}
