import type { ProviderCommand, ProviderRegistered, TokenIssued, TokenRevoked, TokenUsed } from '../provider';

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
/** The calendar day of PROVIDER_NOW (Europe/London). */
export const PROVIDER_TODAY = '2026-11-22';
/** Token K1's expiry date: six months after its issue (API-FACTS §2.6). */
export const TOKEN_EXPIRES_AT = '2026-07-02';
/** The expiry date the specs' IssueToken asks for: six months after PROVIDER_TODAY. */
export const ISSUE_EXPIRES_AT = '2027-05-22';
/** The instant and day K1's use is recorded in {@link tokenUsed}. */
export const TOKEN_USED_AT = '2026-03-04T08:30:00.000Z';
export const TOKEN_USED_ON = '2026-03-04';
/** Token K1's hash: SHA-256 (hex) of `test_` followed by 64 zeros. */
export const TOKEN_HASH = '8b3ebb4e5033f43e87bf86b1d310a3899986f2a2ceda9173734022e237b163ce';

type IssueToken = Extract<ProviderCommand, { type: 'IssueToken' }>;
type RegisterProvider = Extract<ProviderCommand, { type: 'RegisterProvider' }>;
type RevokeToken = Extract<ProviderCommand, { type: 'RevokeToken' }>;
type RecordTokenUse = Extract<ProviderCommand, { type: 'RecordTokenUse' }>;

/** Provider 10000001 registered. */
export function providerRegistered(overrides: Partial<ProviderRegistered['data']> = {}): ProviderRegistered {
  return { type: 'ProviderRegistered', data: { ukprn: PROVIDER_UKPRN, name: PROVIDER_NAME, at: PROVIDER_REGISTERED_AT, ...overrides } };
}

/** Token K1 issued to provider 10000001, expiring on TOKEN_EXPIRES_AT. */
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

/** Token K1 used on TOKEN_USED_ON. */
export function tokenUsed(overrides: Partial<TokenUsed['data']> = {}): TokenUsed {
  return { type: 'TokenUsed', data: { ukprn: PROVIDER_UKPRN, token_id: 'K1', on: TOKEN_USED_ON, at: TOKEN_USED_AT, ...overrides } };
}

/** Token K1 revoked. */
export function tokenRevoked(overrides: Partial<TokenRevoked['data']> = {}): TokenRevoked {
  return { type: 'TokenRevoked', data: { ukprn: PROVIDER_UKPRN, token_id: 'K1', at: TOKEN_REVOKED_AT, ...overrides } };
}

/** Registers provider 10000001 under its name, at PROVIDER_NOW. */
export function registerProvider(overrides: Partial<RegisterProvider> = {}): RegisterProvider {
  return { type: 'RegisterProvider', ukprn: PROVIDER_UKPRN, name: PROVIDER_NAME, now: PROVIDER_NOW, ...overrides };
}

/** Issues token K1 (hash {@link TOKEN_HASH}) to provider 10000001, at PROVIDER_NOW, expiring on ISSUE_EXPIRES_AT. */
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

/** Records a use of token K1 of provider 10000001 on PROVIDER_TODAY, at PROVIDER_NOW. */
export function recordTokenUse(overrides: Partial<RecordTokenUse> = {}): RecordTokenUse {
  return { type: 'RecordTokenUse', ukprn: PROVIDER_UKPRN, token_id: 'K1', on: PROVIDER_TODAY, now: PROVIDER_NOW, ...overrides };
}

/** Revokes token K1 of provider 10000001, at PROVIDER_NOW. */
export function revokeToken(overrides: Partial<RevokeToken> = {}): RevokeToken {
  return { type: 'RevokeToken', ukprn: PROVIDER_UKPRN, token_id: 'K1', now: PROVIDER_NOW, ...overrides };
}
