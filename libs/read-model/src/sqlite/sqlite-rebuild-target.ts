import type Database from 'better-sqlite3';
import type { RecordedEvent } from '@app/event-store';
import { TRAINEE_STREAM_PREFIX } from '@app/domain';
import type { ProjectionName } from '../projection-versions';
import type { RebuildTarget } from '../rebuild';
import type { StreamBuild, StreamCursor } from '../stream-build';
import type { ProviderTables } from './provider-tables';
import type { TraineeTables } from './trainee-tables';

/** What a {@link SqliteRebuildTarget} needs of its `SqliteReadModel`. */
export interface RebuildContext {
  db: Database.Database;
  name: ProjectionName;
  store: string;
  version: number;
  tables: TraineeTables | ProviderTables;
  /** The position stored for checkpoint `name`, 0 when none. */
  checkpoint(name: string): number;
  setCheckpoint(name: string, position: number, version: number): void;
  /** Inside the swap's transaction: points the registry at the new store, forgets the parked events; returns the previous store. */
  pointRegistry(): string;
  /** After the swap's commit: follows the registry and drops store `previous` unless `keep`. */
  afterSwap(previous: string, keep: boolean): { dropped: boolean };
}

/**
 * A new store of one projection being built beside the one that serves (see {@link RebuildTarget}
 * and docs/architecture.md "Projection versions and blue/green rebuilds"). The trainee store can
 * also be built stream by stream (`byStream`, docs/architecture.md "Rebuilding by stream"): its
 * cursor lives in `projection_rebuild_cursors`, written in the same transaction as the documents.
 */
export class SqliteRebuildTarget implements RebuildTarget {
  readonly name: ProjectionName;
  readonly store: string;
  readonly version: number;
  readonly byStream?: SqliteStreamBuild;
  private readonly checkpointName: string;

  constructor(private readonly ctx: RebuildContext) {
    this.name = ctx.name;
    this.store = ctx.store;
    this.version = ctx.version;
    this.checkpointName = `${ctx.name}_${ctx.store}`;
    if (ctx.name === 'trainees') {
      this.byStream = new SqliteStreamBuild(ctx.db, ctx.tables as TraineeTables, this.checkpointName, (position) =>
        ctx.setCheckpoint(this.checkpointName, position, this.version),
      );
    }
  }

  /** Forgets a stream cursor left by a dropped store of the same name (a new store starts from nothing). */
  reset(): void {
    this.byStream?.forget();
  }

  async checkpoint(): Promise<number> {
    return this.ctx.checkpoint(this.checkpointName);
  }

  async applyBatch(events: RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    this.ctx.db
      .transaction(() => {
        this.ctx.tables.apply(events);
        this.ctx.setCheckpoint(this.checkpointName, events[events.length - 1].position, this.version);
      })
      .immediate();
  }

  async swap(
    readAfter: (position: number) => Promise<RecordedEvent[]>,
    options: { keepOld: boolean },
  ): Promise<{ previous: string; dropped: boolean }> {
    // Holding the write lock, apply what the log gained since the last batch, then point the
    // registry at the new store: the live projector's next batch (serialised behind this lock)
    // and every read after the commit use the new store.
    const { db } = this.ctx;
    db.exec('BEGIN IMMEDIATE');
    let previous: string;
    try {
      for (;;) {
        const events = await readAfter(this.ctx.checkpoint(this.checkpointName));
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
    return { previous, ...this.ctx.afterSwap(previous, options.keepOld || previous === this.store) };
  }
}

/**
 * The stream phase of a trainee store (see {@link StreamBuild}): documents from whole streams, and
 * the cursor in `projection_rebuild_cursors` (keyed by the store's checkpoint name) written in the
 * same transaction; `finish` stores the checkpoint (`setCheckpoint`) and forgets the cursor together.
 */
export class SqliteStreamBuild implements StreamBuild {
  readonly streamPrefix = TRAINEE_STREAM_PREFIX;
  private readonly stmts;

  constructor(
    private readonly db: Database.Database,
    private readonly tables: TraineeTables,
    private readonly checkpointName: string,
    private readonly setCheckpoint: (position: number) => void,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS projection_rebuild_cursors (
      checkpoint TEXT PRIMARY KEY, to_position INTEGER NOT NULL, last_stream TEXT NOT NULL)`);
    this.stmts = {
      cursor: db.prepare<[string], StreamCursor>(
        `SELECT to_position AS toPosition, last_stream AS lastStream FROM projection_rebuild_cursors WHERE checkpoint = ?`,
      ),
      setCursor: db.prepare(`INSERT OR REPLACE INTO projection_rebuild_cursors (checkpoint, to_position, last_stream) VALUES (?, ?, ?)`),
      dropCursor: db.prepare(`DELETE FROM projection_rebuild_cursors WHERE checkpoint = ?`),
    };
  }

  async cursor(): Promise<StreamCursor | null> {
    return this.stmts.cursor.get(this.checkpointName) ?? null;
  }

  async applyStreams(events: RecordedEvent[], cursor: StreamCursor): Promise<void> {
    // Fewer, larger WAL checkpoints while the store is written in bulk (each one fsyncs).
    this.db.pragma(`wal_autocheckpoint = ${BULK_WAL_AUTOCHECKPOINT_PAGES}`);
    this.db
      .transaction(() => {
        this.tables.apply(events);
        this.stmts.setCursor.run(this.checkpointName, cursor.toPosition, cursor.lastStream);
      })
      .immediate();
  }

  async finish(toPosition: number): Promise<void> {
    this.db
      .transaction(() => {
        this.setCheckpoint(toPosition);
        this.forget();
      })
      .immediate();
    this.db.pragma(`wal_autocheckpoint = ${DEFAULT_WAL_AUTOCHECKPOINT_PAGES}`);
  }

  /** Drops the cursor. */
  forget(): void {
    this.stmts.dropCursor.run(this.checkpointName);
  }
}

/** SQLite's default WAL auto-checkpoint, in pages (4 MiB at 4 KiB pages). */
const DEFAULT_WAL_AUTOCHECKPOINT_PAGES = 1000;
/** The WAL auto-checkpoint of a stream phase, in pages (256 MiB of WAL at 4 KiB pages; measured in BENCHMARKS.md). */
const BULK_WAL_AUTOCHECKPOINT_PAGES = 65_536;
