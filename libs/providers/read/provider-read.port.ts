export interface ProviderRecord {
  ukprn: string;
  name: string;
  created_at: string;
}

export interface TokenRecord {
  token_id: string;
  ukprn: string;
  status: 'active' | 'revoked';
  issued_at: string;
  revoked_at: string | null;
  /** Expiry date `YYYY-MM-DD` (API-FACTS §2.4, §2.6); null for a token issued before tokens expired: never expires. */
  expires_at: string | null;
  /** The instant of the latest recorded use (API-FACTS §2.7: recorded at most once a day), or null. */
  last_used_at: string | null;
}

/** Reads of the provider/token projection (authentication and the admin CLI). */
export interface ProviderReadModel {
  /** The token whose SHA-256 hash (lower-case hex) is `tokenHash`, or null. */
  findTokenByHash(tokenHash: string): Promise<TokenRecord | null>;
  getToken(tokenId: string): Promise<TokenRecord | null>;
  listTokens(ukprn: string): Promise<TokenRecord[]>;
  getProvider(ukprn: string): Promise<ProviderRecord | null>;
  listProviders(): Promise<ProviderRecord[]>;
}

/** Injection token of the {@link ProviderReadModel}. */
export const PROVIDER_READ_MODEL = Symbol('PROVIDER_READ_MODEL');
