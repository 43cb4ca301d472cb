import type { ProjectionInfo, ProjectionName } from '@app/runtime/projector';
import type { RebuildableStore, RebuildTarget } from '@app/runtime/rebuild';
import { dropRecordedStores, type SliceOptions } from './drop-in-slices';
import { now, type ReadStoreView } from './read-store-view';
import { projectionInfoOf } from './registry-statements';
import { SqliteRebuildTarget } from './sqlite-rebuild-target';
import type { StreamBuildOptions } from './sqlite-stream-build';

/** Blue/green rebuilds of the read store (docs/DESIGN.md "Projection versions and blue/green rebuilds"); old stores dropped in slices. */
export class SqliteRebuilds implements RebuildableStore {
  /** Under way, if any. */
  private dropping: Promise<void> | null = null;

  constructor(
    private readonly view: ReadStoreView,
    private readonly streamBuildOptions: StreamBuildOptions,
  ) {}

  /** As an operator sees it (`admin projections status`, the metrics). */
  async projectionInfo(): Promise<ProjectionInfo[]> {
    const t = this.view.refresh('force');
    const tablesOf = (name: ProjectionName) => (name === 'trainees' ? t.trainees : t.providers);
    return projectionInfoOf(this.view.registry, this.view.codeVersions, this.view.stmts, tablesOf);
  }

  /** Into a new store (`v<code version>`, else `v<code version>_g<n>`), or the one in progress ({@link RebuildTarget}). */
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
   * Drops what swaps left to drop (`projection_drops`) with their checkpoints, in slices of the write lock (`dropInSlices`); resolves
   * once none is left. A swap awaits it and the projector starts it in the background, so a drop a crash cut short ends; calls share a run.
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
