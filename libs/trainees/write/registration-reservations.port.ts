import { createHmac } from 'node:crypto';

/** One create's claim on a reservation: the trainee it was made for and when (ISO 8601, UTC). */
export interface RegistrationClaim {
  trainee_id: string;
  at: string;
}

/** A claim with the reservation it is on (`name`), as {@link RegistrationReservations.claimsMadeBefore} lists it. */
export interface NamedClaim extends RegistrationClaim {
  name: string;
}

/** A reservation as read: its claims, oldest first, and its version (0: there is none). */
export interface RegistrationReservation {
  claims: RegistrationClaim[];
  version: number;
}

/**
 * Where creates that could duplicate each other meet (docs/DESIGN.md "Other properties", property
 * 3): one reservation per duplicate-rule key, named by {@link keyedGuardNames}, holding the claims of
 * the trainees registered under that key, with a version for compare-and-set. It lives beside the
 * data keys, in a store whose rows are deleted (the SQLite key store, the MongoDB key store's
 * database), never in the append-only log: the key store's `destroy` deletes an erased trainee's
 * claims with its key (docs/DESIGN.md "Personal data"). Adapters: `SqliteDataKeyStore`,
 * `MongoDataKeyStore`.
 */
export interface RegistrationReservations {
  /** The reservation named `name`; `{ claims: [], version: 0 }` when there is none. */
  readReservation(name: string): Promise<RegistrationReservation>;
  /**
   * Replaces the claims of the reservation named `name` with `claims` when its version is still
   * `version` (0: when there is still none), giving it a higher version; true when written, false
   * when another write got there first (read it again). An empty `claims` is refused (RangeError).
   */
  writeReservation(name: string, version: number, claims: readonly RegistrationClaim[]): Promise<boolean>;
  /** At most `limit` claims made before `at` (ISO 8601, UTC), oldest first, each with its reservation's name. */
  claimsMadeBefore(at: string, limit: number): Promise<NamedClaim[]>;
  /**
   * Deletes each claim (a trainee's claim on the reservation `name`; `at` is not read), in one
   * write: each reservation gets a higher version, or is deleted when left with none
   * (`releaseSettledClaims`). A claim that is not there changes nothing.
   */
  releaseClaims(claims: readonly NamedClaim[]): Promise<void>;
}

/**
 * Reservation names that reveal nothing of the trainee (docs/DESIGN.md property 3): the first 40
 * hex digits of HMAC-SHA256(`key`, guard key). The guard key (`duplicateGuardKey`) holds the
 * provider, date of birth, route and last name; a plain hash of it would give them back to a
 * dictionary of surnames and birth dates. `key`: 32 bytes, the service key's `registration-guards`
 * key. Older logs named guard streams `registrationguard-` and the same digits.
 */
export function keyedGuardNames(key: Buffer): (guardKey: string) => string {
  return (guardKey) => createHmac('sha256', key).update(guardKey).digest('hex').slice(0, 40);
}

/**
 * Reservations in this process's memory (a test's, or a single process's without a key store):
 * the same compare-and-set as the stores' adapters.
 */
export class MemoryRegistrationReservations implements RegistrationReservations {
  private readonly rows = new Map<string, RegistrationReservation>();

  async readReservation(name: string): Promise<RegistrationReservation> {
    const row = this.rows.get(name);
    return row ? { claims: [...row.claims], version: row.version } : { claims: [], version: 0 };
  }

  async writeReservation(name: string, version: number, claims: readonly RegistrationClaim[]): Promise<boolean> {
    if (claims.length === 0) throw new RangeError('a reservation holds at least one claim');
    if ((this.rows.get(name)?.version ?? 0) !== version) return false;
    this.rows.set(name, { claims: [...claims], version: version + 1 });
    return true;
  }

  async claimsMadeBefore(at: string, limit: number): Promise<NamedClaim[]> {
    const claims = [...this.rows].flatMap(([name, row]) => row.claims.filter((c) => c.at < at).map((c) => ({ name, ...c })));
    return claims.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)).slice(0, limit);
  }

  async releaseClaims(released: readonly NamedClaim[]): Promise<void> {
    for (const { name, trainee_id } of released) {
      const row = this.rows.get(name);
      if (!row || !row.claims.some((c) => c.trainee_id === trainee_id)) continue;
      const claims = row.claims.filter((c) => c.trainee_id !== trainee_id);
      if (claims.length === 0) this.rows.delete(name);
      else this.rows.set(name, { claims, version: row.version + 1 });
    }
  }

  /** Deletes `traineeId`'s claims, and each reservation left with none (what an erasure does). */
  forgetTrainee(traineeId: string): void {
    for (const [name, row] of this.rows) {
      const claims = row.claims.filter((c) => c.trainee_id !== traineeId);
      if (claims.length === 0) this.rows.delete(name);
      else if (claims.length < row.claims.length) this.rows.set(name, { claims, version: row.version + 1 });
    }
  }
}
