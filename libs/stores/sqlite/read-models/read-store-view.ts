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

/** The tables of the store each projection serves from. */
export type ServedTables = { trainees: TraineeTables; providers: ProviderTables };

/**
 * One connection to the embedded read store (`read-models.sqlite`) following its registry
 * (docs/DESIGN.md "Read models"): `projection_registry` names the store each projection serves
 * from, and every read and write looks again when another connection has committed, so a swap made
 * in another process is followed by every read that starts after it. What the read store's ports
 * (`SqliteTraineeReads`, `SqliteChangeFeed`, `SqliteProviderReads`, `SqliteProjectionWrites`,
 * `SqliteRebuilds`) share; its damage, met by any call, is `ReadModelsDamaged` (`guardDamage`).
 */
export class ReadStoreView {
  readonly db: Database.Database;
  readonly stmts: ReturnType<typeof registryStatements>;
  /** The latest rebuild run of each projection (docs/observability.md "Rebuilds"). */
  readonly rebuildRuns: SqliteRebuildRuns;
  /** This code's version of each projection (tests may set others). */
  readonly codeVersions: Record<ProjectionName, number>;
  /** The tables of each store met so far, by projection and store name. */
  readonly tablesByStore = { trainees: new Map<string, TraineeTables>(), providers: new Map<string, ProviderTables>() };
  /** The registry as last read. */
  registry: RegistryRow[] = [];
  private active!: ServedTables;
  /** The registry as {@link registryStatements}' `registryKey` last read it. */
  private registryKey = '';
  private seenDataVersion = -1;

  /** Opens (creating if needed) the read store in `filename`, registering this code's projections where none are. */
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
   * Follows the registry when another connection (or this one) has committed since the last look
   * (`PRAGMA data_version`, about 2 µs): every read and write looks, so a swap made in another
   * process is followed by every read that starts after it (docs/DESIGN.md "Read models" and
   * "Projection versions and blue/green rebuilds"), and a read that meets a dropped store looks
   * again (see {@link read}); `force` reads the registry even if nothing committed.
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

  /** The trainee tables of `store` (made once per store and kept). */
  traineeTables(store: string): TraineeTables {
    let t = this.tablesByStore.trainees.get(store);
    if (!t) this.tablesByStore.trainees.set(store, (t = new TraineeTables(this.db, store)));
    return t;
  }

  /** The provider tables of `store` (made once per store and kept). */
  providerTables(store: string): ProviderTables {
    let t = this.tablesByStore.providers.get(store);
    if (!t) this.tablesByStore.providers.set(store, (t = new ProviderTables(this.db, store)));
    return t;
  }

  /**
   * Runs a read on the served stores; if a swap dropped the old store between the registry look and
   * the read, looks again and retries once, so a swap never fails a read.
   */
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

  /** The projection version of the store the registry, as last read, names for `name` (0: none). */
  servedVersion(name: ProjectionName): number {
    return this.registry.find((r) => r.name === name)?.version ?? 0;
  }

  /** True when the registry, as last read, names a store of projection `name` built by this code's version of it. */
  servesCodeVersion(name: ProjectionName): boolean {
    return this.registry.find((r) => r.name === name)?.version === this.codeVersions[name];
  }

  /** The stored position of checkpoint `name`, 0 when none. */
  checkpointAt(name: string): number {
    return this.stmts.getCheckpoint.get(name)?.position ?? 0;
  }

  /** The lower of the checkpoints of both stores in `t`: every event up to it is applied to both. */
  servedCheckpoint(t: ServedTables): LogPosition {
    return logPosition(Math.min(this.checkpointAt(`trainees_${t.trainees.store}`), this.checkpointAt(`providers_${t.providers.store}`)));
  }

  /** Moves the checkpoints of both stores in `t` to `position` (never back). */
  advance(t: ServedTables, position: number): void {
    for (const [name, { store }] of Object.entries(t))
      this.stmts.setCheckpoint.run(`${name}_${store}`, position, Number(/^v(\d+)/.exec(store)?.[1] ?? 0), now());
  }

  /** Closes the connection. */
  close(): void {
    this.db.close();
  }
}

/** Now, as the registry and checkpoint tables record it (ISO 8601, UTC). */
export function now(): string {
  return new Date().toISOString();
}
