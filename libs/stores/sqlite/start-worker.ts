import { existsSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { type TransferListItem, Worker } from 'node:worker_threads';

/** The project's root, from this file's place in `libs/stores/sqlite` (or `dist/libs/stores/sqlite`). */
const SOURCE_ROOT = join(__dirname, '..', '..', '..');

/**
 * The script of the worker `<dir>/<name>.worker`: the `.js` beside this code when it is built. Where this code is TypeScript run by
 * the tests, the build's copy of the same worker in `dist/` (the tests' global setup builds it whenever a source changed), else the
 * `.ts` loaded through tsx's CommonJS hook (a dev dependency): loading a thread's modules from the build costs a third of the CPU.
 */
function workerScript(dir: string, name: string): { entry: string; tsx: string | null } {
  const own = join(dir, `${name}.worker${extname(__filename)}`);
  if (own.endsWith('.js')) return { entry: own, tsx: null };
  const built = join(SOURCE_ROOT, 'dist', relative(SOURCE_ROOT, dir), `${name}.worker.js`);
  if (existsSync(built)) return { entry: built, tsx: null };
  return { entry: own, tsx: require.resolve('tsx/cjs/api') };
}

/**
 * Starts the worker thread `<dir>/<name>.worker` ({@link workerScript}) with `data` as its `workerData` (the entry and hook added) and
 * `transfer` moved to it. For the embedded stores' threads: the stream build's, the projection thread and the log writer.
 */
export function startWorker(dir: string, name: string, data: Record<string, unknown>, transfer: readonly TransferListItem[] = []): Worker {
  const { entry, tsx } = workerScript(dir, name);
  const bootstrap = `const { workerData } = require('node:worker_threads');
    if (workerData.tsx) require(workerData.tsx).register();
    require(workerData.entry);`;
  return new Worker(bootstrap, { eval: true, workerData: { ...data, entry, tsx }, transferList: [...transfer] });
}
