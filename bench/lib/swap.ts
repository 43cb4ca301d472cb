/**
 * The swap scenario (`--only swap`): PATCHes at the bench's connections against the running API
 * while `projections rebuild trainees` runs beside it on the same data dir, as an operator runs it:
 * the built admin CLI in a process of its own. It rebuilds, swaps and drops the old store in
 * slices. Measures the writes' latency over the whole rebuild (docs/DESIGN.md "Projection versions
 * and blue/green rebuilds": the swap never stalls writes).
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runLoad, type LoadResult } from './load';
import type { Scenario } from './scenarios';

export const SWAP_SCENARIO = 'swap';
/** The target: the p99 of the writes across a rebuild, swap and drop, ms. */
export const SWAP_P99_TARGET_MS = 100;

/** What {@link measureSwap} measured. */
export interface SwapResult {
  /** The PATCHes sent while the rebuild ran (from its start to the end of the old store's drop). */
  service: LoadResult;
  events: number;
  /** The rebuild to its swap, and the drop after it, s. */
  rebuildSeconds: number;
  dropSeconds: number;
  p99TargetMs: number;
}

/** The admin CLI's last line: `Rebuilt trainees into <store>: <n> events in <s> s (…); now serving …; dropped … in slices in <s> s`. */
const REBUILT = /Rebuilt trainees into \S+: (\d+) events in ([\d.]+) s .*dropped \S+ in slices in ([\d.]+) s/;

/**
 * Runs `patch` against the API at `apiUrl` while `node dist/apps/admin/src/main.js projections
 * rebuild trainees` runs on `dataDir`, stops the load when the CLI exits, and returns both. Throws
 * with the CLI's output when it fails or does not say what it rebuilt.
 */
export async function measureSwap(
  apiUrl: string,
  patch: Scenario,
  repoRoot: string,
  dataDir: string,
  connections: number,
  log: (message: string) => void,
): Promise<SwapResult> {
  log(`bench: scenario ${SWAP_SCENARIO}: ${patch.title} while projections rebuild trainees runs beside the API`);
  // Writes first, so the rebuild starts under load.
  let settle!: () => void;
  const ended = new Promise<void>((resolve) => (settle = resolve));
  const load = runLoad(apiUrl, patch, { connections, duration: 3600 }, ended);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const cli = promisify(execFile)(
    process.execPath,
    [join(repoRoot, 'dist', 'apps', 'admin', 'src', 'main.js'), 'projections', 'rebuild', 'trainees'],
    {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATA_DIR: dataDir, APP_ENV: 'sandbox', LOG_LEVEL: 'warn' },
      maxBuffer: 16 * 1024 * 1024,
    },
  ).finally(settle);
  const [service, output] = await Promise.all([load, cli]);
  const m = REBUILT.exec(output.stdout);
  if (!m) throw new Error(`projections rebuild trainees did not say what it rebuilt:\n${output.stdout}\n${output.stderr}`);
  const result: SwapResult = {
    service,
    events: Number(m[1]),
    rebuildSeconds: Number(m[2]),
    dropSeconds: Number(m[3]),
    p99TargetMs: SWAP_P99_TARGET_MS,
  };
  log(
    `bench:   ${result.events} events rebuilt in ${result.rebuildSeconds.toFixed(1)} s, the old store dropped in ${result.dropSeconds.toFixed(1)} s; ` +
      `PATCH meanwhile ${service.rps.toFixed(0)} req/s p50 ${service.p50} p99 ${service.p99} max ${service.max} ms ` +
      `(${service.non2xx} non-2xx, ${service.errors} errors; target p99 < ${SWAP_P99_TARGET_MS} ms)`,
  );
  return result;
}
