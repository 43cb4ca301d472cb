import type { ProviderCommand, ProviderRegistered, TokenIssued, TokenRevoked } from '../provider/provider';

/**
 * Literal provider events and commands for the provider decider's specifications: provider
 * 10000001 ("Example Teacher Training") registered, token K1 issued, then revoked. Builders take
 * overrides of any field.
 */

export const PROVIDER_UKPRN = '10000001';
export const PROVIDER_NAME = 'Example Teacher Training';
export const PROVIDER_REGISTERED_AT = '2026-01-02T09:00:00.000Z';
export const TOKEN_ISSUED_AT = '2026-01-02T09:05:00.000Z';
export const TOKEN_REVOKED_AT = '2026-06-30T17:00:00.000Z';
/** The instant the specs' provider commands run at. */
export const PROVIDER_NOW = '2026-11-22T10:00:00.000Z';
/** Token K1's hash: SHA-256 (hex) of `test_` followed by 64 zeros. */
export const TOKEN_HASH = '8b3ebb4e5033f43e87bf86b1d310a3899986f2a2ceda9173734022e237b163ce';

type IssueToken = Extract<ProviderCommand, { type: 'IssueToken' }>;
type RegisterProvider = Extract<ProviderCommand, { type: 'RegisterProvider' }>;
type RevokeToken = Extract<ProviderCommand, { type: 'RevokeToken' }>;

/** Provider 10000001 registered. */
export function providerRegistered(overrides: Partial<ProviderRegistered['data']> = {}): ProviderRegistered {
  return { type: 'ProviderRegistered', data: { ukprn: PROVIDER_UKPRN, name: PROVIDER_NAME, at: PROVIDER_REGISTERED_AT, ...overrides } };
}

/** Token K1 issued to provider 10000001. */
export function tokenIssued(overrides: Partial<TokenIssued['data']> = {}): TokenIssued {
  return {
    type: 'TokenIssued',
    data: { ukprn: PROVIDER_UKPRN, token_id: 'K1', token_hash: TOKEN_HASH, at: TOKEN_ISSUED_AT, ...overrides },
  };
}

/** Token K1 revoked. */
export function tokenRevoked(overrides: Partial<TokenRevoked['data']> = {}): TokenRevoked {
  return { type: 'TokenRevoked', data: { ukprn: PROVIDER_UKPRN, token_id: 'K1', at: TOKEN_REVOKED_AT, ...overrides } };
}

/** Registers provider 10000001 under its name, at PROVIDER_NOW. */
export function registerProvider(overrides: Partial<RegisterProvider> = {}): RegisterProvider {
  return { type: 'RegisterProvider', ukprn: PROVIDER_UKPRN, name: PROVIDER_NAME, now: PROVIDER_NOW, ...overrides };
}

/** Issues token K1 (hash {@link TOKEN_HASH}) to provider 10000001, at PROVIDER_NOW. */
export function issueToken(overrides: Partial<IssueToken> = {}): IssueToken {
  return { type: 'IssueToken', ukprn: PROVIDER_UKPRN, token_id: 'K1', token_hash: TOKEN_HASH, now: PROVIDER_NOW, ...overrides };
}

/** Revokes token K1 of provider 10000001, at PROVIDER_NOW. */
export function revokeToken(overrides: Partial<RevokeToken> = {}): RevokeToken {
  return { type: 'RevokeToken', ukprn: PROVIDER_UKPRN, token_id: 'K1', now: PROVIDER_NOW, ...overrides };
}
