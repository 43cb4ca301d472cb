import type { Database } from '@app/sqlite';
import { logPosition, type LogPosition } from '@app/event-sourcing';
import { PROJECTION_VERSIONS, type ProjectionName } from '@app/runtime/projector';
import { ProviderTables } from './provider-tables';
import { TraineeTables } from './trainee-tables';
import { openReadStoreFile } from './read-store-file';
import { guardDamage } from './read-store-damage';
import { registerProjections, registryStatements, type RegistryRow } from './registry-statements';
import { SqliteRebuildRuns } from './sqlite-rebuild-runs';
import type { ReadStoreConnectionOptions } from './wal-checkpointer';

export type ServedTables = { trainees: TraineeTables; providers: ProviderTables };

/**
 * One connection to the embedded read store following its registry (docs/DESIGN.md "Read models"), shared by the store's ports; its
 * damage, met by any call, is `ReadModelsDamaged` (`guardDamage`).
 */
export class ReadStoreView {
  readonly db: Database.Database;
  readonly stmts: ReturnType<typeof registryStatements>;
  /** The latest rebuild run of each projection (docs/observability.md "Rebuilds"). */
  readonly rebuildRuns: SqliteRebuildRuns;
  /** Tests may set others. */
  readonly codeVersions: Record<ProjectionName, number>;
  /** By projection and store name. */
  readonly tablesByStore = { trainees: new Map<string, TraineeTables>(), providers: new Map<string, ProviderTables>() };
  registry: RegistryRow[] = [];
  private active!: ServedTables;
  /** As {@link registryStatements}' `registryKey` last read it. */
  private registryKey = '';
  private seenDataVersion = -1;

  /** Opens (creating) the store in `filename`, registering this code's projections where none are. */
  constructor(
    readonly filename: string,
    options: ReadStoreConnectionOptions & { codeVersions?: Partial<Record<ProjectionName, number>> } = {},
  ) {
    this.codeVersions = { ...PROJECTION_VERSIONS, ...options.codeVersions };
    this.db = openReadStoreFile(filename, options);
    this.stmts = registryStatements(this.db);
    this.rebuildRuns = new SqliteRebuildRuns(this.db);
    registerProjections(this.db, this.stmts, this.codeVersions);
    this.refresh('force');
  }

  /**
   * Follows the registry when any connection committed since the last look (`PRAGMA data_version`, ~2 µs): every read and write looks,
   * so a swap in another process is followed by every read that starts after it; `force` reads it even if nothing committed.
   */
  refresh(mode: 'look' | 'force' = 'look'): ServedTables {
    const version = this.stmts.dataVersion.get() as number;
    if (mode !== 'force' && version === this.seenDataVersion && this.active) return this.active;
    this.seenDataVersion = version;
    // Most commits (a projection thread's batches) leave the registry as it was: keep the tables then.
    const key = this.stmts.registryKey.get() ?? '';
    if (mode !== 'force' && key === this.registryKey && this.active) return this.active;
    this.registryKey = key;
    this.registry = this.stmts.registry.all();
    const store = (name: ProjectionName) => this.registry.find((r) => r.name === name)!.store;
    this.active = { trainees: this.traineeTables(store('trainees')), providers: this.providerTables(store('providers')) };
    return this.active;
  }

  /** Made once per store and kept. */
  traineeTables(store: string): TraineeTables {
    let t = this.tablesByStore.trainees.get(store);
    if (!t) this.tablesByStore.trainees.set(store, (t = new TraineeTables(this.db, store)));
    return t;
  }

  /** Made once per store and kept. */
  providerTables(store: string): ProviderTables {
    let t = this.tablesByStore.providers.get(store);
    if (!t) this.tablesByStore.providers.set(store, (t = new ProviderTables(this.db, store)));
    return t;
  }

  /** If a swap dropped the old store between the registry look and the read, looks again and retries once: a swap never fails a read. */
  read<T>(fn: (tables: ServedTables) => T): T {
    return guardDamage(this.filename, () => {
      try {
        return fn(this.refresh());
      } catch (err) {
        // Not `instanceof Error`: the driver's errors may come from another realm (a test sandbox).
        if (!/no such table/.test(String((err as { message?: unknown } | null)?.message))) throw err;
        return fn(this.refresh('force'));
      }
    });
  }

  /** As last read; 0: none. */
  servedVersion(name: ProjectionName): number {
    return this.registry.find((r) => r.name === name)?.version ?? 0;
  }

  /** As last read. */
  servesCodeVersion(name: ProjectionName): boolean {
    return this.registry.find((r) => r.name === name)?.version === this.codeVersions[name];
  }

  /** 0 when none. */
  checkpointAt(name: string): number {
    return this.stmts.getCheckpoint.get(name)?.position ?? 0;
  }

  /** Every event up to it is applied to both stores in `t`. */
  servedCheckpoint(t: ServedTables): LogPosition {
    return logPosition(Math.min(this.checkpointAt(`trainees_${t.trainees.store}`), this.checkpointAt(`providers_${t.providers.store}`)));
  }

  /** Never back. */
  advance(t: ServedTables, position: number): void {
    for (const [name, { store }] of Object.entries(t))
      this.stmts.setCheckpoint.run(`${name}_${store}`, position, Number(/^v(\d+)/.exec(store)?.[1] ?? 0), now());
  }

  close(): void {
    this.db.close();
  }
}

/** ISO 8601 UTC, as the registry and checkpoint tables record it. */
export function now(): string {
  return new Date().toISOString();
}
