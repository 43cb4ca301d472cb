import type { ProviderReadModel, ProviderRecord, TokenRecord } from '@app/providers/read';
import type { ReadStoreView } from './read-store-view';

/** The providers and their tokens (`ProviderReadModel`) on the served provider store of the embedded read store's `view`. */
export class SqliteProviderReads implements ProviderReadModel {
  constructor(private readonly view: ReadStoreView) {}

  /** The token whose SHA-256 hash (lower-case hex) is `tokenHash`, or null. */
  async findTokenByHash(tokenHash: string): Promise<TokenRecord | null> {
    return this.view.read((t) => t.providers.tokenByHash.get(tokenHash)) ?? null;
  }

  /** The token with this id, or null. */
  async getToken(tokenId: string): Promise<TokenRecord | null> {
    return this.view.read((t) => t.providers.tokenById.get(tokenId)) ?? null;
  }

  /** The provider's tokens, ordered by `issued_at` then token id. */
  async listTokens(ukprn: string): Promise<TokenRecord[]> {
    return this.view.read((t) => t.providers.tokensOf.all(ukprn));
  }

  /** The provider with this UKPRN, or null. */
  async getProvider(ukprn: string): Promise<ProviderRecord | null> {
    return this.view.read((t) => t.providers.provider.get(ukprn)) ?? null;
  }

  /** Every provider, ordered by UKPRN. */
  async listProviders(): Promise<ProviderRecord[]> {
    return this.view.read((t) => t.providers.providers.all());
  }
}
