import { extname, join } from 'node:path';
import { type TransferListItem, Worker } from 'node:worker_threads';

/**
 * Starts the worker thread `<dir>/<name>.worker.js` (or, where this code is TypeScript run by the
 * tests, the `.ts` one loaded through tsx's CommonJS hook, a dev dependency) with `data` as its
 * `workerData` (the entry and hook added) and `transfer` moved to it. For the embedded stores'
 * threads: the stream build's, the projection thread and the log writer.
 */
export function startWorker(dir: string, name: string, data: Record<string, unknown>, transfer: readonly TransferListItem[] = []): Worker {
  const entry = join(dir, `${name}.worker${extname(__filename)}`);
  const tsx = entry.endsWith('.ts') ? require.resolve('tsx/cjs/api') : null;
  const bootstrap = `const { workerData } = require('node:worker_threads');
    if (workerData.tsx) require(workerData.tsx).register();
    require(workerData.entry);`;
  return new Worker(bootstrap, { eval: true, workerData: { ...data, entry, tsx }, transferList: [...transfer] });
}
