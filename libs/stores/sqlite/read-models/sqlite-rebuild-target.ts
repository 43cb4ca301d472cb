import type { Database } from '@app/sqlite';
import { logPosition, type LogPosition, type RecordedEvent } from '@app/event-sourcing';
import type { ProjectionName } from '@app/runtime/projector';
import type { RebuildTarget } from '@app/runtime/rebuild';
import type { ProviderTables } from './provider-tables';
import type { TraineeTables } from './trainee-tables';
import { SqliteStreamBuild, type StreamBuildOptions } from './sqlite-stream-build';
import { SharedWriteLock, beginAsSoonAsFree } from './shared-write-lock';

export interface RebuildContext {
  db: Database.Database;
  streamBuild?: StreamBuildOptions;
  name: ProjectionName;
  store: string;
  version: number;
  tables: TraineeTables | ProviderTables;
  /** 0 when none. */
  checkpoint(name: string): number;
  setCheckpoint(name: string, position: number, version: number): void;
  /** Inside the swap's transaction: repoints the registry, forgets events an older version skipped; returns the previous store. */
  pointRegistry(): string;
  /** After the swap's commit: unless `keep`, drops `previous` in slices, resolving with the time that took (s). */
  afterSwap(previous: string, keep: boolean): Promise<{ dropped: boolean; dropSeconds?: number }>;
}

/**
 * A new store built beside the served one ({@link RebuildTarget}); the trainee store also stream by stream (docs/DESIGN.md "Rebuilding by
 * stream"), its cursor in `projection_rebuild_cursors`, written with the documents.
 */
export class SqliteRebuildTarget implements RebuildTarget {
  readonly name: ProjectionName;
  readonly store: string;
  readonly version: number;
  readonly byStream?: SqliteStreamBuild;
  private readonly checkpointName: string;
  private readonly lock: SharedWriteLock;

  constructor(private readonly ctx: RebuildContext) {
    this.name = ctx.name;
    this.store = ctx.store;
    this.version = ctx.version;
    this.checkpointName = `${ctx.name}_${ctx.store}`;
    this.lock = new SharedWriteLock(ctx.db);
    if (ctx.name === 'trainees') {
      this.byStream = new SqliteStreamBuild(ctx.db, ctx.tables as TraineeTables, this.checkpointName, ctx.streamBuild, (position) =>
        ctx.setCheckpoint(this.checkpointName, position, this.version),
      );
    }
  }

  /** One left by a dropped store of the same name: a new store starts from nothing. */
  reset(): void {
    this.byStream?.forget();
  }

  async checkpoint(): Promise<LogPosition> {
    return logPosition(this.ctx.checkpoint(this.checkpointName));
  }

  /** In short transactions, each with its checkpoint (`SharedWriteLock`). */
  async applyBatch(events: RecordedEvent[]): Promise<void> {
    for (let i = 0; i < events.length;) {
      const slice = events.slice(i, i + this.lock.size());
      await this.lock.run(slice.length, () => {
        this.ctx.tables.apply(slice);
        this.ctx.setCheckpoint(this.checkpointName, slice[slice.length - 1].position, this.version);
      });
      i += slice.length;
    }
  }

  async swap(
    readAfter: (position: LogPosition) => Promise<RecordedEvent[]>,
    options: { keepOld: boolean },
  ): Promise<{ previous: string; dropped: boolean; dropSeconds?: number }> {
    // Under the write lock: apply what the log gained, then repoint; the live projector's next batch (behind this lock) and every read
    // after the commit use the new store.
    const { db } = this.ctx;
    beginAsSoonAsFree(db);
    let previous: string;
    try {
      for (;;) {
        const events = await readAfter(logPosition(this.ctx.checkpoint(this.checkpointName)));
        if (events.length === 0) break;
        this.ctx.tables.apply(events);
        this.ctx.setCheckpoint(this.checkpointName, events[events.length - 1].position, this.version);
      }
      previous = this.ctx.pointRegistry();
      this.byStream?.forget();
      db.exec('COMMIT');
    } catch (err) {
      db.exec('ROLLBACK');
      throw err;
    }
    return { previous, ...(await this.ctx.afterSwap(previous, options.keepOld || previous === this.store)) };
  }
}
