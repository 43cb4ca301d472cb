/** A thread of `asOfScanInThreads`: folds the given trainees' streams up to an instant, sealed, and posts `{matches}` or `{error}`. */
import { parentPort, workerData } from 'node:worker_threads';
import { matchesAsOf, type TraineeListQuery } from '@app/trainees/read';
import { openSqliteEventStore } from './sqlite-event-store';

export interface AsOfJob {
  dataDir: string;
  traineeIds: readonly string[];
  query: TraineeListQuery;
  /** ISO 8601. */
  instant: string;
}

const job = (workerData as { job: AsOfJob }).job;
const store = openSqliteEventStore(job.dataDir);
matchesAsOf(store, job.traineeIds, job.query, new Date(job.instant))
  .then((matches) => parentPort!.postMessage({ matches }))
  .catch((error: unknown) => parentPort!.postMessage({ error: error instanceof Error ? error.message : String(error) }))
  .finally(() => void store.close());
