/**
 * The contract every store of the uploads page's sessions passes (libs/runtime/page-sessions; docs/DESIGN.md "The uploads page"): a
 * session found until it expires, updated and removed; the bounds per owner and in all, oldest first; and, for a store on shared
 * storage, a session added through one connection found through another (another process or replica).
 */
import type { PageSessionStore, StoredPageSession } from '@app/runtime/page-sessions';

/** A store on fresh storage; `reopen` opens another on the same storage (another process). */
export interface PageSessionStoreFixture {
  store: PageSessionStore;
  reopen(): Promise<PageSessionStore>;
  cleanup(): Promise<void>;
}

/** A time near now: a server's TTL monitor deletes nothing mid-test that the test expects held. */
const NOW = Date.now();
const HOUR = 3_600_000;

let made = 0;
const session = (owner: string, pool: StoredPageSession['pool'] = 'signed-in', expiresAt = NOW + HOUR): StoredPageSession => ({
  key: `key-${++made}`,
  pool,
  owner,
  data: JSON.stringify({ n: made }),
  startedAt: NOW,
  expiresAt,
});

export function describePageSessionStoreContract(name: string, open: () => Promise<PageSessionStoreFixture>): void {
  describe(`Page session store contract: ${name}`, () => {
    let fx: PageSessionStoreFixture;
    const held = async (list: StoredPageSession[]) => {
      const found = await Promise.all(list.map((s) => fx.store.find(s.key, NOW)));
      return found.filter((f) => f !== null).length;
    };
    beforeEach(async () => {
      fx = await open();
    });
    afterEach(() => fx.cleanup());

    it('finds a session as added until it expires; updates its data and expiry; removes it once', async () => {
      const s = session('10000001', 'signed-in', NOW + 1_000);
      await fx.store.add(s, { perOwner: 5, all: 10 }, NOW);
      expect(await fx.store.find(s.key, NOW)).toEqual(s);
      expect(await fx.store.find(s.key, NOW + 1_000)).toBeNull();
      expect(await fx.store.update(s.key, '{"later":true}', NOW + HOUR)).toBe(true);
      expect(await fx.store.find(s.key, NOW + 1_000)).toEqual({ ...s, data: '{"later":true}', expiresAt: NOW + HOUR });
      expect(await fx.store.remove(s.key)).toBe(true);
      expect(await fx.store.remove(s.key)).toBe(false);
      expect(await fx.store.find(s.key, NOW)).toBeNull();
      expect(await fx.store.update(s.key, '{}', NOW + HOUR)).toBe(false);
      expect(await fx.store.find('never-added', NOW)).toBeNull();
    });

    it('removes the expired and counts what each pool holds', async () => {
      await fx.store.add(session('10000001', 'signed-in', NOW - 1), { perOwner: 5, all: 10 }, NOW);
      const live = session('10000001');
      await fx.store.add(live, { perOwner: 5, all: 10 }, NOW);
      await fx.store.add(session('192.0.2.1', 'anonymous'), { perOwner: 5, all: 10 }, NOW);
      expect([await fx.store.count('signed-in'), await fx.store.count('anonymous')]).toEqual([2, 1]);
      expect(await fx.store.removeExpired(NOW)).toBe(1);
      expect([await fx.store.count('signed-in'), await fx.store.count('anonymous')]).toEqual([1, 1]);
      expect(await fx.store.find(live.key, NOW)).not.toBeNull();
    });

    it('an owner at its bound loses its own oldest, never another owner’s nor the other pool’s', async () => {
      const bounds = { perOwner: 3, all: 100 };
      const b = session('10000002');
      const form = session('10000001', 'anonymous');
      await fx.store.add(b, bounds, NOW);
      await fx.store.add(form, bounds, NOW);
      const a = [];
      for (let i = 0; i < 10; i++) {
        a.push(session('10000001'));
        await fx.store.add(a[i], bounds, NOW);
      }
      expect([await held(a.slice(-3)), await held(a.slice(0, -3)), await held([b, form])]).toEqual([3, 0, 2]);
    });

    it('a pool at its bound loses expired sessions first, then the oldest of the owner holding most, the newcomer’s on a tie', async () => {
      const bounds = { perOwner: 3, all: 5 };
      const add = async (owner: string, expiresAt?: number) => {
        const s = session(owner, 'signed-in', expiresAt);
        await fx.store.add(s, bounds, NOW);
        return s;
      };
      const old = await add('A', NOW - 1);
      const a = [await add('A'), await add('A')];
      const b = [await add('B'), await add('B')];
      const c = await add('C');
      expect([await held([old]), await held([...a, ...b, c])]).toEqual([0, 5]);
      // Nothing expired; A and B hold 2 each, C 1: the first of the largest, A, loses its oldest.
      const c2 = await add('C');
      expect([await held([a[0]]), await held([a[1]]), await held(b), await held([c, c2])]).toEqual([0, 1, 2, 2]);
      // B holds most alone: A's newcomer takes B's oldest.
      const a2 = await add('A');
      expect([await held([b[0]]), await held([b[1], a[1], a2]), await held([c, c2])]).toEqual([0, 3, 2]);
      // C ties with A: C's newcomer takes its own oldest.
      const c3 = await add('C');
      expect([await held([c]), await held([c2, c3]), await held([a[1], a2, b[1]])]).toEqual([0, 2, 3]);
      expect(await fx.store.count('signed-in')).toBe(5);
    });

    it('a session added through one connection is found, updated and removed through another', async () => {
      const other = await fx.reopen();
      const s = session('10000001');
      await fx.store.add(s, { perOwner: 5, all: 10 }, NOW);
      expect(await other.find(s.key, NOW)).toEqual(s);
      expect(await other.update(s.key, '{"there":1}', NOW + HOUR)).toBe(true);
      expect((await fx.store.find(s.key, NOW))?.data).toBe('{"there":1}');
      expect(await other.remove(s.key)).toBe(true);
      expect(await fx.store.find(s.key, NOW)).toBeNull();
    });
  });
}
