import type { Database } from '@app/sqlite';
import type { NamedClaim, RegistrationClaim, RegistrationReservation } from '@app/trainees/write';

/**
 * The registration reservations' tables in the key store's file (docs/DESIGN.md property 3):
 * `registration_reservations` (name, version) and `registration_claims` (name, trainee id, when),
 * on the caller's connection, whose `secure_delete` zeroes what an erasure deletes. Each call is
 * one statement or runs inside a transaction of its own or its caller's.
 */
export class ReservationTables {
  private readonly stmts;

  /** Creates the tables on `db` when needed. */
  constructor(private readonly db: Database.Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS registration_reservations (
        name TEXT PRIMARY KEY, version INTEGER NOT NULL) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS registration_claims (
        name TEXT NOT NULL, trainee_id TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (name, trainee_id)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS registration_claims_by_trainee ON registration_claims (trainee_id);
      CREATE INDEX IF NOT EXISTS registration_claims_by_time ON registration_claims (at);`);
    this.stmts = {
      version: db.prepare<[string], number>(`SELECT version FROM registration_reservations WHERE name = ?`).pluck(),
      claims: db.prepare<[string], RegistrationClaim>(
        `SELECT trainee_id, at FROM registration_claims WHERE name = ? ORDER BY at, trainee_id`,
      ),
      setVersion: db.prepare(
        `INSERT INTO registration_reservations (name, version) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET version = excluded.version`,
      ),
      dropClaims: db.prepare(`DELETE FROM registration_claims WHERE name = ?`),
      addClaim: db.prepare(`INSERT INTO registration_claims (name, trainee_id, at) VALUES (?, ?, ?)`),
      namesOf: db.prepare<[string], string>(`SELECT name FROM registration_claims WHERE trainee_id = ?`).pluck(),
      dropClaimsOf: db.prepare(`DELETE FROM registration_claims WHERE trainee_id = ?`),
      dropClaim: db.prepare(`DELETE FROM registration_claims WHERE name = ? AND trainee_id = ?`),
      madeBefore: db.prepare<[string, number], NamedClaim>(
        `SELECT name, trainee_id, at FROM registration_claims WHERE at < ? ORDER BY at, name, trainee_id LIMIT ?`,
      ),
      anyClaim: db.prepare<[string], number>(`SELECT 1 FROM registration_claims WHERE name = ? LIMIT 1`).pluck(),
      dropReservation: db.prepare(`DELETE FROM registration_reservations WHERE name = ?`),
      bump: db.prepare(`UPDATE registration_reservations SET version = version + 1 WHERE name = ?`),
    };
  }

  /** The reservation named `name`, read in one transaction; version 0 and no claims when there is none. */
  read(name: string): RegistrationReservation {
    return this.db.transaction(() => ({ claims: this.stmts.claims.all(name), version: this.stmts.version.get(name) ?? 0 }))();
  }

  /** `RegistrationReservations.writeReservation`, in one immediate transaction. */
  write(name: string, version: number, claims: readonly RegistrationClaim[]): boolean {
    return this.db
      .transaction(() => {
        if ((this.stmts.version.get(name) ?? 0) !== version) return false;
        this.stmts.setVersion.run(name, version + 1);
        this.stmts.dropClaims.run(name);
        for (const c of claims) this.stmts.addClaim.run(name, c.trainee_id, c.at);
        return true;
      })
      .immediate();
  }

  /** `RegistrationReservations.claimsMadeBefore`. */
  madeBefore(at: string, limit: number): NamedClaim[] {
    return this.stmts.madeBefore.all(at, limit);
  }

  /** `RegistrationReservations.releaseClaims`, in one immediate transaction (one sync of the file). */
  release(claims: readonly NamedClaim[]): void {
    this.db
      .transaction(() => {
        for (const { name, trainee_id } of claims) {
          if (this.stmts.dropClaim.run(name, trainee_id).changes === 0) continue;
          if (this.stmts.anyClaim.get(name) === undefined) this.stmts.dropReservation.run(name);
          else this.stmts.bump.run(name);
        }
      })
      .immediate();
  }

  /**
   * Deletes `traineeId`'s claims, and each reservation they leave with none (the others get a
   * higher version); true when there were any. Run inside the erasure's transaction.
   */
  forgetTrainee(traineeId: string): boolean {
    const names = this.stmts.namesOf.all(traineeId);
    if (names.length === 0) return false;
    this.stmts.dropClaimsOf.run(traineeId);
    for (const name of names) {
      if (this.stmts.anyClaim.get(name) === undefined) this.stmts.dropReservation.run(name);
      else this.stmts.bump.run(name);
    }
    return true;
  }
}
