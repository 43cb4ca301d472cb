/**
 * The contract every data key store passes (libs/personal-data/data-key-store.port.ts):
 * one wrapped key per trainee, the first stored wins, an erased trainee stays erased and never gets
 * a key again, and another connection to the same storage sees the same.
 */
import { randomBytes } from 'node:crypto';
import type { DataKeyStore } from '@app/personal-data';

/** A store on fresh storage; `reopen` opens another one on the same storage (as another process would). */
export interface DataKeyStoreFixture {
  store: DataKeyStore;
  reopen(): Promise<DataKeyStore>;
  cleanup(): Promise<void>;
}

const AT = new Date('2026-11-26T10:00:00Z');

export function describeDataKeyStoreContract(name: string, open: () => Promise<DataKeyStoreFixture>): void {
  describe(`Data key store contract: ${name}`, () => {
    let fx: DataKeyStoreFixture;
    beforeEach(async () => {
      fx = await open();
    });
    afterEach(() => fx.cleanup());

    it('stores the first key offered for a trainee and gives it back to every later caller', async () => {
      const first = randomBytes(60);
      expect(await fx.store.get('T1')).toBeNull();
      expect(await fx.store.ensure('T1', first)).toEqual(first);
      expect(await fx.store.ensure('T1', randomBytes(60))).toEqual(first);
      expect(await fx.store.get('T1')).toEqual(first);
      expect(await fx.store.get('T2')).toBeNull();
      expect(await (await fx.reopen()).get('T1')).toEqual(first);
    });

    it('gives concurrent callers, on two connections, one and the same key', async () => {
      const other = await fx.reopen();
      const offered = Array.from({ length: 10 }, () => randomBytes(60));
      const got = await Promise.all(offered.map((k, i) => (i % 2 === 0 ? fx.store : other).ensure('T1', k)));
      expect(new Set(got.map((k) => (k as Buffer).toString('hex'))).size).toBe(1);
      expect(offered.map((k) => k.toString('hex'))).toContain((got[0] as Buffer).toString('hex'));
    });

    it('destroys a key once; the trainee then stays erased and never gets a key again', async () => {
      await fx.store.ensure('T1', randomBytes(60));
      expect(await fx.store.destroy('T1', AT)).toBe(true);
      expect(await fx.store.get('T1')).toBe('erased');
      expect(await fx.store.ensure('T1', randomBytes(60))).toBe('erased');
      expect(await fx.store.destroy('T1', AT)).toBe(false);
      expect(await (await fx.reopen()).get('T1')).toBe('erased');
    });

    it('stores a pool of reserved keys in one write, each readable at once and by another connection', async () => {
      const entries = Array.from({ length: 5 }, (_, i) => ({ traineeId: `R${i}`, wrapped: randomBytes(60) }));
      await fx.store.reserve(entries);
      const other = await fx.reopen();
      for (const e of entries) {
        expect(await fx.store.get(e.traineeId)).toEqual(e.wrapped);
        expect(await other.get(e.traineeId)).toEqual(e.wrapped);
      }
      expect(await fx.store.ensure('R0', randomBytes(60))).toEqual(entries[0].wrapped);
    });

    it('refuses to reserve an id that already has a row, and leaves that row as it was', async () => {
      const first = randomBytes(60);
      await fx.store.ensure('T1', first);
      // The rejection is the driver's own error (on SQLite of the realm that first loaded the native module): any will do.
      const refused = await fx.store.reserve([{ traineeId: 'T1', wrapped: randomBytes(60) }]).then(
        () => 'stored',
        () => 'refused',
      );
      expect(refused).toBe('refused');
      expect(await fx.store.get('T1')).toEqual(first);
    });

    it('stores none of a reserved batch when one of its ids already has a row', async () => {
      const first = randomBytes(60);
      await fx.store.ensure('T1', first);
      const batch = ['R1', 'R2', 'T1', 'R3'].map((traineeId) => ({ traineeId, wrapped: randomBytes(60) }));
      const refused = await fx.store.reserve(batch).then(
        () => 'stored',
        () => 'refused',
      );
      expect(refused).toBe('refused');
      for (const id of ['R1', 'R2', 'R3']) expect(await fx.store.get(id)).toBeNull();
      expect(await fx.store.get('T1')).toEqual(first);
    });

    it('lists the keys held, erased ones left out, in trainee id order, a batch at a time', async () => {
      const held = ['K3', 'K1', 'K5', 'K2'].map((traineeId) => ({ traineeId, wrapped: randomBytes(65) }));
      await fx.store.reserve(held);
      await fx.store.ensure('K4', randomBytes(65));
      await fx.store.destroy('K4', AT);
      const first = await fx.store.wrappedAfter(null, 2);
      expect(first.map((r) => r.traineeId)).toEqual(['K1', 'K2']);
      expect(first[0].wrapped).toEqual(held[1].wrapped);
      const rest = await (await fx.reopen()).wrappedAfter('K2', 10);
      expect(rest.map((r) => r.traineeId)).toEqual(['K3', 'K5']);
      expect(await fx.store.wrappedAfter('K5', 10)).toEqual([]);
    });

    it('replaces a key only while it is still the one expected: an erased or changed key is left as it is', async () => {
      const first = randomBytes(65);
      const second = randomBytes(65);
      await fx.store.ensure('T1', first);
      expect(await fx.store.replace('T1', randomBytes(65), second)).toBe(false);
      expect(await fx.store.get('T1')).toEqual(first);
      expect(await fx.store.replace('T1', first, second)).toBe(true);
      expect(await (await fx.reopen()).get('T1')).toEqual(second);
      expect(await fx.store.replace('T1', first, randomBytes(65))).toBe(false);
      await fx.store.destroy('T1', AT);
      expect(await fx.store.replace('T1', second, randomBytes(65))).toBe(false);
      expect(await fx.store.get('T1')).toBe('erased');
      expect(await fx.store.replace('T9', first, second)).toBe(false);
      expect(await fx.store.get('T9')).toBeNull();
    });

    it('tells every connection which trainees were erased since its mark, within a second', async () => {
      const other = await fx.reopen();
      await fx.store.ensure('T1', randomBytes(60));
      await fx.store.ensure('T2', randomBytes(60));
      const start = await fx.store.erasedSince(null);
      expect(start.traineeIds).toEqual([]);
      expect(await other.destroy('T1', AT)).toBe(true);
      const named = new Set<string>();
      let mark = start.mark;
      for (const until = Date.now() + 2000; !named.has('T1') && Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
        const told = await fx.store.erasedSince(mark);
        told.traineeIds.forEach((id) => named.add(id));
        mark = told.mark;
      }
      expect([...named]).toEqual(['T1']);
    });

    it('keeps a trainee erased before it had a key as erased', async () => {
      expect(await fx.store.destroy('T9', AT)).toBe(false);
      expect(await fx.store.ensure('T9', randomBytes(60))).toBe('erased');
      expect(await fx.store.get('T9')).toBe('erased');
    });
  });
}
