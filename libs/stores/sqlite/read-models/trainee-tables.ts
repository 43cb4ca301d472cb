import type { Database } from '@app/sqlite';
import { answerItem, renderTraineeAnswer } from '@app/trainees/answers';
import type { ApiVersion, Trainee } from '@app/trainees/record';
import type { StoredChange } from '@app/changes';
import type { TraineeSnapshot } from '@app/trainees/decider';
import { chainLinkOf, type RecordedEvent, type LogPosition } from '@app/event-sourcing';
import {
  duplicateKeys,
  traineeIdKey,
  type TraineeDocument,
  type TraineeAnswerPage,
  type TraineeListPage,
  type TraineeListQuery,
  type OwnedAnswer,
} from '@app/trainees/read';
import { addHeadHashColumn, createAnswersTable, keepTraineeCounts } from './trainee-table-upgrades';
import { defineTraineeSearch, SEARCH_SQL, searching } from './trainee-search-sql';
import { applyAnswerPatch } from './answer-patch';
import { prepareTrainees, type PreparedTrainee } from './trainee-rows';
import { STATUS_SQL } from './status-sql';
import { ChangeFieldCodes, changeFieldsTableOf, type ChangeText } from './change-rows';

interface TraineeRow {
  doc: string;
  revision: number;
  head_hash: string | null;
  seq: number;
}

/** Null columns: none stored ({@link TraineeTables.answer}). */
interface AnswerRow {
  ukprn: string;
  doc: string;
  body: Buffer | null;
  item_end: number | null;
  /** The stored answer `body` is a patch over (`base_body`), or null: `body` is the answer. */
  base: string | null;
  base_body: Buffer | null;
}

/** The columns of the secondary indexes (the MongoDB adapter declares the same, `TRAINEE_INDEXES`). */
export const TRAINEE_INDEX_COLUMNS = {
  list: ['ukprn', 'start_cycle', 'updated_at', 'seq'],
  duplicates: ['ukprn', 'date_of_birth', 'training_route', 'last_name_key'],
  status: ['ukprn', 'start_cycle', 'state', 'itt_start_date', 'has_trn', 'updated_at'],
} as const;

/**
 * A trainee projection store: `trainees_<store>`, a row per trainee (the document as JSON in `doc`, its `revision`, the
 * {@link traineeKeys} as columns; `seq` holds `created_position`, or in older data dirs an insertion number in the same order);
 * `trainee_answers_<store>`, each trainee's answer bytes per version, written with the row (docs/DESIGN.md "Answers stored as bytes"; a
 * trainee without them is rendered per read); `trainee_changes_<store>`, the change feed in the order written.
 */
export class TraineeTables {
  readonly table: string;
  private readonly get: Database.Statement<[string], TraineeRow>;
  private readonly upsert: Database.Statement;
  private readonly duplicates: Database.Statement<[string, string, string, string], { doc: string }>;
  readonly count: Database.Statement<[], { n: number }>;
  private readonly lists = new Map<string, Database.Statement>();
  readonly answersTable: string;
  private readonly upsertAnswer: Database.Statement;
  private readonly getAnswer: Database.Statement<[string, string], AnswerRow>;
  private readonly docBySeq: Database.Statement<[number], string>;
  readonly countsTable: string;
  private readonly countOf: Database.Statement<[string, number], number>;
  readonly changesTable: string;
  /** A store written before the changes had their own index (position is its rowid). */
  private readonly changesKeyedByPosition: boolean;
  private readonly insertChange: Database.Statement<[number, string, string]>;
  private readonly changesOf: Database.Statement<[string, number, number], ChangeText>;
  private readonly changesIn: Database.Statement<[number, number, number], ChangeText>;
  private readonly fieldCodes: ChangeFieldCodes;

  /** If missing ({@link createIndexes}). */
  constructor(
    private readonly db: Database.Database,
    readonly store: string,
  ) {
    const t = (this.table = `trainees_${store}`);
    defineTraineeSearch(db);
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
        doc TEXT NOT NULL,
        head_hash TEXT
      );
    `);
    addHeadHashColumn(db, t);
    const f = (this.changesTable = `trainee_changes_${store}`);
    this.changesKeyedByPosition = createChangesTable(db, f);
    this.createIndexes();
    const a = (this.answersTable = `trainee_answers_${store}`);
    createAnswersTable(db, a);
    this.insertChange = db.prepare(`INSERT OR IGNORE INTO ${f} (position, ukprn, change) VALUES (?, ?, ?)`);
    this.fieldCodes = new ChangeFieldCodes(db, changeFieldsTableOf(store));
    const columns = 'position, ukprn, change';
    this.changesIn = db
      .prepare<[number, number, number], ChangeText>(
        `SELECT ${columns} FROM ${f} WHERE position > ? AND position <= ? ORDER BY position LIMIT ?`,
      )
      .raw();
    this.changesOf = db
      .prepare<[string, number, number], ChangeText>(
        `SELECT ${columns} FROM ${f} WHERE ukprn = ? AND position > ? ORDER BY position LIMIT ?`,
      )
      .raw();
    const c = (this.countsTable = `trainee_counts_${store}`);
    keepTraineeCounts(db, t, c);
    // From the kept counts: a `COUNT(*)` reads a whole index (1.4 s of a start at 100k trainees with a cold page cache).
    this.count = db.prepare(`SELECT COALESCE(SUM(n), 0) AS n FROM ${c}`);
    this.countOf = db.prepare<[string, number], number>(`SELECT n FROM ${c} WHERE ukprn = ? AND start_cycle = ?`).pluck();
    this.upsertAnswer = db.prepare(`
      INSERT INTO ${a} (seq, version, item_end, body, base) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (seq, version) DO UPDATE SET item_end = excluded.item_end, body = excluded.body, base = excluded.base`);
    this.getAnswer = db.prepare(`
      SELECT t.ukprn, CASE WHEN a.body IS NULL THEN t.doc END AS doc, a.body, a.item_end, a.base, b.body AS base_body
      FROM ${t} t LEFT JOIN ${a} a ON a.seq = t.seq AND a.version = ? LEFT JOIN ${a} b ON b.seq = t.seq AND b.version = a.base
      WHERE t.trainee_id_lower = ?`);
    this.docBySeq = db.prepare<[number], string>(`SELECT doc FROM ${t} WHERE seq = ?`).pluck();
    this.get = db.prepare(`SELECT doc, revision, head_hash, seq FROM ${t} WHERE trainee_id_lower = ?`);
    // The guard on the stored revision never lets a write replace a newer document.
    this.upsert = db.prepare(`
      INSERT INTO ${t} (seq, trainee_id, trainee_id_lower, ukprn, start_cycle, state, itt_start_date, has_trn, updated_at,
                        date_of_birth, training_route, last_name_key, revision, doc, head_hash)
      VALUES (@created_position, @trainee_id, @trainee_id_lower, @ukprn, @start_cycle, @state, @itt_start_date, @has_trn,
              @updated_at, @date_of_birth, @training_route, @last_name_key, @revision, @doc, @head_hash)
      ON CONFLICT (trainee_id) DO UPDATE SET
        ukprn = excluded.ukprn, start_cycle = excluded.start_cycle, state = excluded.state,
        itt_start_date = excluded.itt_start_date, has_trn = excluded.has_trn, updated_at = excluded.updated_at,
        date_of_birth = excluded.date_of_birth, training_route = excluded.training_route,
        last_name_key = excluded.last_name_key, revision = excluded.revision, doc = excluded.doc,
        head_hash = excluded.head_hash
      WHERE excluded.revision > ${t}.revision`);
    this.duplicates = db.prepare(
      `SELECT doc FROM ${t} WHERE ukprn = ? AND date_of_birth = ? AND training_route = ? AND last_name_key = ? ORDER BY seq`,
    );
  }

  /** Any letter case; with its head (revision, `head_hash` as its link), or null. */
  snapshot(traineeId: string): TraineeSnapshot | null {
    const row = this.get.get(traineeIdKey(traineeId));
    return row ? { trainee: JSON.parse(row.doc) as Trainee, head: { revision: row.revision, link: chainLinkOf(row.head_hash) } } : null;
  }

  /** In trainee-id order (binary). */
  idsOf(ukprn: string): string[] {
    return this.list(`SELECT trainee_id FROM {T} WHERE ukprn = @ukprn ORDER BY trainee_id`).pluck().all({ ukprn }) as string[];
  }

  /** Any letter case, or null. */
  trainee(traineeId: string): Trainee | null {
    return this.snapshot(traineeId)?.trainee ?? null;
  }

  /** `STATUS_SQL` has the status filters; by updated_at, ties newest-created first. */
  page(q: TraineeListQuery): TraineeListPage {
    const { totalCount, seqs } = this.pageSeqs(q);
    const items = seqs.map((seq) => JSON.parse(this.getBySeq(seq)) as Trainee);
    return { items, totalCount };
  }

  /** As list items of `version` (JSON bytes each): stored, or rendered from the document when none are stored or `stored` is false. */
  answerPage(q: TraineeListQuery, version: ApiVersion, stored: boolean): TraineeAnswerPage {
    if (!stored || searching(q)) {
      const { totalCount, seqs } = this.pageSeqs(q);
      return { totalCount, items: seqs.map((seq) => answerItem(renderTraineeAnswer(JSON.parse(this.getBySeq(seq)) as Trainee, version))) };
    }
    // One statement: the page's seqs (from the list index) joined to their stored items.
    const { whereSql, params, totalCount, offset, dir } = this.listQuery(q);
    if (totalCount === 0 || offset >= totalCount || q.perPage < 1) return { totalCount, items: [] };
    // A patch row's item is cut from the answer its patch and base body make.
    const rows = this.list(
      `SELECT p.seq, CASE WHEN a.base IS NULL THEN substr(a.body, 1, a.item_end) ELSE a.body END, a.item_end, a.base, b.body FROM
         (SELECT seq, updated_at FROM {T} WHERE ${whereSql} ORDER BY updated_at ${dir}, seq DESC LIMIT @limit OFFSET @offset) p
       LEFT JOIN {A} a ON a.seq = p.seq AND a.version = @version LEFT JOIN {A} b ON b.seq = p.seq AND b.version = a.base
       ORDER BY p.updated_at ${dir}, p.seq DESC`,
    )
      .raw()
      .all({ ...params, limit: q.perPage, offset, version }) as [number, Buffer | null, number | null, string | null, Buffer | null][];
    const items = rows.map(([seq, stored, itemEnd, base, baseBody]) => {
      if (stored && base === null) return Buffer.concat([stored, CLOSE]);
      if (stored && baseBody) return Buffer.concat([applyAnswerPatch(baseBody, stored).subarray(0, itemEnd!), CLOSE]);
      return answerItem(renderTraineeAnswer(JSON.parse(this.getBySeq(seq)) as Trainee, version));
    });
    return { totalCount, items };
  }

  /** With its provider, or null: the stored bytes, or rendered from the document when none are stored or `stored` is false. */
  answer(traineeId: string, version: ApiVersion, stored: boolean): OwnedAnswer | null {
    const row = stored ? this.getAnswer.get(version, traineeIdKey(traineeId)) : undefined;
    if (row?.body && row.base === null) return { ukprn: row.ukprn, body: row.body };
    if (row?.body && row.base_body) return { ukprn: row.ukprn, body: applyAnswerPatch(row.base_body, row.body) };
    // No answer stored, or a patch whose base is gone: rendered from the document.
    const trainee = row?.doc ? (JSON.parse(row.doc) as Trainee) : this.trainee(traineeId);
    return trainee ? { ukprn: trainee.ukprn, body: renderTraineeAnswer(trainee, version).body } : null;
  }

  private pageSeqs(q: TraineeListQuery): { totalCount: number; seqs: number[] } {
    if (searching(q)) return this.searchSeqs(q);
    const { whereSql, params, totalCount, offset, dir } = this.listQuery(q);
    if (totalCount === 0 || offset >= totalCount || q.perPage < 1) return { totalCount, seqs: [] };
    const seqs = this.list(`SELECT seq FROM {T} WHERE ${whereSql} ORDER BY updated_at ${dir}, seq DESC LIMIT @limit OFFSET @offset`)
      .pluck()
      .all({ ...params, limit: q.perPage, offset }) as number[];
    return { totalCount, seqs };
  }

  /**
   * A search's page: in one statement every match's seq in list order, so the count and the page come from one pass over the provider's
   * cycle on the list index (or the status index), each row's document read for its names (`trainee_search`).
   */
  private searchSeqs(q: TraineeListQuery): { totalCount: number; seqs: number[] } {
    const { where, params, dir } = this.listWhere(q);
    where.push(SEARCH_SQL);
    const all = this.list(`SELECT seq FROM {T} WHERE ${where.join(' AND ')} ORDER BY updated_at ${dir}, seq DESC`)
      .pluck()
      .all({ ...params, search: q.search!.join(' ') }) as number[];
    const offset = (q.page - 1) * q.perPage;
    return { totalCount: all.length, seqs: q.perPage < 1 ? [] : all.slice(offset, offset + q.perPage) };
  }

  /** The WHERE clause and parameters, the total count (from the indexes), offset and order. */
  private listQuery(q: TraineeListQuery) {
    const { where, params, dir } = this.listWhere(q);
    const whereSql = where.join(' AND ');
    const totalCount =
      where.length === 2
        ? (this.countOf.get(q.ukprn, q.academicCycle) ?? 0)
        : (this.list(`SELECT COUNT(*) AS n FROM {T} WHERE ${whereSql}`).get(params) as { n: number }).n;
    return { whereSql, params, totalCount, offset: (q.page - 1) * q.perPage, dir };
  }

  /** The list's conditions but the search's, their parameters, and the order's direction. */
  private listWhere(q: TraineeListQuery) {
    const where: string[] = ['ukprn = @ukprn', 'start_cycle = @cycle'];
    const params: Record<string, unknown> = { ukprn: q.ukprn, cycle: q.academicCycle, today: q.today };
    if (q.since) {
      where.push('updated_at >= @since');
      params.since = q.since;
    }
    if (q.hasTrn !== undefined) where.push(`has_trn = ${q.hasTrn ? 1 : 0}`);
    if (q.statuses && q.statuses.length > 0) where.push(`(${q.statuses.map((s) => STATUS_SQL[s]).join(' OR ')})`);
    return { where, params, dir: q.sortOrder === 'asc' ? 'ASC' : 'DESC' };
  }

  /** Oldest-created first ({@link duplicateKeys}). */
  duplicateCandidates(ukprn: string, dateOfBirth: string, trainingRoute: string, lastName: string): Trainee[] {
    const k = duplicateKeys(ukprn, dateOfBirth, trainingRoute, lastName);
    return this.duplicates.all(k.ukprn, k.date_of_birth, k.training_route, k.last_name_key).map((r) => JSON.parse(r.doc) as Trainee);
  }

  /** Per distinct query shape (filters only add fixed clauses); `{T}`, `{A}` name the tables. */
  private list(sql: string): Database.Statement {
    let stmt = this.lists.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql.replaceAll('{T}', this.table).replaceAll('{A}', this.answersTable));
      this.lists.set(sql, stmt);
    }
    return stmt;
  }

  apply(events: RecordedEvent[]): void {
    this.write(prepareTrainees(events, (keys) => this.documents(keys)));
  }

  /** By id, as events carry them; absent ones left out. */
  documents(keys: string[]): Map<string, TraineeDocument> {
    const stored = new Map<string, TraineeDocument>();
    for (const key of keys) {
      const row = this.get.get(traineeIdKey(key));
      if (row)
        stored.set(key, {
          trainee: JSON.parse(row.doc) as Trainee,
          revision: row.revision,
          link: chainLinkOf(row.head_hash),
          created_position: row.seq,
        });
    }
    return stored;
  }

  /** Each row unless a newer revision is stored, then its answers; every change, one already stored by position kept as it is. */
  write(prepared: readonly PreparedTrainee[]): void {
    for (const { row, erased, answers, changes } of prepared) {
      for (const change of changes) this.insertChange.run(change.position, change.ukprn, this.fieldCodes.encode(change));
      if (erased) {
        this.deleteTrainee(row.trainee_id);
        continue;
      }
      if (this.upsert.run(row).changes === 0) continue;
      for (const answer of answers) this.upsertAnswer.run(row.created_position, answer.version, answer.itemEnd, answer.body, answer.base);
    }
  }

  /** The kept counts follow by trigger. */
  private deleteTrainee(traineeId: string): void {
    const key = traineeIdKey(traineeId);
    this.db.prepare(`DELETE FROM ${this.answersTable} WHERE seq IN (SELECT seq FROM ${this.table} WHERE trainee_id_lower = ?)`).run(key);
    this.db.prepare(`DELETE FROM ${this.table} WHERE trainee_id_lower = ?`).run(key);
  }

  /** Every provider's, in (`afterPosition`, `upToPosition`], oldest first (docs/change-feed.md "Webhooks"). */
  changesBetween(afterPosition: LogPosition, upToPosition: LogPosition, limit: number): StoredChange[] {
    return this.changesIn.all(afterPosition, upToPosition, limit).map((row) => this.fieldCodes.decode(row));
  }

  /** Oldest first (docs/change-feed.md). */
  changes(ukprn: string, afterPosition: LogPosition, limit: number): StoredChange[] {
    return this.changesOf.all(ukprn, afterPosition, limit).map((row) => this.fieldCodes.decode(row));
  }

  /** Deletes the provider's changes of the trainee, in either stored form (./change-rows.ts), for an erasure to make them again. */
  eraseChangesOf(ukprn: string, traineeId: string): void {
    this.db
      .prepare(
        `DELETE FROM ${this.changesTable} WHERE ukprn = ? AND (json_extract(change, '$[0]') = ? OR json_extract(change, '$.trainee_id') = ?)`,
      )
      .run(ukprn, traineeId, traineeId);
  }

  /** The caller read the seq in the same statement's snapshot. */
  private getBySeq(seq: number): string {
    return this.docBySeq.get(seq)!;
  }

  /** If missing (docs/DESIGN.md "Indexes"). */
  createIndexes(): void {
    for (const sql of this.indexStatements()) this.db.exec(sql);
  }

  /** One per index: a bulk build runs each in its own transaction. */
  indexStatements(): string[] {
    const t = this.table;
    return [
      `CREATE INDEX IF NOT EXISTS ${t}_list ON ${t} (${TRAINEE_INDEX_COLUMNS.list.join(', ')})`,
      `CREATE INDEX IF NOT EXISTS ${t}_duplicates ON ${t} (${TRAINEE_INDEX_COLUMNS.duplicates.join(', ')})`,
      // Serves the status and has_trn filters (and their counts) without reading the documents.
      `CREATE INDEX IF NOT EXISTS ${t}_status ON ${t} (${TRAINEE_INDEX_COLUMNS.status.join(', ')})`,
      `CREATE INDEX IF NOT EXISTS ${this.changesTable}_provider ON ${this.changesTable} (ukprn, position)`,
      // Every provider's changes in position order, and one row per position (`INSERT OR IGNORE`).
      ...(this.changesKeyedByPosition
        ? []
        : [`CREATE UNIQUE INDEX IF NOT EXISTS ${this.changesTable}_position ON ${this.changesTable} (position)`]),
    ];
  }

  /**
   * For a bulk build writing rows in stream order, random in every index's (docs/DESIGN.md "Rebuilding by stream"): {@link createIndexes}
   * builds each after in one sorted pass. The ids' unique keys stay; without the position index a change written twice is stored twice,
   * but a bulk build writes each event once, and building the index refuses a duplicate.
   */
  dropIndexes(): void {
    const t = this.table;
    const f = this.changesTable;
    this.db.exec(`DROP INDEX IF EXISTS ${t}_list; DROP INDEX IF EXISTS ${t}_duplicates; DROP INDEX IF EXISTS ${t}_status;
      DROP INDEX IF EXISTS ${f}_provider; DROP INDEX IF EXISTS ${f}_position;`);
  }

  /** What dropping the store drops. */
  static tableNames(store: string): string[] {
    const [trainees, answers, changes, counts] = ['trainees', 'trainee_answers', 'trainee_changes', 'trainee_counts'].map(
      (t) => `${t}_${store}`,
    );
    return [trainees, answers, changes, changeFieldsTableOf(store), counts];
  }
}

/**
 * One row per applied trainee event in the order written, found by position on a unique index (keyed by position, a stream phase's
 * changes went to random places); true for an older store's table, keyed by position (its rowid), which needs no index.
 */
function createChangesTable(db: Database.Database, name: string): boolean {
  db.exec(`CREATE TABLE IF NOT EXISTS ${name} (position INTEGER NOT NULL, ukprn TEXT NOT NULL, change TEXT NOT NULL)`);
  return db.prepare<[string], number>(`SELECT pk FROM pragma_table_info(?) WHERE name = 'position'`).pluck().get(name) === 1;
}

const CLOSE = Buffer.from('}');
