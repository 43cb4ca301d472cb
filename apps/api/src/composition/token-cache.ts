import { Inject, Injectable } from '@nestjs/common';
import { PROVIDER_READ_MODEL, type ProviderReadModel, type TokenRecord } from '@app/providers/read';

/** A token issued or revoked takes effect within a second (docs/operations.md "Providers and tokens"). */
export const TOKEN_CACHE_TTL_MS = 1_000;
/** Unknown tokens' hashes included; past it the cache starts again empty. */
export const TOKEN_CACHE_MAX_ENTRIES = 10_000;

interface Entry {
  record: TokenRecord | null;
  at: number;
}

/**
 * The token read model's `findTokenByHash` remembered briefly. The in-process projector {@link invalidate}s it on a provider event;
 * with an external projector a change is seen within the TTL. Expiry is checked per request (API-FACTS §2.4), so caching never lets an
 * expired token through.
 */
@Injectable()
export class CachedTokens implements Pick<ProviderReadModel, 'findTokenByHash'> {
  now: () => number = () => Date.now();
  private readonly entries = new Map<string, Entry>();

  constructor(@Inject(PROVIDER_READ_MODEL) private readonly providers: Pick<ProviderReadModel, 'findTokenByHash'>) {}

  /** From memory while fresh; null for none. */
  async findTokenByHash(tokenHash: string): Promise<TokenRecord | null> {
    const now = this.now();
    const kept = this.entries.get(tokenHash);
    if (kept && now - kept.at < TOKEN_CACHE_TTL_MS) return kept.record;
    const record = await this.providers.findTokenByHash(tokenHash);
    if (this.entries.size >= TOKEN_CACHE_MAX_ENTRIES) this.entries.clear();
    this.entries.set(tokenHash, { record, at: now });
    return record;
  }

  /** A provider stream changed. */
  invalidate(): void {
    this.entries.clear();
  }
}
