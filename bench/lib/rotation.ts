/**
 * The key rotation scenario (`--only rotate`): GETs and PATCHes against the running API, first
 * alone and then while `keys rotate` adds a service key version and wraps every data key and
 * webhook secret again under it, as an operator runs it: the built admin CLI in a process of its
 * own on the same data dir (docs/operations.md "Rotating the service key"). Measures the
 * rotation's rate (data keys wrapped again per second) and the API's p99 during it against the
 * same load without it (the target: within 2×).
 */
import { beside, type MixedLoad } from './backup';
import type { Scenario } from './scenarios';

export const ROTATE_SCENARIO = 'rotate';
/** The target: the API's p99 while a rotation runs, ÷ its p99 under the same load without one. */
export const ROTATE_P99_RATIO_TARGET = 2;

/** What {@link measureRotation} measured. */
export interface RotationResult {
  /** The load without a rotation, for the bench's duration. */
  idle: MixedLoad;
  /** The same load from the rotation's start to its end. */
  during: MixedLoad;
  /** Data keys wrapped again under the new version. */
  keys: number;
  /** Data keys erased or wrapped again by another process meanwhile, left as they were. */
  changed: number;
  /** The CLI's run, start to exit, s. */
  seconds: number;
  /** `keys` ÷ `seconds`. */
  keysPerSecond: number;
  p99RatioTarget: number;
}

/** The CLI's line: `Data keys: <n> wrapped again, <c> under version <v> already, <m> changed meanwhile …`. */
const ROTATED = /^Data keys: (\d+) wrapped again, \d+ under version \d+ already, (\d+) changed meanwhile/m;

/**
 * Runs the GET and PATCH scenarios against the API at `apiUrl` for `duration` seconds, then again
 * while `keys rotate` runs on `dataDir` ({@link beside}), and returns both windows and the
 * rotation's figures. The data dir's keyring keeps the new version (the old one is not retired).
 * Throws with the CLI's output when it fails or does not say what it wrapped.
 */
export async function measureRotation(
  apiUrl: string,
  scenarios: { get: Scenario; patch: Scenario },
  repoRoot: string,
  dataDir: string,
  load: { connections: number; duration: number },
  log: (message: string) => void,
): Promise<RotationResult> {
  log(`bench: scenario ${ROTATE_SCENARIO}: GET and PATCH, ${load.duration} s alone, then while keys rotate runs beside the API`);
  const { idle, during, stdout, seconds } = await beside(apiUrl, scenarios, repoRoot, dataDir, load, ['keys', 'rotate']);
  const m = ROTATED.exec(stdout);
  if (!m) throw new Error(`keys rotate did not say what it wrapped:\n${stdout}`);
  const result: RotationResult = {
    idle,
    during,
    keys: Number(m[1]),
    changed: Number(m[2]),
    seconds,
    keysPerSecond: Number(m[1]) / seconds,
    p99RatioTarget: ROTATE_P99_RATIO_TARGET,
  };
  const p99s = (w: MixedLoad) => `GET p99 ${w.get.p99} ms, PATCH p99 ${w.patch.p99} ms`;
  log(
    `bench:   keys rotate wrapped ${result.keys} data keys again in ${seconds.toFixed(1)} s (${result.keysPerSecond.toFixed(0)} keys/s, ` +
      `${result.changed} changed meanwhile); without: ${p99s(idle)}; during: ${p99s(during)} (${during.get.non2xx + during.patch.non2xx} non-2xx)`,
  );
  return result;
}
