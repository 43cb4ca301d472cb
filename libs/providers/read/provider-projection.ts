import { decodeProviderEvent, evolveProvider, initialProviderState, type ProviderEvent, type ProviderState } from '@app/providers/decider';
import { type RecordedEvent, project, type Projection } from '@app/event-sourcing';
import type { ProviderRecord, TokenRecord } from './provider-read.port';

export interface TokenDocument extends TokenRecord {
  /** SHA-256 of the token, lower-case hex: what authentication looks it up by. */
  token_hash: string;
}

/** Per provider stream: the record and tokens as the read port answers them, and the domain's state. */
export interface ProviderDocument {
  record: ProviderRecord;
  tokens: Record<string, TokenDocument>;
  state: ProviderState;
  revision: number;
}

/**
 * One document per UKPRN. `created_at` is the first event's (a registration's `at`, else `occurredAt`); the first issue of a token id
 * wins; revoking a token not held changes none; `last_used_at` only moves forward.
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

/** Null: no document yet. Unchanged for an event at or below its revision or of another type. */
export function projectProvider(doc: ProviderDocument | null, recorded: RecordedEvent): ProviderDocument | null {
  return project(providerProjection, doc, recorded);
}

/**
 * Tokens new or changed since `before`: what a store writes. A token only goes absent → active → revoked and its last use only forward,
 * so these writes never undo one another.
 */
export function changedTokens(before: ProviderDocument | null, after: ProviderDocument): TokenDocument[] {
  return Object.values(after.tokens).filter((token) => {
    const was = before?.tokens[token.token_id];
    return !was || was.status !== token.status || was.revoked_at !== token.revoked_at || was.last_used_at !== token.last_used_at;
  });
}
