import { addMonths, parseIsoDate } from '@app/calendar';
import { DomainError, registerEventSchemas } from '@app/event-sourcing';

/** Providers and their API tokens in `provider-<ukprn>` streams; the token rules are docs/reference/API-FACTS.md §2. */
export interface ProviderRegistered {
  type: 'ProviderRegistered';
  data: { ukprn: string; name: string; at: string };
}
/** `expires_at` `YYYY-MM-DD`; null in upcast v1 events: a token that never expires (docs/DESIGN.md "Tokens"). */
export interface TokenIssued {
  type: 'TokenIssued';
  data: { ukprn: string; token_id: string; token_hash: string; expires_at: string | null; at: string };
}
export interface TokenRevoked {
  type: 'TokenRevoked';
  data: { ukprn: string; token_id: string; at: string };
}
/** On calendar day `on` (Europe/London), at instant `at` (API-FACTS §2.7). */
export interface TokenUsed {
  type: 'TokenUsed';
  data: { ukprn: string; token_id: string; on: string; at: string };
}
export type ProviderEvent = ProviderRegistered | TokenIssued | TokenRevoked | TokenUsed;
export type ProviderEventType = ProviderEvent['type'];

export const PROVIDER_EVENT_SCHEMA_VERSIONS: Record<ProviderEventType, number> = {
  ProviderRegistered: 1,
  TokenIssued: 2,
  TokenRevoked: 1,
  TokenUsed: 1,
};
registerEventSchemas(PROVIDER_EVENT_SCHEMA_VERSIONS);
export const PROVIDER_STREAM_PREFIX = 'provider-';

export function providerStreamId(ukprn: string): string {
  return `${PROVIDER_STREAM_PREFIX}${ukprn}`;
}

export function isProviderEventType(type: string): type is ProviderEventType {
  return Object.prototype.hasOwnProperty.call(PROVIDER_EVENT_SCHEMA_VERSIONS, type);
}

export type TokenStatus = 'active' | 'revoked';

export interface ProviderState {
  exists: boolean;
  ukprn: string | null;
  name: string | null;
  tokens: Record<string, TokenStatus>;
  /** The last day (`YYYY-MM-DD`) each token's use was recorded. */
  tokens_used_on?: Record<string, string>;
}

export const initialProviderState: ProviderState = { exists: false, ukprn: null, name: null, tokens: {} };

export type ProviderCommand =
  | { type: 'RegisterProvider'; ukprn: string; name: string; now: string }
  | { type: 'IssueToken'; ukprn: string; token_id: string; token_hash: string; expires_at: string; today: string; now: string }
  | { type: 'RevokeToken'; ukprn: string; token_id: string; now: string }
  | { type: 'RecordTokenUse'; ukprn: string; token_id: string; on: string; now: string };

/** API-FACTS §2.6. */
export const TOKEN_MAX_LIFETIME_MONTHS = 6;

/** The message is for the operator's terminal. */
export class ProviderCommandRejected extends DomainError {
  readonly kind = 'ProviderCommandRejected';
}

/** UK provider reference number: eight digits. */
export function isValidUkprn(ukprn: string): boolean {
  return /^\d{8}$/.test(ukprn);
}

/** Six months after `today` (API-FACTS §2.6). */
export function defaultTokenExpiry(today: string): string {
  return addMonths(today, TOKEN_MAX_LIFETIME_MONTHS);
}

/** Active, and expiring after `today` or never (API-FACTS §2.4: a token whose expiry equals today is already invalid). */
export function tokenAuthenticates(token: { status: string; expires_at: string | null }, today: string): boolean {
  return token.status === 'active' && (token.expires_at === null || token.expires_at > today);
}

export function evolveProvider(state: ProviderState, event: ProviderEvent): ProviderState {
  switch (event.type) {
    case 'ProviderRegistered':
      return { ...state, exists: true, ukprn: event.data.ukprn, name: event.data.name };
    case 'TokenIssued':
      return { ...state, tokens: { ...state.tokens, [event.data.token_id]: 'active' } };
    case 'TokenRevoked':
      return { ...state, tokens: { ...state.tokens, [event.data.token_id]: 'revoked' } };
    case 'TokenUsed': {
      const last = state.tokens_used_on?.[event.data.token_id];
      if (last !== undefined && last >= event.data.on) return state;
      return { ...state, tokens_used_on: { ...state.tokens_used_on, [event.data.token_id]: event.data.on } };
    }
  }
}

/** After `today`, at most six months ahead (API-FACTS §2.6). */
function checkExpiry(expiresAt: string, today: string): void {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(expiresAt) || parseIsoDate(expiresAt) !== expiresAt) {
    throw new ProviderCommandRejected(`Expiry date must be a date YYYY-MM-DD, got '${expiresAt.slice(0, 40)}'`);
  }
  if (expiresAt <= today) throw new ProviderCommandRejected(`Expiry date must be after today (${today}), got ${expiresAt}`);
  const latest = defaultTokenExpiry(today);
  if (expiresAt > latest) {
    throw new ProviderCommandRejected(
      `Expiry date must be at most ${TOKEN_MAX_LIFETIME_MONTHS} months ahead (${latest}), got ${expiresAt}`,
    );
  }
}

/** None when the token is not active or a use on that day or later is recorded. */
function recordTokenUse(command: Extract<ProviderCommand, { type: 'RecordTokenUse' }>, state: ProviderState): ProviderEvent[] {
  if (state.tokens[command.token_id] !== 'active') return [];
  const last = state.tokens_used_on?.[command.token_id];
  if (last !== undefined && last >= command.on) return [];
  return [{ type: 'TokenUsed', data: { ukprn: command.ukprn, token_id: command.token_id, on: command.on, at: command.now } }];
}

/**
 * Throws {@link ProviderCommandRejected} for a bad UKPRN or name, a duplicate or unknown provider, a bad expiry, an unknown or revoked
 * token. `RecordTokenUse` never throws: no event for an unknown or revoked token or a day already recorded (API-FACTS §2.7).
 */
export function decideProvider(command: ProviderCommand, state: ProviderState): ProviderEvent[] {
  switch (command.type) {
    case 'RegisterProvider': {
      if (!isValidUkprn(command.ukprn)) throw new ProviderCommandRejected(`UKPRN must be 8 digits, got '${command.ukprn}'`);
      const name = command.name.trim();
      if (!name) throw new ProviderCommandRejected('Provider name must not be blank');
      if (state.exists) throw new ProviderCommandRejected(`Provider ${command.ukprn} is already registered`);
      return [{ type: 'ProviderRegistered', data: { ukprn: command.ukprn, name, at: command.now } }];
    }
    case 'IssueToken': {
      if (!state.exists) throw new ProviderCommandRejected(`No provider with UKPRN ${command.ukprn}`);
      checkExpiry(command.expires_at, command.today);
      const { ukprn, token_id, token_hash, expires_at } = command;
      return [{ type: 'TokenIssued', data: { ukprn, token_id, token_hash, expires_at, at: command.now } }];
    }
    case 'RevokeToken': {
      const status = state.tokens[command.token_id];
      if (!status) throw new ProviderCommandRejected(`No token ${command.token_id} for provider ${command.ukprn}`);
      if (status === 'revoked') throw new ProviderCommandRejected(`Token ${command.token_id} is already revoked`);
      return [{ type: 'TokenRevoked', data: { ukprn: command.ukprn, token_id: command.token_id, at: command.now } }];
    }
    case 'RecordTokenUse':
      return recordTokenUse(command, state);
  }
}
