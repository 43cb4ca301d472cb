import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  evolve,
  evolveProvider,
  initialProviderState,
  lastNameKey,
  startCycle,
  type ProviderState,
  type Trainee,
  type TraineeState,
} from '@app/domain';
import type { RecordedEvent } from '@app/event-store';
import { decodeProviderEvent, decodeTraineeEvent } from '../event-codec';
import type {
  ProjectionStore,
  ProviderReadModel,
  ReadModelStore,
  ProviderRecord,
  TokenRecord,
  TraineeListPage,
  TraineeListQuery,
  TraineeReadModel,
} from '../read-model.port';

/** Version of the trainee and provider projections; their tables are named with it (DESIGN.md "Read models"). */
export const PROJECTION_VERSION = 1;
const T = `trainees_v${PROJECTION_VERSION}`;
const P = `providers_v${PROJECTION_VERSION}`;
const K = `tokens_v${PROJECTION_VERSION}`;
const CHECKPOINT_NAME = `main_v${PROJECTION_VERSION}`;

interface TraineeRow {
  doc: string;
  revision: number;
}

/**
 * The embedded read models on SQLite (`<DATA_DIR>/read-models.sqlite`): one row per trainee
 * (JSON document plus the columns the list filters and the duplicate check need), providers,
 * tokens, and the projector's checkpoint, written in the same transaction as the documents.
 */
export class SqliteReadModel implements ReadModelStore {
  private readonly db: Database.Database;
  private readonly stmts;
  private readonly listStatements = new Map<string, Database.Statement>();

  constructor(filename: string) {
    this.db = new Database(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS ${T} (
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
      CREATE INDEX IF NOT EXISTS ${T}_list ON ${T} (ukprn, start_cycle, updated_at, seq);
      CREATE INDEX IF NOT EXISTS ${T}_duplicates ON ${T} (ukprn, date_of_birth, training_route, last_name_key);
      CREATE TABLE IF NOT EXISTS ${P} (
        ukprn TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        revision INTEGER NOT NULL,
        state TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS ${K} (
        token_id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        ukprn TEXT NOT NULL,
        status TEXT NOT NULL,
        issued_at TEXT NOT NULL,
        revoked_at TEXT
      );
      CREATE INDEX IF NOT EXISTS ${K}_ukprn ON ${K} (ukprn);
      CREATE TABLE IF NOT EXISTS projection_checkpoints (
        name TEXT PRIMARY KEY,
        position INTEGER NOT NULL,
        version INTEGER NOT NULL,
        updated_at TEXT NOT NULL
      );
    `);
    this.stmts = {
      getTrainee: this.db.prepare<[string], TraineeRow>(`SELECT doc, revision FROM ${T} WHERE trainee_id_lower = ?`),
      upsertTrainee: this.db.prepare(`
        INSERT INTO ${T} (trainee_id, trainee_id_lower, ukprn, start_cycle, state, itt_start_date, has_trn, updated_at,
                          date_of_birth, training_route, last_name_key, revision, doc)
        VALUES (@trainee_id, @trainee_id_lower, @ukprn, @start_cycle, @state, @itt_start_date, @has_trn, @updated_at,
                @date_of_birth, @training_route, @last_name_key, @revision, @doc)
        ON CONFLICT (trainee_id) DO UPDATE SET
          ukprn = excluded.ukprn, start_cycle = excluded.start_cycle, state = excluded.state,
          itt_start_date = excluded.itt_start_date, has_trn = excluded.has_trn, updated_at = excluded.updated_at,
          date_of_birth = excluded.date_of_birth, training_route = excluded.training_route,
          last_name_key = excluded.last_name_key, revision = excluded.revision, doc = excluded.doc
        WHERE excluded.revision > ${T}.revision`),
      duplicates: this.db.prepare<[string, string, string, string], { doc: string }>(
        `SELECT doc FROM ${T} WHERE ukprn = ? AND date_of_birth = ? AND training_route = ? AND last_name_key = ? ORDER BY seq`,
      ),
      getCheckpoint: this.db.prepare<[string], { position: number }>(
        `SELECT position FROM projection_checkpoints WHERE name = ?`,
      ),
      setCheckpoint: this.db.prepare(`
        INSERT INTO projection_checkpoints (name, position, version, updated_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (name) DO UPDATE SET position = MAX(position, excluded.position), updated_at = excluded.updated_at`),
      getProviderRow: this.db.prepare<[string], { revision: number; state: string }>(
        `SELECT revision, state FROM ${P} WHERE ukprn = ?`,
      ),
      upsertProvider: this.db.prepare(`
        INSERT INTO ${P} (ukprn, name, created_at, revision, state) VALUES (@ukprn, @name, @created_at, @revision, @state)
        ON CONFLICT (ukprn) DO UPDATE SET name = excluded.name, revision = excluded.revision, state = excluded.state
        WHERE excluded.revision > ${P}.revision`),
      insertToken: this.db.prepare(`
        INSERT INTO ${K} (token_id, token_hash, ukprn, status, issued_at, revoked_at)
        VALUES (?, ?, ?, 'active', ?, NULL) ON CONFLICT (token_id) DO NOTHING`),
      revokeToken: this.db.prepare(`UPDATE ${K} SET status = 'revoked', revoked_at = ? WHERE token_id = ?`),
      tokenByHash: this.db.prepare<[string], TokenRecord>(
        `SELECT token_id, ukprn, status, issued_at, revoked_at FROM ${K} WHERE token_hash = ?`,
      ),
      tokenById: this.db.prepare<[string], TokenRecord>(
        `SELECT token_id, ukprn, status, issued_at, revoked_at FROM ${K} WHERE token_id = ?`,
      ),
      tokensOf: this.db.prepare<[string], TokenRecord>(
        `SELECT token_id, ukprn, status, issued_at, revoked_at FROM ${K} WHERE ukprn = ? ORDER BY issued_at, token_id`,
      ),
      provider: this.db.prepare<[string], ProviderRecord>(`SELECT ukprn, name, created_at FROM ${P} WHERE ukprn = ?`),
      providers: this.db.prepare<[], ProviderRecord>(`SELECT ukprn, name, created_at FROM ${P} ORDER BY ukprn`),
    };
  }

  /** Opens `<dataDir>/read-models.sqlite`, creating the directory when needed. */
  static open(dataDir: string): SqliteReadModel {
    mkdirSync(dataDir, { recursive: true });
    return new SqliteReadModel(join(dataDir, 'read-models.sqlite'));
  }

  async getTrainee(traineeId: string): Promise<Trainee | null> {
    const row = this.stmts.getTrainee.get(traineeId.toLowerCase());
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
    if (q.statuses && q.statuses.length > 0) {
      const ors = q.statuses.map((s) => STATUS_SQL[s]);
      where.push(`(${ors.join(' OR ')})`);
    }
    const whereSql = where.join(' AND ');
    const totalCount = (this.prepared(`SELECT COUNT(*) AS n FROM ${T} WHERE ${whereSql}`).get(params) as { n: number }).n;
    const dir = q.sortOrder === 'asc' ? 'ASC' : 'DESC';
    const offset = (q.page - 1) * q.perPage;
    if (totalCount === 0 || offset >= totalCount || q.perPage < 1) return { items: [], totalCount };
    const rows = this.prepared(`SELECT doc FROM ${T} WHERE ${whereSql} ORDER BY updated_at ${dir}, seq DESC LIMIT @limit OFFSET @offset`)
      .all({ ...params, limit: q.perPage, offset }) as { doc: string }[];
    return { items: rows.map((r) => JSON.parse(r.doc) as Trainee), totalCount };
  }

  /** A prepared statement per distinct list query shape (there are few: filters only add fixed clauses). */
  private prepared(sql: string): Database.Statement {
    let stmt = this.listStatements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.listStatements.set(sql, stmt);
    }
    return stmt;
  }

  async findDuplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Promise<Trainee[]> {
    return this.stmts.duplicates
      .all(ukprn, dateOfBirth, trainingRoute, lastNameKey(lastName))
      .map((r) => JSON.parse(r.doc) as Trainee);
  }

  async findTokenByHash(tokenHash: string): Promise<TokenRecord | null> {
    return this.stmts.tokenByHash.get(tokenHash) ?? null;
  }

  async getToken(tokenId: string): Promise<TokenRecord | null> {
    return this.stmts.tokenById.get(tokenId) ?? null;
  }

  async listTokens(ukprn: string): Promise<TokenRecord[]> {
    return this.stmts.tokensOf.all(ukprn);
  }

  async getProvider(ukprn: string): Promise<ProviderRecord | null> {
    return this.stmts.provider.get(ukprn) ?? null;
  }

  async listProviders(): Promise<ProviderRecord[]> {
    return this.stmts.providers.all();
  }

  async readCheckpoint(name: string): Promise<number> {
    return this.stmts.getCheckpoint.get(name)?.position ?? 0;
  }

  async writeCheckpoint(name: string, position: number): Promise<void> {
    this.stmts.setCheckpoint.run(name, position, 0, new Date().toISOString());
  }

  async checkpoint(): Promise<number> {
    return this.stmts.getCheckpoint.get(CHECKPOINT_NAME)?.position ?? 0;
  }

  async applyBatch(events: RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    this.applyBatchTx(events);
  }

  private readonly applyBatchTx = (events: RecordedEvent[]): void => {
    this.db.transaction(() => {
      const trainees = new Map<string, { state: TraineeState; revision: number; dirty: boolean }>();
      for (const recorded of events) {
        const te = decodeTraineeEvent(recorded);
        if (te) {
          const id = te.data.trainee_id;
          let entry = trainees.get(id);
          if (!entry) {
            const row = this.stmts.getTrainee.get(id.toLowerCase());
            entry = row
              ? { state: { exists: true, trainee: JSON.parse(row.doc) as Trainee }, revision: row.revision, dirty: false }
              : { state: { exists: false }, revision: -1, dirty: false };
            trainees.set(id, entry);
          }
          if (recorded.streamRevision <= entry.revision) continue;
          entry.state = evolve(entry.state, te);
          entry.revision = recorded.streamRevision;
          entry.dirty = true;
          continue;
        }
        const pe = decodeProviderEvent(recorded);
        if (pe) this.applyProviderEvent(recorded, pe);
      }
      for (const entry of trainees.values()) {
        if (entry.dirty && entry.state.exists) this.writeTrainee(entry.state.trainee, entry.revision);
      }
      const last = events[events.length - 1].position;
      this.stmts.setCheckpoint.run(CHECKPOINT_NAME, last, PROJECTION_VERSION, new Date().toISOString());
    }).immediate();
  };

  private writeTrainee(t: Trainee, revision: number): void {
    this.stmts.upsertTrainee.run({
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
      revision,
      doc: JSON.stringify(t),
    });
  }

  private applyProviderEvent(recorded: RecordedEvent, event: ReturnType<typeof decodeProviderEvent> & object): void {
    const ukprn = event.data.ukprn;
    const row = this.stmts.getProviderRow.get(ukprn);
    if (row && recorded.streamRevision <= row.revision) return;
    const state: ProviderState = row ? (JSON.parse(row.state) as ProviderState) : initialProviderState;
    const next = evolveProvider(state, event);
    if (event.type === 'TokenIssued') {
      this.stmts.insertToken.run(event.data.token_id, event.data.token_hash, ukprn, event.data.at);
    } else if (event.type === 'TokenRevoked') {
      this.stmts.revokeToken.run(event.data.at, event.data.token_id);
    }
    this.stmts.upsertProvider.run({
      ukprn,
      name: next.name ?? '',
      created_at: event.type === 'ProviderRegistered' ? event.data.at : recorded.metadata.occurredAt,
      revision: recorded.streamRevision,
      state: JSON.stringify(next),
    });
  }

  /** Closes the database. */
  close(): void {
    this.db.close();
  }
}

/** SQL for each status filter (API-FACTS §14.4); `@today` is the `YYYY-MM-DD` of now, UTC. */
const STATUS_SQL: Record<string, string> = {
  course_not_yet_started: `(itt_start_date > @today AND state NOT IN ('draft', 'deferred', 'withdrawn'))`,
  in_training: `(state IN ('submitted_for_trn', 'trn_received', 'recommended_for_award') AND itt_start_date <= @today)`,
  deferred: `(state = 'deferred')`,
  awarded: `(state = 'awarded')`,
  withdrawn: `(state = 'withdrawn')`,
};
