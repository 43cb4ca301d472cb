/**
 * The contract every idempotency store passes (libs/runtime/idempotency/idempotency-store.port.ts;
 * docs/operations.md "Limits"): one claim per (token, key), the answer kept for 24 hours for the
 * same request only, claims freed on release or after their lease, entries kept per token. Time is
 * passed in, so expiry is tested without waiting.
 */
import { IDEMPOTENCY_CLAIM_LEASE_MS, IDEMPOTENCY_TTL_MS, type IdempotencyStore } from '@app/runtime/idempotency';

/** A store on fresh storage; `reopen` opens another one on the same storage (as another process would). */
export interface IdempotencyStoreFixture {
  store: IdempotencyStore;
  reopen(): Promise<IdempotencyStore>;
  cleanup(): Promise<void>;
}

/**
 * The tests' clock starts now (to the second), so every entry's expiry is in the future by the
 * server's clock too: a store whose server deletes expired entries by itself (MongoDB's TTL monitor,
 * every minute) never deletes one mid-test.
 */
const T0 = new Date(Math.floor(Date.now() / 1000) * 1000);
const at = (ms: number) => new Date(T0.getTime() + ms);
const answer = { status: 201, contentType: 'application/json; charset=utf-8', body: '{"data":{"placement_id":"x"}}' };

export function describeIdempotencyStoreContract(name: string, open: () => Promise<IdempotencyStoreFixture>): void {
  describe(`Idempotency store contract: ${name}`, () => {
    let fx: IdempotencyStoreFixture;
    beforeEach(async () => {
      fx = await open();
    });
    afterEach(() => fx.cleanup());

    async function claimed(store: IdempotencyStore, scope: string, key: string, fp: string, now = T0): Promise<string> {
      const c = await store.claim(scope, key, fp, now);
      if (c.outcome !== 'claimed') throw new Error(`expected a claim, got ${c.outcome}`);
      return c.claim;
    }

    it('replays the kept answer for the same request, refuses another request, and holds a running one', async () => {
      const claim = await claimed(fx.store, 'tok1', 'k1', 'fp1');
      expect(await fx.store.claim('tok1', 'k1', 'fp1', at(1))).toEqual({ outcome: 'in-progress' });
      expect(await fx.store.claim('tok1', 'k1', 'fp2', at(1))).toEqual({ outcome: 'mismatch' });
      await fx.store.complete('tok1', 'k1', claim, answer);
      expect(await fx.store.claim('tok1', 'k1', 'fp1', at(2))).toEqual({ outcome: 'replay', answer });
      expect(await fx.store.claim('tok1', 'k1', 'fp2', at(2))).toEqual({ outcome: 'mismatch' });
      const other = await fx.reopen();
      expect(await other.claim('tok1', 'k1', 'fp1', at(3))).toEqual({ outcome: 'replay', answer });
    });

    it('keeps keys per token: the same key of another token is free', async () => {
      const claim = await claimed(fx.store, 'tok1', 'k1', 'fp1');
      await fx.store.complete('tok1', 'k1', claim, answer);
      await claimed(fx.store, 'tok2', 'k1', 'fp2');
    });

    it('of concurrent claims of one key, exactly one wins (across connections)', async () => {
      const other = await fx.reopen();
      const outcomes = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? other : fx.store).claim('tok1', 'race', 'fp1', T0)));
      expect(outcomes.filter((o) => o.outcome === 'claimed')).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'in-progress')).toHaveLength(5);
    });

    it('a released claim frees the key; a release or completion by a lost claim changes nothing', async () => {
      const first = await claimed(fx.store, 'tok1', 'k1', 'fp1');
      await fx.store.release('tok1', 'k1', first);
      const second = await claimed(fx.store, 'tok1', 'k1', 'fp2', at(1));
      await fx.store.release('tok1', 'k1', first);
      await fx.store.complete('tok1', 'k1', first, { ...answer, status: 500 });
      expect(await fx.store.claim('tok1', 'k1', 'fp2', at(2))).toEqual({ outcome: 'in-progress' });
      await fx.store.complete('tok1', 'k1', second, answer);
      await fx.store.release('tok1', 'k1', second);
      expect(await fx.store.claim('tok1', 'k1', 'fp2', at(3))).toEqual({ outcome: 'replay', answer });
    });

    it('a claim without an answer holds its key for the lease only (a process that died mid-request)', async () => {
      await claimed(fx.store, 'tok1', 'k1', 'fp1');
      expect(await fx.store.claim('tok1', 'k1', 'fp1', at(IDEMPOTENCY_CLAIM_LEASE_MS - 1))).toEqual({ outcome: 'in-progress' });
      await claimed(fx.store, 'tok1', 'k1', 'fp1', at(IDEMPOTENCY_CLAIM_LEASE_MS));
    });

    it('keeps an answer for 24 hours: then the key is free again, and pruning deletes it', async () => {
      const claim = await claimed(fx.store, 'tok1', 'k1', 'fp1');
      await fx.store.complete('tok1', 'k1', claim, answer);
      const kept = await claimed(fx.store, 'tok1', 'k2', 'fp1');
      await fx.store.complete('tok1', 'k2', kept, answer);
      expect(await fx.store.claim('tok1', 'k1', 'fp1', at(IDEMPOTENCY_TTL_MS - 1))).toEqual({ outcome: 'replay', answer });
      await claimed(fx.store, 'tok1', 'k1', 'fp2', at(IDEMPOTENCY_TTL_MS));
      expect(await fx.store.prune(at(IDEMPOTENCY_TTL_MS))).toBe(1);
      expect(await fx.store.prune(at(IDEMPOTENCY_TTL_MS))).toBe(0);
      expect(await fx.store.claim('tok1', 'k1', 'fp2', at(IDEMPOTENCY_TTL_MS + 1))).toEqual({ outcome: 'in-progress' });
    });

    it('forget deletes every kept answer whose body holds the text, taken literally, on every token', async () => {
      const held = { ...answer, body: '{"data":{"last_name":"O.Neil(x)"}}' };
      const lookalike = { ...answer, body: '{"data":{"last_name":"OxNeilx"}}' };
      for (const [scope, key, kept] of [
        ['tok1', 'k1', held],
        ['tok2', 'k1', held],
        ['tok1', 'k2', lookalike],
      ] as const) {
        await fx.store.complete(scope, key, await claimed(fx.store, scope, key, 'fp1'), kept);
      }
      expect(await fx.store.forget('O.Neil(x)')).toBe(2);
      await claimed(fx.store, 'tok1', 'k1', 'fp1', at(1));
      await claimed(await fx.reopen(), 'tok2', 'k1', 'fp1', at(1));
      expect(await fx.store.claim('tok1', 'k2', 'fp1', at(1))).toEqual({ outcome: 'replay', answer: lookalike });
      expect(await fx.store.forget('O.Neil(x)')).toBe(0);
    });
  });
}
