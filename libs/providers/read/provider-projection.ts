import { decodeProviderEvent, evolveProvider, initialProviderState, type ProviderEvent, type ProviderState } from '@app/providers/decider';
import { type RecordedEvent, project, type Projection } from '@app/event-sourcing';
import type { ProviderRecord, TokenRecord } from './provider-read.port';

/** A token as the `providers` projection holds it: the read port's record and the hash it is found by. */
export interface TokenDocument extends TokenRecord {
  /** SHA-256 of the token, lower-case hex (authentication looks tokens up by it). */
  token_hash: string;
}

/**
 * One document of the `providers` projection, per provider stream `provider-<ukprn>`: the
 * provider's record and tokens as the read port answers them, and the domain's state of it.
 */
export interface ProviderDocument {
  record: ProviderRecord;
  /** The provider's tokens by token id. */
  tokens: Record<string, TokenDocument>;
  /** What the domain's `evolveProvider` folds. */
  state: ProviderState;
  /** Stream revision of the last event applied. */
  revision: number;
}

/**
 * The `providers` projection: one document per provider, keyed by UKPRN.
 * - `name` follows the domain's state ('' until the provider is registered);
 * - `created_at` is set by the first event applied (a registration's `at`, else the event's
 *   `occurredAt`) and kept;
 * - `TokenIssued` adds the token, active; a second issue of a token id already held changes
 *   nothing (the first issue wins);
 * - `TokenRevoked` revokes a token held; revoking a token not held changes no token;
 * - `TokenUsed` sets a held token's `last_used_at` to its `at` when later than the one held.
 */
export const providerProjection: Projection<ProviderEvent, ProviderDocument> = {
  decode: (recorded) => decodeProviderEvent(recorded),
  keyOf: (event) => event.data.ukprn,
  evolve: (doc, event, recorded) => {
    const ukprn = event.data.ukprn;
    const state = evolveProvider(doc?.state ?? initialProviderState, event);
    const createdAt = doc?.record.created_at ?? (event.type === 'ProviderRegistered' ? event.data.at : recorded.metadata.occurredAt);
    return {
      record: { ukprn, name: state.name ?? '', created_at: createdAt },
      tokens: evolveTokens(doc?.tokens ?? {}, event),
      state,
      revision: recorded.streamRevision,
    };
  },
};

function evolveTokens(tokens: Record<string, TokenDocument>, event: ProviderEvent): Record<string, TokenDocument> {
  if (event.type === 'TokenIssued') {
    const { token_id, token_hash, ukprn, at, expires_at } = event.data;
    if (tokens[token_id]) return tokens;
    const token: TokenDocument = {
      token_id,
      token_hash,
      ukprn,
      status: 'active',
      issued_at: at,
      revoked_at: null,
      expires_at,
      last_used_at: null,
    };
    return { ...tokens, [token_id]: token };
  }
  if (event.type === 'TokenUsed') {
    const token = tokens[event.data.token_id];
    if (!token || (token.last_used_at !== null && token.last_used_at >= event.data.at)) return tokens;
    return { ...tokens, [token.token_id]: { ...token, last_used_at: event.data.at } };
  }
  if (event.type === 'TokenRevoked') {
    const token = tokens[event.data.token_id];
    if (!token) return tokens;
    return { ...tokens, [token.token_id]: { ...token, status: 'revoked', revoked_at: event.data.at } };
  }
  return tokens;
}

/**
 * Applies one recorded event to a provider document (null: none yet) and returns the document:
 * unchanged for an event at or below its revision or of another type (docs/DESIGN.md "Read models").
 */
export function projectProvider(doc: ProviderDocument | null, recorded: RecordedEvent): ProviderDocument | null {
  return project(providerProjection, doc, recorded);
}

/**
 * The tokens of `after` that are new or whose status, revocation time or last use differ from
 * `before`: what a store writes for a changed provider (a token only ever goes from absent to
 * active to revoked, and its last use only forward, so writes of these never undo one another).
 */
export function changedTokens(before: ProviderDocument | null, after: ProviderDocument): TokenDocument[] {
  return Object.values(after.tokens).filter((token) => {
    const was = before?.tokens[token.token_id];
    return !was || was.status !== token.status || was.revoked_at !== token.revoked_at || was.last_used_at !== token.last_used_at;
  });
}
