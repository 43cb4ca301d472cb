import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { decodeProviderEvent, decodeTraineeEvent, evolve, evolveProvider, initialProviderState, lastNameKey, type ProviderEvent, type ProviderState, startCycle, type Trainee, type TraineeState } from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { PROJECTION_NAMES, PROJECTION_VERSIONS, type ProjectionInfo, type ProjectionName } from '../projection-versions';
import type { ProviderRecord, ReadModelStore, TokenRecord, TraineeListPage, TraineeListQuery } from '../read-model.port';
import type { RebuildableStore, RebuildTarget } from '../rebuild';

export { PROJECTION_VERSION } from '../projection-versions';

interface TraineeRow {
  doc: string;
  revision: number;
}

interface RegistryRow {
  name: string;
  version: number;
  store: string;
  rebuilding: string | null;
}

/** A trainee projection store: `trainees_<store>` and its statements. */
class TraineeTables {
  readonly table: string;
  readonly get: Database.Statement<[string], TraineeRow>;
  private readonly upsert: Database.Statement;
  readonly duplicates: Database.Statement<[string, string, string, string], { doc: string }>;
  readonly count: Database.Statement<[], { n: number }>;
  private readonly lists = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database, readonly store: string) {
    const t = (this.table = `trainees_${store}`);
    db.exec(`
      CREATE TABLE IF NOT EXISTS ${t} (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        trainee_id TEXT NOT NULL UNIQUE,
        trainee_id_lower TEXT NOT NULL UNIQUE,
        ukprn TEXT NOT NULL,
        start_cycle INTEGER NOT NULL,
        state TEXT NOT NULL,
        itt_start_date TEXT NOT NULL,
        has_trn INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        date_of_birth TEXT NOT NULL,
        training_route TEXT NOT NULL,
        last_name_key TEXT NOT NULL,
        revision INTEGER NOT NULL,
        doc TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS ${t}_list ON ${t} (ukprn, start_cycle, updated_at, seq);
      CREATE INDEX IF NOT EXISTS ${t}_duplicates ON ${t} (ukprn, date_of_birth, training_route, last_name_key);
      -- Serves the status and has_trn filters (and their counts) without reading the documents.
      CREATE INDEX IF NOT EXISTS ${t}_status ON ${t} (ukprn, start_cycle, state, itt_start_date, has_trn, updated_at);
    `);
    this.get = db.prepare(`SELECT doc, revision FROM ${t} WHERE trainee_id_lower = ?`);
    this.upsert = db.prepare(`
      INSERT INTO ${t} (trainee_id, trainee_id_lower, ukprn, start_cycle, state, itt_start_date, has_trn, updated_at,
                        date_of_birth, training_route, last_name_key, revision, doc)
      VALUES (@trainee_id, @trainee_id_lower, @ukprn, @start_cycle, @state, @itt_start_date, @has_trn, @updated_at,
              @date_of_birth, @training_route, @last_name_key, @revision, @doc)
      ON CONFLICT (trainee_id) DO UPDATE SET
        ukprn = excluded.ukprn, start_cycle = excluded.start_cycle, state = excluded.state,
        itt_start_date = excluded.itt_start_date, has_trn = excluded.has_trn, updated_at = excluded.updated_at,
        date_of_birth = excluded.date_of_birth, training_route = excluded.training_route,
        last_name_key = excluded.last_name_key, revision = excluded.revision, doc = excluded.doc
      WHERE excluded.revision > ${t}.revision`);
    this.duplicates = db.prepare(
      `SELECT doc FROM ${t} WHERE ukprn = ? AND date_of_birth = ? AND training_route = ? AND last_name_key = ? ORDER BY seq`,
    );
    this.count = db.prepare(`SELECT COUNT(*) AS n FROM ${t}`);
  }

  /** A prepared list statement per distinct query shape (filters only add fixed clauses). */
  list(sql: string): Database.Statement {
    let stmt = this.lists.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql.replaceAll('{T}', this.table));
      this.lists.set(sql, stmt);
    }
    return stmt;
  }

  /** Applies the batch's trainee events (revision guard: events at or below a document's revision are skipped). */
  apply(events: RecordedEvent[]): void {
    const trainees = new Map<string, { state: TraineeState; revision: number; dirty: boolean }>();
    for (const recorded of events) {
      const te = decodeTraineeEvent(recorded);
      if (!te) continue;
      const id = te.data.trainee_id;
      let entry = trainees.get(id);
      if (!entry) {
        const row = this.get.get(id.toLowerCase());
        entry = row
          ? { state: { exists: true, trainee: JSON.parse(row.doc) as Trainee }, revision: row.revision, dirty: false }
          : { state: { exists: false }, revision: -1, dirty: false };
        trainees.set(id, entry);
      }
      if (recorded.streamRevision <= entry.revision) continue;
      entry.state = evolve(entry.state, te);
      entry.revision = recorded.streamRevision;
      entry.dirty = true;
    }
    for (const entry of trainees.values()) {
      if (!entry.dirty || !entry.state.exists) continue;
      const t = entry.state.trainee;
      this.upsert.run({
        trainee_id: t.trainee_id,
        trainee_id_lower: t.trainee_id.toLowerCase(),
        ukprn: t.ukprn,
        start_cycle: startCycle(t.details),
        state: t.state,
        itt_start_date: t.details.itt_start_date,
        has_trn: t.trn ? 1 : 0,
        updated_at: t.updated_at,
        date_of_birth: t.details.date_of_birth,
        training_route: t.details.training_route,
        last_name_key: lastNameKey(t.details.last_name),
        revision: entry.revision,
        doc: JSON.stringify(t),
      });
    }
  }

  drop(): void {
    this.db.exec(`DROP TABLE IF EXISTS ${this.table}`);
  }
}

/** A provider projection store: `providers_<store>` and `tokens_<store>`. */
class ProviderTables {
  readonly providersTable: string;
  readonly tokensTable: string;
  private readonly row: Database.Statement<[string], { revision: number; state: string }>;
  private readonly upsertProvider: Database.Statement;
  private readonly insertToken: Database.Statement;
  private readonly revokeToken: Database.Statement;
  readonly tokenByHash: Database.Statement<[string], TokenRecord>;
  readonly tokenById: Database.Statement<[string], TokenRecord>;
  readonly tokensOf: Database.Statement<[string], TokenRecord>;
  readonly provider: Database.Statement<[string], ProviderRecord>;
  readonly providers: Database.Statement<[], ProviderRecord>;
  readonly count: Database.Statement<[], { n: number }>;

  constructor(private readonly db: Database.Database, readonly store: string) {
    const p = (this.providersTable = `providers_${store}`);
    const k = (this.tokensTable = `tokens_${store}`);
    db.exec(`
      CREATE TABLE IF NOT EXISTS ${p} (ukprn TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL,
                                       revision INTEGER NOT NULL, state TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS ${k} (token_id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, ukprn TEXT NOT NULL,
                                       status TEXT NOT NULL, issued_at TEXT NOT NULL, revoked_at TEXT);
      CREATE INDEX IF NOT EXISTS ${k}_ukprn ON ${k} (ukprn);
    `);
    this.row = db.prepare(`SELECT revision, state FROM ${p} WHERE ukprn = ?`);
    this.upsertProvider = db.prepare(`
      INSERT INTO ${p} (ukprn, name, created_at, revision, state) VALUES (@ukprn, @name, @created_at, @revision, @state)
      ON CONFLICT (ukprn) DO UPDATE SET name = excluded.name, revision = excluded.revision, state = excluded.state
      WHERE excluded.revision > ${p}.revision`);
    this.insertToken = db.prepare(
      `INSERT INTO ${k} (token_id, token_hash, ukprn, status, issued_at, revoked_at) VALUES (?, ?, ?, 'active', ?, NULL)
       ON CONFLICT (token_id) DO NOTHING`,
    );
    this.revokeToken = db.prepare(`UPDATE ${k} SET status = 'revoked', revoked_at = ? WHERE token_id = ?`);
    const cols = 'token_id, ukprn, status, issued_at, revoked_at';
    this.tokenByHash = db.prepare(`SELECT ${cols} FROM ${k} WHERE token_hash = ?`);
    this.tokenById = db.prepare(`SELECT ${cols} FROM ${k} WHERE token_id = ?`);
    this.tokensOf = db.prepare(`SELECT ${cols} FROM ${k} WHERE ukprn = ? ORDER BY issued_at, token_id`);
    this.provider = db.prepare(`SELECT ukprn, name, created_at FROM ${p} WHERE ukprn = ?`);
    this.providers = db.prepare(`SELECT ukprn, name, created_at FROM ${p} ORDER BY ukprn`);
    this.count = db.prepare(`SELECT COUNT(*) AS n FROM ${p}`);
  }

  /** Applies the batch's provider events (revision guard per provider stream). */
  apply(events: RecordedEvent[]): void {
    for (const recorded of events) {
      const event = decodeProviderEvent(recorded);
      if (event) this.applyOne(recorded, event);
    }
  }

  private applyOne(recorded: RecordedEvent, event: ProviderEvent): void {
    const ukprn = event.data.ukprn;
    const row = this.row.get(ukprn);
    if (row && recorded.streamRevision <= row.revision) return;
    const state: ProviderState = row ? (JSON.parse(row.state) as ProviderState) : initialProviderState;
    const next = evolveProvider(state, event);
    if (event.type === 'TokenIssued') this.insertToken.run(event.data.token_id, event.data.token_hash, ukprn, event.data.at);
    else if (event.type === 'TokenRevoked') this.revokeToken.run(event.data.at, event.data.token_id);
    this.upsertProvider.run({
      ukprn,
      name: next.name ?? '',
      created_at: event.type === 'ProviderRegistered' ? event.data.at : recorded.metadata.occurredAt,
      revision: recorded.streamRevision,
      state: JSON.stringify(next),
    });
  }

  drop(): void {
    this.db.exec(`DROP TABLE IF EXISTS ${this.tokensTable}; DROP TABLE IF EXISTS ${this.providersTable}`);
  }
}

type Tables = { trainees: TraineeTables; providers: ProviderTables };

/**
 * The embedded read models on SQLite (`<DATA_DIR>/read-models.sqlite`). Two projections, each
 * with a version and its own store (tables named with it) and checkpoint, written in the same
 * transaction as its documents:
 * - `trainees`: one row per trainee (the JSON document plus the columns the list filters and the
 *   duplicate check need);
 * - `providers`: providers and tokens.
 * `projection_registry` names the store each projection serves from; a rebuild writes a new store
 * beside it while the old one serves, then swaps the registry row atomically (blue/green). Every
 * read follows the registry, so readers in other processes switch with the swap.
 */
export class SqliteReadModel implements ReadModelStore, RebuildableStore {
  private readonly db: Database.Database;
  private readonly stmts;
  private readonly codeVersions: Record<ProjectionName, number>;
  private readonly tablesByStore = { trainees: new Map<string, TraineeTables>(), providers: new Map<string, ProviderTables>() };
  private active!: Tables;
  private registry: RegistryRow[] = [];
  private seenDataVersion = -1;

  constructor(filename: string, options: { codeVersions?: Partial<Record<ProjectionName, number>> } = {}) {
    this.codeVersions = { ...PROJECTION_VERSIONS, ...options.codeVersions };
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS projection_checkpoints (
        name TEXT PRIMARY KEY, position INTEGER NOT NULL, version INTEGER NOT NULL, updated_at TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS projection_registry (
        name TEXT PRIMARY KEY, version INTEGER NOT NULL, store TEXT NOT NULL, rebuilding TEXT, updated_at TEXT NOT NULL);
    `);
    this.stmts = {
      getCheckpoint: this.db.prepare<[string], { position: number }>(`SELECT position FROM projection_checkpoints WHERE name = ?`),
      setCheckpoint: this.db.prepare(`
        INSERT INTO projection_checkpoints (name, position, version, updated_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position), updated_at = excluded.updated_at`),
      registry: this.db.prepare<[], RegistryRow>(`SELECT name, version, store, rebuilding FROM projection_registry`),
      register: this.db.prepare(
        `INSERT INTO projection_registry (name, version, store, rebuilding, updated_at) VALUES (?, ?, ?, NULL, ?) ON CONFLICT (name) DO NOTHING`,
      ),
      setRebuilding: this.db.prepare(`UPDATE projection_registry SET rebuilding = ?, updated_at = ? WHERE name = ?`),
      swap: this.db.prepare(`UPDATE projection_registry SET version = ?, store = ?, rebuilding = NULL, updated_at = ? WHERE name = ?`),
      dataVersion: this.db.prepare('PRAGMA data_version').pluck(),
    };
    this.db
      .transaction(() => {
        if (this.stmts.registry.all().length > 0) return;
        // Data dirs from before projections were versioned one by one served both from `*_v1`
        // with one checkpoint `main_v1`: adopt them, once, as the `v1` stores.
        const legacy = this.stmts.getCheckpoint.get('main_v1');
        for (const name of PROJECTION_NAMES) {
          const version = legacy ? 1 : this.codeVersions[name];
          this.stmts.register.run(name, version, `v${version}`, now());
          if (legacy) this.stmts.setCheckpoint.run(`${name}_v1`, legacy.position, 1, now());
        }
        if (legacy) this.db.prepare(`DELETE FROM projection_checkpoints WHERE name = 'main_v1'`).run();
      })
      .immediate();
    this.refresh(true);
  }

  /** Opens `<dataDir>/read-models.sqlite`, creating the directory when needed. */
  static open(dataDir: string): SqliteReadModel {
    mkdirSync(dataDir, { recursive: true });
    return new SqliteReadModel(join(dataDir, 'read-models.sqlite'));
  }

  /** Follows the registry when another connection (or this one) has committed since the last look. */
  private refresh(force = false): Tables {
    const version = this.stmts.dataVersion.get() as number;
    if (!force && version === this.seenDataVersion && this.active) return this.active;
    this.seenDataVersion = version;
    this.registry = this.stmts.registry.all();
    const store = (name: ProjectionName) => this.registry.find((r) => r.name === name)!.store;
    this.active = { trainees: this.traineeTables(store('trainees')), providers: this.providerTables(store('providers')) };
    return this.active;
  }

  private traineeTables(store: string): TraineeTables {
    let t = this.tablesByStore.trainees.get(store);
    if (!t) this.tablesByStore.trainees.set(store, (t = new TraineeTables(this.db, store)));
    return t;
  }

  private providerTables(store: string): ProviderTables {
    let t = this.tablesByStore.providers.get(store);
    if (!t) this.tablesByStore.providers.set(store, (t = new ProviderTables(this.db, store)));
    return t;
  }

  /**
   * Runs a read on the active stores; if a swap dropped the old store between the registry look and
   * the read, looks again and retries once, so a swap never fails a read.
   */
  private read<T>(fn: (tables: Tables) => T): T {
    try {
      return fn(this.refresh());
    } catch (err) {
      if (!(err instanceof Error) || !/no such table/.test(err.message)) throw err;
      return fn(this.refresh(true));
    }
  }

  async getTrainee(traineeId: string): Promise<Trainee | null> {
    const row = this.read((t) => t.trainees.get.get(traineeId.toLowerCase()));
    return row ? (JSON.parse(row.doc) as Trainee) : null;
  }

  async listTrainees(q: TraineeListQuery): Promise<TraineeListPage> {
    const where: string[] = ['ukprn = @ukprn', 'start_cycle = @cycle'];
    const params: Record<string, unknown> = { ukprn: q.ukprn, cycle: q.academicCycle, today: q.today };
    if (q.since) {
      where.push('updated_at >= @since');
      params.since = q.since;
    }
    if (q.hasTrn !== undefined) where.push(`has_trn = ${q.hasTrn ? 1 : 0}`);
    if (q.statuses && q.statuses.length > 0) where.push(`(${q.statuses.map((s) => STATUS_SQL[s]).join(' OR ')})`);
    const whereSql = where.join(' AND ');
    const dir = q.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const offset = (q.page - 1) * q.perPage;
    return this.read((t) => {
      const totalCount = (t.trainees.list(`SELECT COUNT(*) AS n FROM {T} WHERE ${whereSql}`).get(params) as { n: number }).n;
      if (totalCount === 0 || offset >= totalCount || q.perPage < 1) return { items: [], totalCount };
      const rows = t.trainees
        .list(`SELECT doc FROM {T} WHERE ${whereSql} ORDER BY updated_at ${dir}, seq DESC LIMIT @limit OFFSET @offset`)
        .all({ ...params, limit: q.perPage, offset }) as { doc: string }[];
      return { items: rows.map((r) => JSON.parse(r.doc) as Trainee), totalCount };
    });
  }

  async findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]> {
    return this.read((t) => t.trainees.duplicates.all(ukprn, dateOfBirth, trainingRoute, lastNameKey(lastName))).map(
      (r) => JSON.parse(r.doc) as Trainee,
    );
  }

  async findTokenByHash(tokenHash: string): Promise<TokenRecord | null> {
    return this.read((t) => t.providers.tokenByHash.get(tokenHash)) ?? null;
  }

  async getToken(tokenId: string): Promise<TokenRecord | null> {
    return this.read((t) => t.providers.tokenById.get(tokenId)) ?? null;
  }

  async listTokens(ukprn: string): Promise<TokenRecord[]> {
    return this.read((t) => t.providers.tokensOf.all(ukprn));
  }

  async getProvider(ukprn: string): Promise<ProviderRecord | null> {
    return this.read((t) => t.providers.provider.get(ukprn)) ?? null;
  }

  async listProviders(): Promise<ProviderRecord[]> {
    return this.read((t) => t.providers.providers.all());
  }

  async readCheckpoint(name: string): Promise<number> {
    return this.stmts.getCheckpoint.get(name)?.position ?? 0;
  }

  async writeCheckpoint(name: string, position: number): Promise<void> {
    this.stmts.setCheckpoint.run(name, position, 0, now());
  }

  /** The lower of the two active projections' checkpoints: every event up to it is applied to both. */
  async checkpoint(): Promise<number> {
    const t = this.refresh();
    return Math.min(
      this.stmts.getCheckpoint.get(`trainees_${t.trainees.store}`)?.position ?? 0,
      this.stmts.getCheckpoint.get(`providers_${t.providers.store}`)?.position ?? 0,
    );
  }

  async applyBatch(events: RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    this.db
      .transaction(() => {
        const t = this.refresh();
        this.applyTo(t.trainees, events);
        this.applyTo(t.providers, events);
      })
      .immediate();
  }

  private applyTo(tables: TraineeTables | ProviderTables, events: RecordedEvent[]): void {
    const name: ProjectionName = tables instanceof TraineeTables ? 'trainees' : 'providers';
    tables.apply(events);
    this.stmts.setCheckpoint.run(`${name}_${tables.store}`, events[events.length - 1].position, this.versionOf(tables.store), now());
  }

  private versionOf(store: string): number {
    return Number(/^v(\d+)/.exec(store)?.[1] ?? 0);
  }

  async projectionInfo(): Promise<ProjectionInfo[]> {
    const t = this.refresh(true);
    return PROJECTION_NAMES.map((name) => {
      const row = this.registry.find((r) => r.name === name)!;
      const tables = name === 'trainees' ? t.trainees : t.providers;
      return {
        name,
        code_version: this.codeVersions[name],
        version: row.version,
        store: row.store,
        checkpoint: this.stmts.getCheckpoint.get(`${name}_${row.store}`)?.position ?? 0,
        documents: tables.count.get()!.n,
        rebuild_needed: row.version !== this.codeVersions[name],
        rebuilding: row.rebuilding,
      };
    });
  }

  async beginRebuild(name: ProjectionName): Promise<RebuildTarget> {
    const row = this.refresh(true) && this.registry.find((r) => r.name === name)!;
    const code = this.codeVersions[name];
    let store = row.rebuilding;
    if (!store) {
      store = `v${code}`;
      for (let g = 2; store === row.store || this.tableExists(name, store); g++) store = `v${code}_g${g}`;
      // A new store starts from position 0, whatever a dropped store of the same name left behind.
      this.db.prepare(`DELETE FROM projection_checkpoints WHERE name = ?`).run(`${name}_${store}`);
      this.stmts.setRebuilding.run(store, now(), name);
    }
    const tables = name === 'trainees' ? this.traineeTables(store) : this.providerTables(store);
    const checkpointName = `${name}_${store}`;
    const target: RebuildTarget = {
      name,
      store,
      version: code,
      checkpoint: async () => this.stmts.getCheckpoint.get(checkpointName)?.position ?? 0,
      applyBatch: async (events) => {
        if (events.length === 0) return;
        this.db
          .transaction(() => {
            tables.apply(events);
            this.stmts.setCheckpoint.run(checkpointName, events[events.length - 1].position, code, now());
          })
          .immediate();
      },
      swap: async (readAfter, options) => {
        // Holding the write lock, apply what the log gained since the last batch, then point the
        // registry at the new store: the live projector's next batch (serialised behind this lock)
        // and every read after the commit use the new store.
        this.db.exec('BEGIN IMMEDIATE');
        let previous: string;
        try {
          for (;;) {
            const events = await readAfter(this.stmts.getCheckpoint.get(checkpointName)?.position ?? 0);
            if (events.length === 0) break;
            tables.apply(events);
            this.stmts.setCheckpoint.run(checkpointName, events[events.length - 1].position, code, now());
          }
          previous = this.stmts.registry.all().find((r) => r.name === name)!.store;
          this.stmts.swap.run(code, store, now(), name);
          this.db.exec('COMMIT');
        } catch (err) {
          this.db.exec('ROLLBACK');
          throw err;
        }
        this.refresh(true);
        if (options.keepOld || previous === store) return { previous, dropped: false };
        (name === 'trainees' ? this.traineeTables(previous) : this.providerTables(previous)).drop();
        this.tablesByStore[name].delete(previous);
        this.db.prepare(`DELETE FROM projection_checkpoints WHERE name = ?`).run(`${name}_${previous}`);
        return { previous, dropped: true };
      },
    };
    return target;
  }

  private tableExists(name: ProjectionName, store: string): boolean {
    const table = name === 'trainees' ? `trainees_${store}` : `providers_${store}`;
    return this.db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`).get(table) !== undefined;
  }

  /** Closes the database. */
  close(): void {
    this.db.close();
  }
}

function now(): string {
  return new Date().toISOString();
}

/** SQL for each status filter (docs/reference/API-FACTS.md §14.4); `@today` is the `YYYY-MM-DD` of now, UTC. */
const STATUS_SQL: Record<string, string> = {
  course_not_yet_started: `(itt_start_date > @today AND state NOT IN ('draft', 'deferred', 'withdrawn'))`,
  in_training: `(state IN ('submitted_for_trn', 'trn_received', 'recommended_for_award') AND itt_start_date <= @today)`,
  deferred: `(state = 'deferred')`,
  awarded: `(state = 'awarded')`,
  withdrawn: `(state = 'withdrawn')`,
};
