/**
 * The backup scenario (`--only backup`): GETs and PATCHes against the running API, first alone and
 * then while `backup create` copies the stores beside it on the same data dir, as an operator runs
 * it: the built admin CLI in a process of its own (docs/operations.md "Backups and restore").
 * Measures the backup's size, time and rate, and the API's p99 during it against the same load
 * without it (the target: within 2×).
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runLoad, type LoadResult } from './load';
import type { Scenario } from './scenarios';

export const BACKUP_SCENARIO = 'backup';
/** The target: the API's p99 while a backup runs, ÷ its p99 under the same load without one. */
export const BACKUP_P99_RATIO_TARGET = 2;

/** The load of one window: GETs and PATCHes side by side, half the connections each. */
export interface MixedLoad {
  get: LoadResult;
  patch: LoadResult;
}

/** What {@link measureBackup} measured. */
export interface BackupResult {
  /** The load without a backup, for the bench's duration. */
  idle: MixedLoad;
  /** The same load from the backup's start to its end. */
  during: MixedLoad;
  events: number;
  /** The backup's files, bytes (the manifest's sizes). */
  bytes: number;
  /** The CLI's run, start to exit (copy, check and manifest), s. */
  seconds: number;
  /** `bytes` ÷ `seconds`, MB/s (10^6 bytes). */
  mbPerSecond: number;
  p99RatioTarget: number;
}

/** The CLI's line: `backup <dir>: position <p>, <n> events in <s> streams; <f> files, <mb> MB`. */
const BACKED_UP = /^backup .*: position \d+, (\d+) events in \d+ streams; \d+ files, ([\d.]+) MB/m;

/** Runs GETs and PATCHes side by side at `connections` in all, for `seconds` or until `until` settles. */
export async function mixedLoad(
  apiUrl: string,
  get: Scenario,
  patch: Scenario,
  connections: number,
  seconds: number,
  until?: Promise<unknown>,
): Promise<MixedLoad> {
  const settings = { connections: Math.max(1, Math.floor(connections / 2)), duration: seconds };
  const [g, p] = await Promise.all([runLoad(apiUrl, get, settings, until), runLoad(apiUrl, patch, settings, until)]);
  return { get: g, patch: p };
}

/** What {@link beside} measured: the load alone, the same load while the CLI ran, and the CLI's run. */
export interface BesideCli {
  idle: MixedLoad;
  during: MixedLoad;
  /** The CLI's standard output. */
  stdout: string;
  /** The CLI's run, start to exit, s. */
  seconds: number;
}

/**
 * Runs the GET and PATCH scenarios against the API at `apiUrl` for `load.duration` seconds, then
 * again while the built admin CLI (`node dist/apps/admin/src/main.js <args>`) runs on `dataDir` in
 * the sandbox, as an operator runs it beside the service, started a second into that load. Throws
 * the CLI's error (its output in it) when it fails.
 */
export async function beside(
  apiUrl: string,
  scenarios: { get: Scenario; patch: Scenario },
  repoRoot: string,
  dataDir: string,
  load: { connections: number; duration: number },
  args: readonly string[],
): Promise<BesideCli> {
  const idle = await mixedLoad(apiUrl, scenarios.get, scenarios.patch, load.connections, load.duration);
  let settle!: () => void;
  const ended = new Promise<void>((resolve) => (settle = resolve));
  const during = mixedLoad(apiUrl, scenarios.get, scenarios.patch, load.connections, 3600, ended);
  try {
    // The load first, so the CLI starts under it.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const started = performance.now();
    const cli = promisify(execFile)(process.execPath, [join(repoRoot, 'dist', 'apps', 'admin', 'src', 'main.js'), ...args], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, APP_ENV: 'sandbox', LOG_LEVEL: 'warn' },
      maxBuffer: 16 * 1024 * 1024,
    });
    const done = cli.then(() => (performance.now() - started) / 1000).finally(settle);
    const [window, out, seconds] = await Promise.all([during, cli, done]);
    return { idle, during: window, stdout: out.stdout, seconds };
  } finally {
    settle();
  }
}

/**
 * Runs the GET and PATCH scenarios against the API at `apiUrl` for `duration` seconds, then again
 * while `backup create --output <dir>` runs on `dataDir` ({@link beside}; the backup deleted after),
 * and returns both windows and the backup's figures. Throws with the CLI's output when it fails or
 * does not say what it copied.
 */
export async function measureBackup(
  apiUrl: string,
  scenarios: { get: Scenario; patch: Scenario },
  repoRoot: string,
  dataDir: string,
  load: { connections: number; duration: number },
  log: (message: string) => void,
): Promise<BackupResult> {
  log(`bench: scenario ${BACKUP_SCENARIO}: GET and PATCH, ${load.duration} s alone, then while backup create runs beside the API`);
  const output = join(dataDir, `bench-backup-${Date.now()}`);
  try {
    const run = await beside(apiUrl, scenarios, repoRoot, dataDir, load, ['backup', 'create', '--output', output]);
    const { idle, during: window, seconds } = run;
    const m = BACKED_UP.exec(run.stdout);
    if (!m) throw new Error(`backup create did not say what it copied:\n${run.stdout}`);
    const bytes = Number(m[2]) * 1e6;
    const result: BackupResult = {
      idle,
      during: window,
      events: Number(m[1]),
      bytes,
      seconds,
      mbPerSecond: bytes / 1e6 / seconds,
      p99RatioTarget: BACKUP_P99_RATIO_TARGET,
    };
    const p99s = (w: MixedLoad) => `GET p99 ${w.get.p99} ms, PATCH p99 ${w.patch.p99} ms`;
    log(
      `bench:   backup of ${result.events} events, ${(bytes / 1e6).toFixed(1)} MB in ${seconds.toFixed(1)} s (${result.mbPerSecond.toFixed(1)} MB/s); ` +
        `without: ${p99s(idle)}; during: ${p99s(window)} (${window.get.non2xx + window.patch.non2xx} non-2xx)`,
    );
    return result;
  } finally {
    rmSync(output, { recursive: true, force: true });
  }
}
