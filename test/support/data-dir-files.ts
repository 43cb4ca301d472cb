import { execFileSync } from 'node:child_process';

/**
 * Reads the files of `dir` (recursively when `recursive`) whose names start with `prefix` in a
 * child process, each as latin1 text, joined by newlines. Never in this process: an API started in
 * a test runs in this process, and POSIX locks belong to the process, so opening and closing a
 * descriptor of a database it has open here would drop its SQLite locks and let another process
 * take the file for unused (docs/operations.md "Commands beside the running service").
 */
function readInChild(dir: string, prefix: string, recursive: boolean): string {
  const script = `
    const { readdirSync, readFileSync, statSync } = require('node:fs');
    const { join } = require('node:path');
    const [dir, prefix, recursive] = process.argv.slice(1);
    const read = (d, top) => readdirSync(d)
      .filter((f) => !top || f.startsWith(prefix))
      .map((f) => join(d, f))
      .map((f) => (statSync(f).isDirectory() ? (recursive === 'yes' ? read(f, false) : '') : readFileSync(f).toString('latin1')))
      .join('\\n');
    process.stdout.write(Buffer.from(read(dir, true), 'latin1'));
  `;
  return execFileSync(process.execPath, ['-e', script, dir, prefix, recursive ? 'yes' : 'no'], {
    encoding: 'latin1',
    maxBuffer: 2 ** 31 - 1,
  });
}

/**
 * The bytes of every file in `dir` whose name starts with `prefix` (a SQLite file, its WAL and
 * shared memory), as one latin1 text: what a scan for personal values reads (docs/DESIGN.md
 * "Personal data"). Read in a child process ({@link readInChild} says why).
 */
export function filesText(dir: string, prefix: string): string {
  return readInChild(dir, prefix, false);
}

/** The bytes of every file under `dir`, recursively, as one latin1 text, read in a child process. */
export function allFilesText(dir: string): string {
  return readInChild(dir, '', true);
}
