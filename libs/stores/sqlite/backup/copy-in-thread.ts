import { closeSync, fsyncSync, openSync, statSync } from 'node:fs';
import { startWorker } from '../start-worker';
import type { CopyJob } from './copy.worker';

/** What a copy thread posts (see copy.worker.ts). */
type FromCopier = { done: true } | { error: string };

/** How often the target's size is read for the progress, ms. */
const PROGRESS_MS = 250;

/**
 * Copies one SQLite file online on a thread of its own (./copy.worker.ts): the target is made
 * first, empty, readable by this user only (0600), so the copy is never readable by others, and
 * is synced to disk once written. `onBytes` hears the target's size as it grows (every 250 ms) and
 * once done. Resolves with the target's size in bytes; rejects with the thread's error.
 */
export async function copyInThread(job: CopyJob, onBytes?: (bytes: number) => void): Promise<number> {
  closeSync(openSync(job.target, 'wx', 0o600));
  const sizeOf = () => statSync(job.target).size;
  const timer = onBytes ? setInterval(() => onBytes(sizeOf()), PROGRESS_MS) : null;
  try {
    await new Promise<void>((resolve, reject) => {
      let failure: Error | null = null;
      let done = false;
      const worker = startWorker(__dirname, 'copy', { job });
      worker.on('message', (m: FromCopier) => {
        if ('done' in m) done = true;
        else failure = new Error(m.error);
      });
      worker.on('error', (err) => (failure = err));
      worker.on('exit', (code) => (done ? resolve() : reject(failure ?? new Error(`a copy thread stopped with code ${code}`))));
    });
  } finally {
    if (timer) clearInterval(timer);
  }
  const fd = openSync(job.target, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const bytes = sizeOf();
  onBytes?.(bytes);
  return bytes;
}
