import type { ProjectionInfo, ProjectionName } from '@app/runtime/projector';
import type { RebuildableStore, RebuildTarget } from '@app/runtime/rebuild';
import { dropRecordedStores, type SliceOptions } from './drop-in-slices';
import { now, type ReadStoreView } from './read-store-view';
import { projectionInfoOf } from './registry-statements';
import { SqliteRebuildTarget } from './sqlite-rebuild-target';
import type { StreamBuildOptions } from './sqlite-stream-build';

/**
 * The blue/green rebuilds of the embedded read store's `view` (`RebuildableStore`; docs/DESIGN.md
 * "Projection versions and blue/green rebuilds"): each projection as an operator sees it, a new
 * store built beside the one that serves and swapped in, and the old stores dropped in slices.
 */
export class SqliteRebuilds implements RebuildableStore {
  /** The run of {@link dropPendingStores} under way, if any. */
  private dropping: Promise<void> | null = null;

  constructor(
    private readonly view: ReadStoreView,
    private readonly streamBuildOptions: StreamBuildOptions,
  ) {}

  /** Each projection as an operator sees it (`admin projections status`, the metrics). */
  async projectionInfo(): Promise<ProjectionInfo[]> {
    const t = this.view.refresh('force');
    const tablesOf = (name: ProjectionName) => (name === 'trainees' ? t.trainees : t.providers);
    return projectionInfoOf(this.view.registry, this.view.codeVersions, this.view.stmts, tablesOf);
  }

  /**
   * Starts a rebuild of `name` into a new store (`v<code version>`, else `v<code version>_g<n>`),
   * or resumes the one in progress; see {@link RebuildTarget} and docs/DESIGN.md "Projection
   * versions and blue/green rebuilds".
   */
  async beginRebuild(name: ProjectionName): Promise<RebuildTarget> {
    const { view } = this;
    const row = view.refresh('force') && view.registry.find((r) => r.name === name)!;
    const code = view.codeVersions[name];
    let store = row.rebuilding;
    if (!store) {
      store = `v${code}`;
      for (let g = 2; store === row.store || this.tableExists(name, store); g++) store = `v${code}_g${g}`;
      // A new store starts from position 0, whatever a dropped store of the same name left behind.
      view.db.prepare(`DELETE FROM projection_checkpoints WHERE name = ?`).run(`${name}_${store}`);
      view.stmts.setRebuilding.run(store, now(), name);
    }
    const tables = name === 'trainees' ? view.traineeTables(store) : view.providerTables(store);
    const target = new SqliteRebuildTarget({
      db: view.db,
      streamBuild: this.streamBuildOptions,
      name,
      store,
      version: code,
      tables,
      checkpoint: (checkpoint) => view.checkpointAt(checkpoint),
      setCheckpoint: (checkpoint, position, version) => view.stmts.setCheckpoint.run(checkpoint, position, version, now()),
      pointRegistry: () => {
        const previous = view.stmts.registry.all().find((r) => r.name === name)!.store;
        view.stmts.swap.run(code, store, now(), name);
        // The new store applied every event again, those an older version skipped included.
        view.stmts.forgetSkipped?.run(name);
        return previous;
      },
      afterSwap: async (previous, keep) => {
        view.refresh('force');
        if (keep) return { dropped: false };
        view.tablesByStore[name].delete(previous);
        view.stmts.requestDrop.run(name, previous, now());
        const started = performance.now();
        await this.dropPendingStores();
        return { dropped: true, dropSeconds: (performance.now() - started) / 1000 };
      },
    });
    if (!row.rebuilding) target.reset();
    return target;
  }

  /**
   * Drops the stores that swaps left to drop (`projection_drops`), each in slices that hold the
   * write lock about 15 ms at a time (`dropInSlices`), with its checkpoint; resolves
   * once none is left. What a swap's rebuild awaits, and what the projector starts in the background
   * (`ProjectionStore.dropPendingStores`), so a drop a crash cut short is finished. Calls made while
   * one runs share it.
   */
  dropPendingStores(options?: SliceOptions): Promise<void> {
    this.dropping ??= dropRecordedStores(this.view.db, this.view.stmts, options).finally(() => (this.dropping = null));
    return this.dropping;
  }

  private tableExists(name: ProjectionName, store: string): boolean {
    const table = name === 'trainees' ? `trainees_${store}` : `providers_${store}`;
    return this.view.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table) !== undefined;
  }
}
