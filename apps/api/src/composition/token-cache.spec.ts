import type { TokenRecord } from '@app/providers/read';
import { CachedTokens, TOKEN_CACHE_MAX_ENTRIES, TOKEN_CACHE_TTL_MS } from './token-cache';

const TOKEN: TokenRecord = {
  token_id: 'tok-1',
  ukprn: '10000001',
  status: 'active',
  issued_at: '2026-01-01T00:00:00.000Z',
  revoked_at: null,
  expires_at: '2026-06-01',
  last_used_at: null,
};

/** A token read model that counts its lookups and answers from a map the test changes. */
function store(records: Map<string, TokenRecord>) {
  const lookups: string[] = [];
  return {
    lookups,
    findTokenByHash: async (hash: string) => {
      lookups.push(hash);
      return records.get(hash) ?? null;
    },
  };
}

describe('CachedTokens', () => {
  it('asks the read model once per hash while the answer is fresh, again once it is not', async () => {
    const records = new Map([['h1', TOKEN]]);
    const s = store(records);
    const cache = new CachedTokens(s);
    let now = 1_000_000;
    cache.now = () => now;
    expect(await cache.findTokenByHash('h1')).toEqual(TOKEN);
    records.set('h1', { ...TOKEN, status: 'revoked' });
    now += TOKEN_CACHE_TTL_MS - 1;
    expect((await cache.findTokenByHash('h1'))?.status).toBe('active');
    expect(s.lookups).toEqual(['h1']);
    now += 1;
    expect((await cache.findTokenByHash('h1'))?.status).toBe('revoked');
    expect(s.lookups).toEqual(['h1', 'h1']);
  });

  it('keeps an unknown hash as unknown for the TTL, and forgets everything when invalidated', async () => {
    const records = new Map<string, TokenRecord>();
    const s = store(records);
    const cache = new CachedTokens(s);
    cache.now = () => 5;
    expect(await cache.findTokenByHash('h2')).toBeNull();
    records.set('h2', TOKEN);
    expect(await cache.findTokenByHash('h2')).toBeNull();
    cache.invalidate();
    expect(await cache.findTokenByHash('h2')).toEqual(TOKEN);
    expect(s.lookups).toEqual(['h2', 'h2']);
  });

  it(`holds at most ${TOKEN_CACHE_MAX_ENTRIES} hashes`, async () => {
    const s = store(new Map());
    const cache = new CachedTokens(s);
    cache.now = () => 5;
    for (let i = 0; i <= TOKEN_CACHE_MAX_ENTRIES; i++) await cache.findTokenByHash(`h${i}`);
    await cache.findTokenByHash('h0'); // dropped when the cache was full and started again
    expect(s.lookups.filter((h) => h === 'h0')).toHaveLength(2);
  });
});
