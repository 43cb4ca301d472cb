import type { AsOfMatch, AsOfScan } from '@app/trainees/read';
import { startWorker } from '../start-worker';
import type { AsOfJob } from './as-of.worker';

/** Scans of the embedded log run at once at most; more wait their turn (each keeps a core busy). */
const THREADS_AT_ONCE = 2;

/**
 * The `AsOfScan` of the embedded log in `dataDir` (docs/DESIGN.md "A provider's trainees at an
 * instant"): each scan folds the provider's streams on a thread of its own, so the thread that
 * serves HTTP only waits for the matches (a 10k-trainee provider's scan is about a second of
 * CPU); at most {@link THREADS_AT_ONCE} at once, the others queued in order. A scan settles once
 * its thread has exited; it rejects with the thread's error.
 */
export function asOfScanInThreads(dataDir: string): AsOfScan {
  let running = 0;
  const waiting: (() => void)[] = [];
  const turn = async (): Promise<void> => {
    if (running < THREADS_AT_ONCE) {
      running++;
      return;
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const done = () => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  return async (traineeIds, query, instant) => {
    await turn();
    try {
      return await scanInThread({ dataDir, traineeIds, query, instant: instant.toISOString() });
    } finally {
      done();
    }
  };
}

function scanInThread(job: AsOfJob): Promise<AsOfMatch[]> {
  return new Promise((resolve, reject) => {
    let answer: { matches: AsOfMatch[] } | { error: string } | null = null;
    const worker = startWorker(__dirname, 'as-of', { job });
    worker.on('message', (m: { matches: AsOfMatch[] } | { error: string }) => (answer = m));
    worker.on('error', reject);
    worker.on('exit', (code) => {
      if (answer && 'matches' in answer) resolve(answer.matches);
      else reject(new Error(answer ? answer.error : `an as-of thread stopped with code ${code}`));
    });
  });
}
