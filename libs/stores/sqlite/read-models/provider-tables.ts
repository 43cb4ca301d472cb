import type { Database } from '@app/sqlite';
import type { ProviderState } from '@app/providers/decider';
import { type RecordedEvent, decodeBatch, foldBatch } from '@app/event-sourcing';
import {
  changedTokens,
  providerProjection,
  type ProviderDocument,
  type TokenDocument,
  type ProviderRecord,
  type TokenRecord,
} from '@app/providers/read';

/** The columns of a {@link TokenRecord}. */
const TOKEN_COLUMNS = 'token_id, ukprn, status, issued_at, revoked_at, expires_at, last_used_at';

/**
 * Adds `expires_at` and `last_used_at` to a tokens table made before tokens expired: its tokens
 * were all issued without an expiry and never used as recorded, so null in both is what a rebuild
 * gives (docs/DESIGN.md "Tokens"; no projection version bump).
 */
function addMissingTokenColumns(db: Database.Database, table: string): void {
  const present = new Set(
    db
      .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
      .all()
      .map((c) => c.name),
  );
  for (const column of ['expires_at', 'last_used_at']) {
    if (!present.has(column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} TEXT`);
  }
}

interface ProviderRow extends ProviderRecord {
  revision: number;
  state: string;
}

/**
 * A provider projection store: `providers_<store>` (a {@link ProviderDocument}'s record, revision
 * and state as JSON) and `tokens_<store>` (its tokens), with their statements.
 */
export class ProviderTables {
  readonly providersTable: string;
  readonly tokensTable: string;
  private readonly row: Database.Statement<[string], ProviderRow>;
  private readonly tokenDocs: Database.Statement<[string], TokenDocument>;
  private readonly upsertProvider: Database.Statement;
  private readonly upsertToken: Database.Statement;
  readonly tokenByHash: Database.Statement<[string], TokenRecord>;
  readonly tokenById: Database.Statement<[string], TokenRecord>;
  readonly tokensOf: Database.Statement<[string], TokenRecord>;
  readonly provider: Database.Statement<[string], ProviderRecord>;
  readonly providers: Database.Statement<[], ProviderRecord>;
  readonly count: Database.Statement<[], { n: number }>;

  /** Creates the tables and the tokens' index if missing. */
  constructor(
    private readonly db: Database.Database,
    readonly store: string,
  ) {
    const [k, p] = ProviderTables.tableNames(store);
    this.providersTable = p;
    this.tokensTable = k;
    db.exec(`
      CREATE TABLE IF NOT EXISTS ${p} (ukprn TEXT PRIMARY KEY, name TEXT NOT NULL, created_at TEXT NOT NULL,
                                       revision INTEGER NOT NULL, state TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS ${k} (token_id TEXT PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE, ukprn TEXT NOT NULL,
                                       status TEXT NOT NULL, issued_at TEXT NOT NULL, revoked_at TEXT, expires_at TEXT, last_used_at TEXT);
      CREATE INDEX IF NOT EXISTS ${k}_ukprn ON ${k} (ukprn);
    `);
    addMissingTokenColumns(db, k);
    this.row = db.prepare(`SELECT ukprn, name, created_at, revision, state FROM ${p} WHERE ukprn = ?`);
    this.tokenDocs = db.prepare(`SELECT ${TOKEN_COLUMNS}, token_hash FROM ${k} WHERE ukprn = ?`);
    // The guard on the stored revision never lets a write replace a newer document.
    this.upsertProvider = db.prepare(`
      INSERT INTO ${p} (ukprn, name, created_at, revision, state) VALUES (@ukprn, @name, @created_at, @revision, @state)
      ON CONFLICT (ukprn) DO UPDATE SET name = excluded.name, revision = excluded.revision, state = excluded.state
      WHERE excluded.revision > ${p}.revision`);
    // A stored token only ever moves to revoked, and its last use only forward: an issue of a
    // stored token id changes nothing.
    this.upsertToken = db.prepare(`
      INSERT INTO ${k} (token_id, token_hash, ukprn, status, issued_at, revoked_at, expires_at, last_used_at)
      VALUES (@token_id, @token_hash, @ukprn, @status, @issued_at, @revoked_at, @expires_at, @last_used_at)
      ON CONFLICT (token_id) DO UPDATE SET
        status = CASE WHEN excluded.status = 'revoked' THEN 'revoked' ELSE ${k}.status END,
        revoked_at = CASE WHEN excluded.status = 'revoked' THEN excluded.revoked_at ELSE ${k}.revoked_at END,
        last_used_at = CASE WHEN ${k}.last_used_at IS NULL OR excluded.last_used_at > ${k}.last_used_at
                            THEN excluded.last_used_at ELSE ${k}.last_used_at END`);
    const cols = TOKEN_COLUMNS;
    this.tokenByHash = db.prepare(`SELECT ${cols} FROM ${k} WHERE token_hash = ?`);
    this.tokenById = db.prepare(`SELECT ${cols} FROM ${k} WHERE token_id = ?`);
    this.tokensOf = db.prepare(`SELECT ${cols} FROM ${k} WHERE ukprn = ? ORDER BY issued_at, token_id`);
    this.provider = db.prepare(`SELECT ukprn, name, created_at FROM ${p} WHERE ukprn = ?`);
    this.providers = db.prepare(`SELECT ukprn, name, created_at FROM ${p} ORDER BY ukprn`);
    this.count = db.prepare(`SELECT COUNT(*) AS n FROM ${p}`);
  }

  /** The stored provider document of `ukprn`, or undefined. */
  private document(ukprn: string): ProviderDocument | undefined {
    const row = this.row.get(ukprn);
    if (!row) return undefined;
    const tokens = Object.fromEntries(this.tokenDocs.all(ukprn).map((t) => [t.token_id, t]));
    const { revision, state, ...record } = row;
    return { record, tokens, state: JSON.parse(state) as ProviderState, revision };
  }

  /** Folds the batch's provider events into the stored documents with the provider projection and stores the changed ones. */
  apply(events: RecordedEvent[]): void {
    const batch = decodeBatch(providerProjection, events);
    if (batch.keys.length === 0) return;
    const stored = new Map<string, ProviderDocument>();
    for (const ukprn of batch.keys) {
      const doc = this.document(ukprn);
      if (doc) stored.set(ukprn, doc);
    }
    for (const { before, after } of foldBatch(providerProjection, batch, stored)) {
      for (const token of changedTokens(before, after)) this.upsertToken.run(token);
      this.upsertProvider.run({ ...after.record, revision: after.revision, state: JSON.stringify(after.state) });
    }
  }

  /** The tables of store `store` (what dropping it drops). */
  static tableNames(store: string): string[] {
    return [`tokens_${store}`, `providers_${store}`];
  }
}
