import { DomainError } from '../errors';

/**
 * Providers and their API tokens, event-sourced in `provider-<ukprn>` streams. A token is stored
 * only as its SHA-256 hash (hex); the plain token is shown once, when issued (docs/reference/API-FACTS.md §2.2–2.3).
 */
export interface ProviderRegistered {
  type: 'ProviderRegistered';
  data: { ukprn: string; name: string; at: string };
}
export interface TokenIssued {
  type: 'TokenIssued';
  data: { ukprn: string; token_id: string; token_hash: string; at: string };
}
export interface TokenRevoked {
  type: 'TokenRevoked';
  data: { ukprn: string; token_id: string; at: string };
}
export type ProviderEvent = ProviderRegistered | TokenIssued | TokenRevoked;
export type ProviderEventType = ProviderEvent['type'];

export const PROVIDER_EVENT_SCHEMA_VERSIONS: Record<ProviderEventType, number> = {
  ProviderRegistered: 1,
  TokenIssued: 1,
  TokenRevoked: 1,
};
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
}

export const initialProviderState: ProviderState = { exists: false, ukprn: null, name: null, tokens: {} };

export type ProviderCommand =
  | { type: 'RegisterProvider'; ukprn: string; name: string; now: string }
  | { type: 'IssueToken'; ukprn: string; token_id: string; token_hash: string; now: string }
  | { type: 'RevokeToken'; ukprn: string; token_id: string; now: string };

/** An operator command the provider's state refuses; the message is for the operator's terminal. */
export class ProviderCommandRejected extends DomainError {
  readonly kind = 'ProviderCommandRejected';
}

/** UKPRN: the UK provider reference number, eight digits. */
export function isValidUkprn(ukprn: string): boolean {
  return /^\d{8}$/.test(ukprn);
}

/** Applies one provider event (pure). */
export function evolveProvider(state: ProviderState, event: ProviderEvent): ProviderState {
  switch (event.type) {
    case 'ProviderRegistered':
      return { ...state, exists: true, ukprn: event.data.ukprn, name: event.data.name };
    case 'TokenIssued':
      return { ...state, tokens: { ...state.tokens, [event.data.token_id]: 'active' } };
    case 'TokenRevoked':
      return { ...state, tokens: { ...state.tokens, [event.data.token_id]: 'revoked' } };
  }
}

/**
 * Decides a provider command. Throws {@link ProviderCommandRejected}: bad UKPRN or empty name,
 * provider already registered, unknown provider, unknown or already revoked token.
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
    case 'IssueToken':
      if (!state.exists) throw new ProviderCommandRejected(`No provider with UKPRN ${command.ukprn}`);
      return [
        {
          type: 'TokenIssued',
          data: { ukprn: command.ukprn, token_id: command.token_id, token_hash: command.token_hash, at: command.now },
        },
      ];
    case 'RevokeToken': {
      const status = state.tokens[command.token_id];
      if (!status) throw new ProviderCommandRejected(`No token ${command.token_id} for provider ${command.ukprn}`);
      if (status === 'revoked') throw new ProviderCommandRejected(`Token ${command.token_id} is already revoked`);
      return [{ type: 'TokenRevoked', data: { ukprn: command.ukprn, token_id: command.token_id, at: command.now } }];
    }
  }
}
