/**
 * The contract every registration reservation store passes (libs/trainees/write/registration-reservations.port.ts;
 * docs/DESIGN.md property 3): a compare-and-set on the version read, so of concurrent writers of one
 * version exactly one wins, across connections; and the key store's `destroy` deletes the erased
 * trainee's claims with its key, and a reservation left with none; claims are listed by the time
 * they were made, and a released claim leaves its reservation with a higher version, or gone.
 */
import { randomBytes } from 'node:crypto';
import type { DataKeyStore } from '@app/personal-data';
import type { RegistrationReservations } from '@app/trainees/write';

/** A key store that keeps the reservations. */
export type ReservingKeyStore = DataKeyStore & RegistrationReservations;

/** A store on fresh storage; `reopen` opens another one on the same storage (as another process would). */
export interface ReservationsFixture {
  store: ReservingKeyStore;
  reopen(): Promise<ReservingKeyStore>;
  cleanup(): Promise<void>;
}

const AT = '2026-11-26T10:00:00.000Z';
const LATER = '2026-11-26T10:00:05.000Z';

export function describeRegistrationReservationsContract(name: string, open: () => Promise<ReservationsFixture>): void {
  describe(`Registration reservations contract: ${name}`, () => {
    let fx: ReservationsFixture;
    beforeEach(async () => {
      fx = await open();
    });
    afterEach(() => fx.cleanup());

    it('reads a reservation never written as none (version 0), and one written as written, from another connection too', async () => {
      expect(await fx.store.readReservation('g1')).toEqual({ claims: [], version: 0 });
      expect(await fx.store.writeReservation('g1', 0, [{ trainee_id: 'T1', at: AT }])).toBe(true);
      const first = await fx.store.readReservation('g1');
      expect(first.claims).toEqual([{ trainee_id: 'T1', at: AT }]);
      expect(first.version).toBeGreaterThan(0);
      const claims = [
        { trainee_id: 'T1', at: AT },
        { trainee_id: 'T2', at: LATER },
      ];
      expect(await fx.store.writeReservation('g1', first.version, claims)).toBe(true);
      const second = await (await fx.reopen()).readReservation('g1');
      expect(second.claims).toEqual(claims);
      expect(second.version).toBeGreaterThan(first.version);
      expect(await fx.store.readReservation('g2')).toEqual({ claims: [], version: 0 });
    });

    it('refuses a write of a version that is no longer the reservation’s, and leaves it as it was', async () => {
      expect(await fx.store.writeReservation('g1', 0, [{ trainee_id: 'T1', at: AT }])).toBe(true);
      expect(await fx.store.writeReservation('g1', 0, [{ trainee_id: 'T2', at: AT }])).toBe(false);
      const read = await fx.store.readReservation('g1');
      expect(await fx.store.writeReservation('g1', read.version + 1, [{ trainee_id: 'T3', at: AT }])).toBe(false);
      expect(await fx.store.readReservation('g1')).toEqual(read);
      expect(read.claims).toEqual([{ trainee_id: 'T1', at: AT }]);
    });

    it('lets exactly one of concurrent writers of one version through, on two connections', async () => {
      const other = await fx.reopen();
      for (const version of [0, 1]) {
        const { version: read } = await fx.store.readReservation('g1');
        expect(read === 0 || version === 1).toBe(true);
        const written = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            (i % 2 === 0 ? fx.store : other).writeReservation('g1', read, [{ trainee_id: `T${version}-${i}`, at: AT }]),
          ),
        );
        expect(written.filter((w) => w)).toHaveLength(1);
        const winner = written.indexOf(true);
        expect((await other.readReservation('g1')).claims).toEqual([{ trainee_id: `T${version}-${winner}`, at: AT }]);
      }
    });

    it('refuses a reservation with no claim', async () => {
      await expect(fx.store.writeReservation('g1', 0, [])).rejects.toThrow(RangeError);
      expect(await fx.store.readReservation('g1')).toEqual({ claims: [], version: 0 });
    });

    it('deletes an erased trainee’s claims with its key, and a reservation left with none; a write of the version read before fails', async () => {
      await fx.store.ensure('T1', randomBytes(60));
      expect(await fx.store.writeReservation('alone', 0, [{ trainee_id: 'T1', at: AT }])).toBe(true);
      expect(await fx.store.writeReservation('shared', 0, [{ trainee_id: 'T1', at: AT }])).toBe(true);
      const shared = await fx.store.readReservation('shared');
      const both = [
        { trainee_id: 'T1', at: AT },
        { trainee_id: 'T2', at: LATER },
      ];
      expect(await fx.store.writeReservation('shared', shared.version, both)).toBe(true);
      const before = await fx.store.readReservation('shared');

      expect(await fx.store.destroy('T1', new Date(AT))).toBe(true);
      const other = await fx.reopen();
      expect(await other.readReservation('alone')).toEqual({ claims: [], version: 0 });
      const after = await other.readReservation('shared');
      expect(after.claims).toEqual([{ trainee_id: 'T2', at: LATER }]);
      expect(await fx.store.writeReservation('shared', before.version, both)).toBe(false);
      expect(await fx.store.writeReservation('shared', after.version, [...after.claims, { trainee_id: 'T3', at: LATER }])).toBe(true);
      // A trainee erased again, or one with no claim, changes nothing.
      expect(await fx.store.destroy('T1', new Date(AT))).toBe(false);
      expect(await fx.store.destroy('T9', new Date(AT))).toBe(false);
      expect((await fx.store.readReservation('shared')).claims.map((c) => c.trainee_id)).toEqual(['T2', 'T3']);
    });

    it('lists the claims made before a time, oldest first, each with its reservation, at most as many as asked', async () => {
      const EARLY = '2026-11-26T09:00:00.000Z';
      expect(await fx.store.writeReservation('g1', 0, [{ trainee_id: 'T1', at: LATER }])).toBe(true);
      expect(
        await fx.store.writeReservation('g2', 0, [
          { trainee_id: 'T2', at: EARLY },
          { trainee_id: 'T3', at: AT },
        ]),
      ).toBe(true);
      const other = await fx.reopen();
      expect(await other.claimsMadeBefore(LATER, 10)).toEqual([
        { name: 'g2', trainee_id: 'T2', at: EARLY },
        { name: 'g2', trainee_id: 'T3', at: AT },
      ]);
      expect(await other.claimsMadeBefore(EARLY, 10)).toEqual([]);
      expect(await other.claimsMadeBefore('2026-11-27T00:00:00.000Z', 2)).toEqual([
        { name: 'g2', trainee_id: 'T2', at: EARLY },
        { name: 'g2', trainee_id: 'T3', at: AT },
      ]);
    });

    it('releases claims: a reservation keeps the others with a higher version, or is gone with its last', async () => {
      const both = [
        { trainee_id: 'T1', at: AT },
        { trainee_id: 'T2', at: LATER },
      ];
      expect(await fx.store.writeReservation('g1', 0, both)).toBe(true);
      const before = await fx.store.readReservation('g1');
      await fx.store.releaseClaims([{ name: 'g1', trainee_id: 'T1', at: AT }]);
      const other = await fx.reopen();
      const after = await other.readReservation('g1');
      expect(after.claims).toEqual([{ trainee_id: 'T2', at: LATER }]);
      expect(after.version).toBeGreaterThan(before.version);
      expect(await fx.store.writeReservation('g1', before.version, both)).toBe(false);
      await fx.store.releaseClaims([{ name: 'g1', trainee_id: 'T9', at: AT }]); // no such claim: nothing changes
      expect(await other.readReservation('g1')).toEqual(after);
      await fx.store.releaseClaims([{ name: 'g1', trainee_id: 'T2', at: AT }]);
      expect(await other.readReservation('g1')).toEqual({ claims: [], version: 0 });
      expect(await other.claimsMadeBefore('2026-11-27T00:00:00.000Z', 10)).toEqual([]);
      // Several claims of several reservations in one call.
      expect(await fx.store.writeReservation('g2', 0, both)).toBe(true);
      expect(await fx.store.writeReservation('g3', 0, [{ trainee_id: 'T3', at: AT }])).toBe(true);
      await fx.store.releaseClaims([
        { name: 'g2', trainee_id: 'T1', at: AT },
        { name: 'g3', trainee_id: 'T3', at: AT },
      ]);
      expect((await other.readReservation('g2')).claims).toEqual([{ trainee_id: 'T2', at: LATER }]);
      expect(await other.readReservation('g3')).toEqual({ claims: [], version: 0 });
    });
  });
}
