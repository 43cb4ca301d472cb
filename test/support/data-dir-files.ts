import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The bytes of every file in `dir` whose name starts with `prefix` (a SQLite file, its WAL and
 * shared memory), as one latin1 text: what a scan for personal values reads (docs/DESIGN.md
 * "Personal data").
 */
export function filesText(dir: string, prefix: string): string {
  return readdirSync(dir)
    .filter((f) => f.startsWith(prefix))
    .map((f) => readFileSync(join(dir, f)).toString('latin1'))
    .join('\n');
}

/** The bytes of every file under `dir`, recursively, as one latin1 text. */
export function allFilesText(dir: string): string {
  return readdirSync(dir)
    .map((f) => join(dir, f))
    .map((f) => (statSync(f).isDirectory() ? allFilesText(f) : readFileSync(f).toString('latin1')))
    .join('\n');
}
