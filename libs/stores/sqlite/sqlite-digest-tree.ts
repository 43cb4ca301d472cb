import { Database, makePrivateDirectory, openPrivateDatabase } from '@app/sqlite';
import { join } from 'node:path';
import {
  proofOf,
  type DigestTree,
  type DigestTreeStore,
  type DigestWithProof,
  type KeptHead,
  type SignedDigest,
  type HashedHead,
} from '@app/audit';

/** The file the latest digest's tree is kept in, in the data directory. */
export const AUDIT_FILE = 'audit.sqlite';

/** Rows per insert statement run while a tree is replaced (one transaction holds them all). */
const INSERTS_PER_CHUNK = 500;

interface HeadRow {
  stream_id: string;
  leaf_index: number;
  revision: number;
  hash: string;
}

/**
 * The latest signed digest's tree on SQLite (`DigestTreeStore`; docs/DESIGN.md "Inclusion
 * proofs"): `<DATA_DIR>/audit.sqlite`, a file of its own, so no projection rebuild or drop touches
 * it. Tables `digest` (one row: the digest's JSON), `digest_heads` (a row per stream head: its leaf
 * index, revision and hash) and `digest_nodes` (a row per complete subtree: level, index, hash).
 * A digest replaces all three in one transaction; a proof is read in one, so it never mixes two digests.
 */
export class SqliteDigestTreeStore implements DigestTreeStore {
  private readonly db: Database.Database;

  /** Opens (creating when needed) the store in the SQLite file `filename`. */
  constructor(filename: string) {
    this.db = openPrivateDatabase(filename);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS digest (id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS digest_heads (
        stream_id TEXT PRIMARY KEY, leaf_index INTEGER NOT NULL, revision INTEGER NOT NULL, hash TEXT NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS digest_nodes (
        level INTEGER NOT NULL, idx INTEGER NOT NULL, hash BLOB NOT NULL, PRIMARY KEY (level, idx)) WITHOUT ROWID;
    `);
  }

  /** Opens the store in `<dataDir>/audit.sqlite`, creating the directory when needed. */
  static open(dataDir: string): SqliteDigestTreeStore {
    makePrivateDirectory(dataDir);
    return new SqliteDigestTreeStore(join(dataDir, AUDIT_FILE));
  }

  async keep(digest: SignedDigest, tree: DigestTree): Promise<void> {
    const heads = tree.heads.map((h, i) => [h.streamId, i, h.revision, h.hash] as const);
    const nodes = tree.nodes.map((n) => [n.level, n.index, n.hash] as const);
    this.db.transaction(() => {
      this.db.exec('DELETE FROM digest; DELETE FROM digest_heads; DELETE FROM digest_nodes;');
      this.db.prepare('INSERT INTO digest (id, json) VALUES (1, ?)').run(JSON.stringify(digest));
      this.insertAll('INSERT INTO digest_heads (stream_id, leaf_index, revision, hash) VALUES ', '(?, ?, ?, ?)', heads);
      this.insertAll('INSERT INTO digest_nodes (level, idx, hash) VALUES ', '(?, ?, ?)', nodes);
    })();
  }

  /** Inserts `rows` with multi-row statements of {@link INSERTS_PER_CHUNK} rows. */
  private insertAll(head: string, one: string, rows: readonly (readonly unknown[])[]): void {
    const full = this.db.prepare(head + Array(INSERTS_PER_CHUNK).fill(one).join(', '));
    let i = 0;
    for (; i + INSERTS_PER_CHUNK <= rows.length; i += INSERTS_PER_CHUNK) full.run(rows.slice(i, i + INSERTS_PER_CHUNK).flat());
    const rest = rows.slice(i);
    if (rest.length > 0) this.db.prepare(head + rest.map(() => one).join(', ')).run(rest.flat());
  }

  async latest(streamId?: string): Promise<DigestWithProof | null> {
    return this.db.transaction((): DigestWithProof | null => {
      const row = this.db.prepare<[], { json: string }>('SELECT json FROM digest WHERE id = 1').get();
      if (!row) return null;
      const digest = JSON.parse(row.json) as SignedDigest;
      if (streamId === undefined) return { digest, inclusion: null };
      const found = this.db
        .prepare<[string], HeadRow>('SELECT stream_id, leaf_index, revision, hash FROM digest_heads WHERE stream_id = ?')
        .get(streamId);
      if (!found) return { digest, inclusion: null };
      const head: KeptHead = { streamId: found.stream_id, index: found.leaf_index, revision: found.revision, hash: found.hash };
      const node = this.db.prepare<[number, number], { hash: Buffer }>('SELECT hash FROM digest_nodes WHERE level = ? AND idx = ?');
      const lookup = (level: number, index: number): Buffer => {
        const n = node.get(level, index);
        if (!n) throw new Error(`the kept tree lacks the subtree at level ${level}, index ${index}`);
        return n.hash;
      };
      return { digest, inclusion: proofOf(digest, head, lookup) };
    })();
  }

  async heads(): Promise<HashedHead[]> {
    return this.db
      .prepare<[], HeadRow>('SELECT stream_id, leaf_index, revision, hash FROM digest_heads ORDER BY leaf_index')
      .all()
      .map((r) => ({ streamId: r.stream_id, revision: r.revision, hash: r.hash }));
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
