/**
 * A stream phase's worker (docs/DESIGN.md "Rebuilding by stream"): reads each range it is sent on a read-only connection of its own,
 * folds and renders it (`prepareTrainees`) and posts it back; `stop` ends it.
 */

/** The events file and, for a sealed log, the key-encryption keys as the starting thread holds them (`KeySource.forThread`), or null. */
export interface StreamBuildJob {
  eventsFile: string;
  keyEncryptionKeys: KeySourceTicket | null;
}
import { keySourceIn, type KeySourceTicket } from '@app/keys';
import { Database } from '@app/sqlite';
import { dirname } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { sqlitePersonalData } from '../sqlite-data-key-store';
import { type RangeStart, StreamRanges } from '../event-log/stream-ranges';
import { prepareTrainees, type PreparedTrainee } from './trainee-rows';

/**
 * The `index`-th range: whole streams from `start` to `lastStream` (inclusive; undefined: to the last), in stream-id order; or the
 * listed streams, each whole up to `toPosition`, in the order listed.
 */
export type StreamBuildRequest =
  | { type: 'range'; index: number; start: RangeStart; lastStream: string | undefined }
  | { type: 'streams'; index: number; streams: string[]; toPosition: number };

/** A prepared range (`lastStream` null when it held none), or a failure. */
export type StreamBuildMessage =
  | { type: 'batch'; index: number; trainees: PreparedTrainee[]; lastStream: string | null; events: number }
  | { type: 'error'; message: string };

const job = workerData as StreamBuildJob;
const db = new Database(job.eventsFile, { readonly: true, fileMustExist: true });
const ranges = new StreamRanges(db);
const keys = job.keyEncryptionKeys ? sqlitePersonalData(dirname(job.eventsFile), keySourceIn(job.keyEncryptionKeys)) : null;

parentPort!.on('message', async (message: StreamBuildRequest | 'stop') => {
  if (message === 'stop') {
    // Closed here, never by terminating the thread: a connection left open would keep its locks in the process.
    db.close();
    await keys?.keyStore.close();
    parentPort!.close();
    return;
  }
  try {
    const read =
      message.type === 'range' ? ranges.read(message.start, message.lastStream) : ranges.readStreams(message.streams, message.toPosition);
    const events = keys ? await keys.personal.open(read) : read;
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
