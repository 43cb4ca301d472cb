import { Inject, Injectable } from '@nestjs/common';
import { PROVIDER_READ_MODEL, type ProviderReadModel, type TokenRecord } from '@app/providers/read';

/**
 * How long a looked-up token is believed without asking the read model again, in ms: a token issued
 * or revoked takes effect within a second (docs/operations.md "Providers and tokens").
 */
export const TOKEN_CACHE_TTL_MS = 1_000;
/** Most tokens kept (hashes of unknown tokens included); past it the cache starts again empty. */
export const TOKEN_CACHE_MAX_ENTRIES = 10_000;

interface Entry {
  record: TokenRecord | null;
  at: number;
}

/**
 * The token read model's `findTokenByHash` with a short memory, so that a request does not look up
 * a token whose record cannot have changed since the last one: a token hash's record (or its
 * absence) is kept for {@link TOKEN_CACHE_TTL_MS} and at most {@link TOKEN_CACHE_MAX_ENTRIES} hashes. The in-process projector calls
 * {@link invalidate} when it applies an event of a provider stream (a token issued, revoked or
 * used), so a change made through this process's log is seen by the next request; a change the
 * API learns of only through the store (`PROJECTOR=external`) is seen within the TTL. Expiry is
 * checked on every request against the record (docs/reference/API-FACTS.md §2.4), so caching never
 * lets an expired token through. `now` is a field so that tests can set it.
 */
@Injectable()
export class CachedTokens implements Pick<ProviderReadModel, 'findTokenByHash'> {
  now: () => number = () => Date.now();
  private readonly entries = new Map<string, Entry>();

  constructor(@Inject(PROVIDER_READ_MODEL) private readonly providers: Pick<ProviderReadModel, 'findTokenByHash'>) {}

  /** The token whose SHA-256 hash (lower-case hex) is `tokenHash`, or null; from memory while fresh. */
  async findTokenByHash(tokenHash: string): Promise<TokenRecord | null> {
    const now = this.now();
    const kept = this.entries.get(tokenHash);
    if (kept && now - kept.at < TOKEN_CACHE_TTL_MS) return kept.record;
    const record = await this.providers.findTokenByHash(tokenHash);
    if (this.entries.size >= TOKEN_CACHE_MAX_ENTRIES) this.entries.clear();
    this.entries.set(tokenHash, { record, at: now });
    return record;
  }

  /** Forgets every kept token (a provider stream changed). */
  invalidate(): void {
    this.entries.clear();
  }
}
