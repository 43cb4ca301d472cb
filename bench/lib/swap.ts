/**
 * The swap scenario (`--only swap`): PATCHes at the bench's connections against the running API
 * while `projections rebuild trainees` runs beside it on the same data dir, as an operator runs it
 * from the admin CLI (another process; here the harness): the rebuild, its swap and the drop of the
 * old store in slices. Measures the writes' latency over the whole rebuild (docs/DESIGN.md
 * "Projection versions and blue/green rebuilds": the swap never stalls writes).
 */
import { openStores } from '@app/stores';
import { rebuildProjection, type RebuildableStore } from '@app/runtime/rebuild';
import type { ReadModelStore } from '@app/runtime/projector';
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

/**
 * Runs `patch` against the API at `apiUrl` while `rebuildProjection(…, 'trainees')` runs on the
 * stores of `dataDir` in this process, stops the load when the rebuild (and its drop) ends, and
 * returns both. Throws where the read store cannot rebuild.
 */
export async function measureSwap(
  apiUrl: string,
  patch: Scenario,
  dataDir: string,
  connections: number,
  log: (message: string) => void,
): Promise<SwapResult> {
  log(`bench: scenario ${SWAP_SCENARIO}: ${patch.title} while projections rebuild trainees runs beside the API`);
  const stores = await openStores({ dataDir, eventStoreUrl: null, mongodbUrl: null });
  try {
    const readModel = stores.readModel as ReadModelStore & Partial<RebuildableStore>;
    if (!readModel.beginRebuild) throw new Error('the read store cannot rebuild');
    // Writes first, so the rebuild starts under load.
    let settle!: () => void;
    const ended = new Promise<void>((resolve) => (settle = resolve));
    const load = runLoad(apiUrl, patch, { connections, duration: 3600 }, ended);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const outcome = await rebuildProjection(stores.eventStore, readModel as ReadModelStore & RebuildableStore, 'trainees').finally(settle);
    const service = await load;
    const result: SwapResult = {
      service,
      events: outcome.events,
      rebuildSeconds: outcome.seconds - outcome.dropSeconds,
      dropSeconds: outcome.dropSeconds,
      p99TargetMs: SWAP_P99_TARGET_MS,
    };
    log(
      `bench:   ${result.events} events rebuilt in ${result.rebuildSeconds.toFixed(1)} s, the old store dropped in ${result.dropSeconds.toFixed(1)} s; ` +
        `PATCH meanwhile ${service.rps.toFixed(0)} req/s p50 ${service.p50} p99 ${service.p99} max ${service.max} ms ` +
        `(${service.non2xx} non-2xx, ${service.errors} errors; target p99 < ${SWAP_P99_TARGET_MS} ms)`,
    );
    return result;
  } finally {
    await stores.close();
  }
}
