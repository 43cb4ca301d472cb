import { Database, makePrivateDirectory, openPrivateDatabase } from '@app/sqlite';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { KeySource } from '@app/keys';
import { DataKeyNotForgotten, DataKeys, PersonalData, type DataKeyStore } from '@app/personal-data';
import { TRAINEE_PERSONAL_DATA } from '@app/trainees/decider';
import type { NamedClaim, RegistrationClaim, RegistrationReservation, RegistrationReservations } from '@app/trainees/write';
import { DataKeyWriter } from './data-key-writer';
import { ReservationTables } from './registration-reservation-tables';
import { FORGET_WAL_WITHIN_MS, truncateWalWithin } from './wal-truncation';

export const KEYS_FILE = 'keys.sqlite';

/**
 * Personal data sealed and opened with the keys of `<dataDir>/keys.sqlite` under `kek` (docs/DESIGN.md "Personal data"; read again as
 * the keyring changes where `kek.live` is), and that store, which the caller closes: for threads reading the log on their own, bulk loads.
 */
export function sqlitePersonalData(
  dataDir: string,
  kek: KeySource,
  options: { synchronous?: 'full' | 'normal' } = {},
): { personal: PersonalData; keyStore: SqliteDataKeyStore } {
  const keyStore = SqliteDataKeyStore.open(dataDir, { synchronous: options.synchronous });
  const keys = new DataKeys(keyStore, kek.keys, { keyring: kek.live ?? undefined });
  return { personal: new PersonalData(keys, TRAINEE_PERSONAL_DATA), keyStore };
}

export interface SqliteDataKeyStoreOptions {
  /** `normal`: bulk loads that make their file durable at the end (the bench's data set). */
  synchronous?: 'full' | 'normal';
  /** New keys stored from a thread of its own ({@link DataKeyWriter}), so the caller's (HTTP) thread never waits on their sync. */
  newKeysInThread?: boolean;
  /** Ms a destroy retries truncating a WAL a reader holds before it says so. */
  forgetWalWithinMs?: number;
}

interface Row {
  wrapped: Buffer | null;
}

/**
 * `DataKeyStore` on SQLite: `keys.sqlite`, apart from the log and read models, so no rebuild touches it; a row per trainee, the wrapped
 * key or NULL and the time once erased. `synchronous=FULL`: a key must outlive a crash as the events sealed with it do. A destroy is
 * zeroed by `secure_delete` and the WAL truncated after it, retried without blocking for `forgetWalWithinMs`, then `DataKeyNotForgotten`
 * (the erasure run again truncates it). Copies outside the file (backups, free blocks) are beyond it.
 */
export class SqliteDataKeyStore implements DataKeyStore, RegistrationReservations {
  private readonly db: Database.Database;
  private readonly stmts;
  private readonly reservations: ReservationTables;
  private readonly writer: DataKeyWriter | null;
  private readonly forgetWalWithinMs: number;
  /** `PRAGMA data_version` at the last `erasedSince`, and whether this connection destroyed a key since. */
  private seenDataVersion = -1;
  private erasedHere = false;

  /** Opens (creating) the key store in `filename`. */
  constructor(
    private readonly filename: string,
    options: SqliteDataKeyStoreOptions = {},
  ) {
    this.forgetWalWithinMs = options.forgetWalWithinMs ?? FORGET_WAL_WITHIN_MS;
    this.db = openPrivateDatabase(filename);
    try {
      this.db.pragma('journal_mode = WAL');
      this.db.pragma(`synchronous = ${options.synchronous === 'normal' ? 'NORMAL' : 'FULL'}`);
      this.db.pragma('secure_delete = ON');
      // The file is not mapped: each commit of the key writer's thread would unmap it for this connection's next read.
      this.db.exec(`CREATE TABLE IF NOT EXISTS data_keys (
        trainee_id TEXT PRIMARY KEY, wrapped BLOB, erased_at TEXT) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS erasures (seq INTEGER PRIMARY KEY AUTOINCREMENT, trainee_id TEXT NOT NULL)`);
      this.stmts = {
        insert: this.db.prepare(`INSERT OR IGNORE INTO data_keys (trainee_id, wrapped) VALUES (?, ?)`),
        reserve: this.db.prepare(`INSERT INTO data_keys (trainee_id, wrapped) VALUES (?, ?)`),
        get: this.db.prepare<[string], Row>(`SELECT wrapped FROM data_keys WHERE trainee_id = ?`),
        destroy: this.db.prepare(`UPDATE data_keys SET wrapped = NULL, erased_at = ? WHERE trainee_id = ? AND wrapped IS NOT NULL`),
        tombstone: this.db.prepare(`INSERT OR IGNORE INTO data_keys (trainee_id, wrapped, erased_at) VALUES (?, NULL, ?)`),
        after: this.db.prepare<[string, number], { trainee_id: string; wrapped: Buffer }>(
          `SELECT trainee_id, wrapped FROM data_keys WHERE trainee_id > ? AND wrapped IS NOT NULL ORDER BY trainee_id LIMIT ?`,
        ),
        replace: this.db.prepare(`UPDATE data_keys SET wrapped = ? WHERE trainee_id = ? AND wrapped = ?`),
        erased: this.db.prepare(`INSERT INTO erasures (trainee_id) VALUES (?)`),
        erasedAfter: this.db.prepare<[number], { seq: number; trainee_id: string }>(
          `SELECT seq, trainee_id FROM erasures WHERE seq > ? ORDER BY seq`,
        ),
        lastErasure: this.db.prepare<[], number>(`SELECT coalesce(max(seq), 0) FROM erasures`).pluck(),
        dataVersion: this.db.prepare<[], number>(`PRAGMA data_version`).pluck(),
      };
      this.reservations = new ReservationTables(this.db);
    } catch (err) {
      this.db.close();
      throw err;
    }
    this.writer = options.newKeysInThread ? new DataKeyWriter(filename) : null;
  }

  static open(dataDir: string, options: SqliteDataKeyStoreOptions = {}): SqliteDataKeyStore {
    makePrivateDirectory(dataDir);
    return new SqliteDataKeyStore(join(dataDir, KEYS_FILE), options);
  }

  async ensure(traineeId: string, wrapped: Buffer): Promise<Buffer | 'erased'> {
    if (this.writer) return this.writer.ensure(traineeId, wrapped);
    const row = this.db
      .transaction(() => {
        this.stmts.insert.run(traineeId, wrapped);
        return this.stmts.get.get(traineeId)!;
      })
      .immediate();
    return row.wrapped ?? 'erased';
  }

  async reserve(entries: ReadonlyArray<{ traineeId: string; wrapped: Buffer }>): Promise<void> {
    if (this.writer) return this.writer.reserve(entries);
    this.db
      .transaction(() => {
        for (const e of entries) this.stmts.reserve.run(e.traineeId, e.wrapped);
      })
      .immediate();
  }

  async get(traineeId: string): Promise<Buffer | null | 'erased'> {
    const row = this.stmts.get.get(traineeId);
    return row === undefined ? null : (row.wrapped ?? 'erased');
  }

  async destroy(traineeId: string, at: Date): Promise<boolean> {
    const when = at.toISOString();
    const destroyed = this.db
      .transaction(() => {
        const changed = this.stmts.destroy.run(when, traineeId).changes > 0;
        if (!changed) this.stmts.tombstone.run(traineeId, when);
        // Told to every process that keeps opened keys (`erasedSince`), again on a repeat: it costs a row.
        this.stmts.erased.run(traineeId);
        this.erasedHere = true;
        // Its registration claims go in the same write: none is left to name it or its guard key.
        const forgot = this.reservations.forgetTrainee(traineeId);
        return { changed, forgot };
      })
      .immediate();
    if (destroyed.changed || destroyed.forgot || this.walHoldsFrames()) await this.forgetWal(traineeId);
    return destroyed.changed;
  }

  /** `DataKeyStore.erasedSince`: `erasures` after `mark` (a sequence number), queried only once the file changed or this one destroyed. */
  async erasedSince(mark: number | null): Promise<{ mark: number; traineeIds: string[] }> {
    const version = this.stmts.dataVersion.get()!;
    if (mark !== null && version === this.seenDataVersion && !this.erasedHere) return { mark, traineeIds: [] };
    this.seenDataVersion = version;
    this.erasedHere = false;
    if (mark === null) return { mark: this.stmts.lastErasure.get()!, traineeIds: [] };
    const rows = this.stmts.erasedAfter.all(mark);
    return { mark: rows.length > 0 ? rows[rows.length - 1].seq : mark, traineeIds: rows.map((r) => r.trainee_id) };
  }

  async readReservation(name: string): Promise<RegistrationReservation> {
    return this.reservations.read(name);
  }

  async writeReservation(name: string, version: number, claims: readonly RegistrationClaim[]): Promise<boolean> {
    if (claims.length === 0) throw new RangeError('a reservation holds at least one claim');
    if (this.writer) return this.writer.writeReservation(name, version, claims);
    return this.reservations.write(name, version, claims);
  }

  async claimsMadeBefore(at: string, limit: number): Promise<NamedClaim[]> {
    return this.reservations.madeBefore(at, limit);
  }

  async releaseClaims(claims: readonly NamedClaim[]): Promise<void> {
    this.reservations.release(claims);
  }

  async wrappedAfter(after: string | null, limit: number): Promise<Array<{ traineeId: string; wrapped: Buffer }>> {
    return this.stmts.after.all(after ?? '', limit).map((r) => ({ traineeId: r.trainee_id, wrapped: r.wrapped }));
  }

  async replace(traineeId: string, expected: Buffer, wrapped: Buffer): Promise<boolean> {
    return this.stmts.replace.run(wrapped, traineeId, expected).changes > 0;
  }

  async close(): Promise<void> {
    await this.writer?.close();
    // Best effort: a reader still holding the WAL leaves it for the next open.
    this.db.pragma('wal_checkpoint(TRUNCATE)');
    this.db.close();
  }

  /** {@link DataKeyNotForgotten} naming `traineeId` when a reader still holds the WAL after `forgetWalWithinMs`. */
  private async forgetWal(traineeId: string): Promise<void> {
    if (await truncateWalWithin(this.db, this.forgetWalWithinMs)) return;
    throw new DataKeyNotForgotten(
      traineeId,
      `a reader held ${KEYS_FILE}'s WAL for ${this.forgetWalWithinMs} ms, so it may still hold the old key`,
    );
  }

  /** Any frame: a copy of a page, maybe of a destroyed key. */
  private walHoldsFrames(): boolean {
    return (statSync(`${this.filename}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 0;
  }
}
