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
 * Where creates that could duplicate each other meet (docs/DESIGN.md "Registration reservations"): one reservation per duplicate key,
 * versioned for compare-and-set, in the key store, never in the log, so `destroy` deletes an erased trainee's claims with its key.
 */
export interface RegistrationReservations {
  /** The reservation named `name`; `{ claims: [], version: 0 }` when there is none. */
  readReservation(name: string): Promise<RegistrationReservation>;
  /** Compare-and-set on `version` (0: none yet); false when another write got there first. RangeError for empty `claims`. */
  writeReservation(name: string, version: number, claims: readonly RegistrationClaim[]): Promise<boolean>;
  /** At most `limit` claims made before `at` (ISO 8601, UTC), oldest first, each with its reservation's name. */
  claimsMadeBefore(at: string, limit: number): Promise<NamedClaim[]>;
  /** Deletes the claims (`at` not read) in one write; a reservation left with none is deleted. A claim not there changes nothing. */
  releaseClaims(claims: readonly NamedClaim[]): Promise<void>;
}

/**
 * Reservation names that reveal nothing of the trainee: the first 40 hex digits of HMAC-SHA256(`key`, guard key) (docs/DESIGN.md
 * "Registration reservations"). `key`: 32 bytes, the service key's `registration-guards` key.
 */
export function keyedGuardNames(key: Buffer): (guardKey: string) => string {
  return (guardKey) => createHmac('sha256', key).update(guardKey).digest('hex').slice(0, 40);
}

/** Reservations in memory (tests, a process without a key store), with the adapters' compare-and-set. */
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
