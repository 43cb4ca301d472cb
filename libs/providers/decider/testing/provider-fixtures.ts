import type { ProviderCommand, ProviderRegistered, TokenIssued, TokenRevoked, TokenUsed } from '../provider';

/** Provider 10000001 registered, token K1 issued, then revoked; builders take overrides of any field. */

export const PROVIDER_UKPRN = '10000001';
export const PROVIDER_NAME = 'Example Teacher Training';
export const PROVIDER_REGISTERED_AT = '2026-01-02T09:00:00.000Z';
export const TOKEN_ISSUED_AT = '2026-01-02T09:05:00.000Z';
export const TOKEN_REVOKED_AT = '2026-06-30T17:00:00.000Z';
export const PROVIDER_NOW = '2026-11-22T10:00:00.000Z';
/** PROVIDER_NOW's day in Europe/London. */
export const PROVIDER_TODAY = '2026-11-22';
/** Six months after K1's issue (API-FACTS §2.6). */
export const TOKEN_EXPIRES_AT = '2026-07-02';
/** Six months after PROVIDER_TODAY. */
export const ISSUE_EXPIRES_AT = '2027-05-22';
export const TOKEN_USED_AT = '2026-03-04T08:30:00.000Z';
export const TOKEN_USED_ON = '2026-03-04';
/** SHA-256 (hex) of `test_` followed by 64 zeros. */
export const TOKEN_HASH = '8b3ebb4e5033f43e87bf86b1d310a3899986f2a2ceda9173734022e237b163ce';

type IssueToken = Extract<ProviderCommand, { type: 'IssueToken' }>;
type RegisterProvider = Extract<ProviderCommand, { type: 'RegisterProvider' }>;
type RevokeToken = Extract<ProviderCommand, { type: 'RevokeToken' }>;
type RecordTokenUse = Extract<ProviderCommand, { type: 'RecordTokenUse' }>;

export function providerRegistered(overrides: Partial<ProviderRegistered['data']> = {}): ProviderRegistered {
  return { type: 'ProviderRegistered', data: { ukprn: PROVIDER_UKPRN, name: PROVIDER_NAME, at: PROVIDER_REGISTERED_AT, ...overrides } };
}

export function tokenIssued(overrides: Partial<TokenIssued['data']> = {}): TokenIssued {
  return {
    type: 'TokenIssued',
    data: {
      ukprn: PROVIDER_UKPRN,
      token_id: 'K1',
      token_hash: TOKEN_HASH,
      expires_at: TOKEN_EXPIRES_AT,
      at: TOKEN_ISSUED_AT,
      ...overrides,
    },
  };
}

export function tokenUsed(overrides: Partial<TokenUsed['data']> = {}): TokenUsed {
  return { type: 'TokenUsed', data: { ukprn: PROVIDER_UKPRN, token_id: 'K1', on: TOKEN_USED_ON, at: TOKEN_USED_AT, ...overrides } };
}

export function tokenRevoked(overrides: Partial<TokenRevoked['data']> = {}): TokenRevoked {
  return { type: 'TokenRevoked', data: { ukprn: PROVIDER_UKPRN, token_id: 'K1', at: TOKEN_REVOKED_AT, ...overrides } };
}

export function registerProvider(overrides: Partial<RegisterProvider> = {}): RegisterProvider {
  return { type: 'RegisterProvider', ukprn: PROVIDER_UKPRN, name: PROVIDER_NAME, now: PROVIDER_NOW, ...overrides };
}

export function issueToken(overrides: Partial<IssueToken> = {}): IssueToken {
  return {
    type: 'IssueToken',
    ukprn: PROVIDER_UKPRN,
    token_id: 'K1',
    token_hash: TOKEN_HASH,
    expires_at: ISSUE_EXPIRES_AT,
    today: PROVIDER_TODAY,
    now: PROVIDER_NOW,
    ...overrides,
  };
}

export function recordTokenUse(overrides: Partial<RecordTokenUse> = {}): RecordTokenUse {
  return { type: 'RecordTokenUse', ukprn: PROVIDER_UKPRN, token_id: 'K1', on: PROVIDER_TODAY, now: PROVIDER_NOW, ...overrides };
}

export function revokeToken(overrides: Partial<RevokeToken> = {}): RevokeToken {
  return { type: 'RevokeToken', ukprn: PROVIDER_UKPRN, token_id: 'K1', now: PROVIDER_NOW, ...overrides };
}
