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
  /** `YYYY-MM-DD` (API-FACTS §2.4); null for a token issued before tokens expired: it never expires. */
  expires_at: string | null;
  /** Recorded at most once a day (API-FACTS §2.7). */
  last_used_at: string | null;
}

/** Reads of the provider/token projection (authentication and the admin CLI). */
export interface ProviderReadModel {
  /** `tokenHash`: SHA-256, lower-case hex. */
  findTokenByHash(tokenHash: string): Promise<TokenRecord | null>;
  getToken(tokenId: string): Promise<TokenRecord | null>;
  listTokens(ukprn: string): Promise<TokenRecord[]>;
  getProvider(ukprn: string): Promise<ProviderRecord | null>;
  listProviders(): Promise<ProviderRecord[]>;
}

export const PROVIDER_READ_MODEL = Symbol('PROVIDER_READ_MODEL');
