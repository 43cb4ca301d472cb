/**
 * The thread of a read store's check (read-store-check.ts): `PRAGMA quick_check` of
 * `workerData.file` on a read-only connection of its own. Posts `{problem: null}` when it answers
 * `ok`, `{problem}` (SQLite's first words on it) when the file is damaged (a `quick_check` that
 * finds faults, or `SQLITE_CORRUPT` / `SQLITE_NOTADB` on the way), `{error}` for anything else (a
 * busy or unreadable file: no verdict).
 */
import { Database } from '@app/sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { isCorruption } from './read-store-damage';

/** Faults of a `quick_check` named in its problem, at most. */
const FAULTS_NAMED = 3;

const { file } = workerData as { file: string };
try {
  const db = new Database(file, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    const faults = db.prepare<[], string>('PRAGMA quick_check').pluck().all();
    const ok = faults.length === 1 && faults[0] === 'ok';
    parentPort!.postMessage({ problem: ok ? null : `quick_check: ${faults.slice(0, FAULTS_NAMED).join('; ')}` });
  } finally {
    db.close();
  }
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  parentPort!.postMessage(isCorruption(err) ? { problem: message } : { error: message });
}
