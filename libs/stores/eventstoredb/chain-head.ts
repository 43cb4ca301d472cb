/**
 * The head an EventStoreDB append chains its events to (docs/DESIGN.md "Verifiable history"): the
 * stream's last revision and that event's hash. EventStoreDB has no transaction in which the adapter
 * could read the head and append, so the append names the exact revision it chained to and is
 * refused by the server if another writer went first (see the adapter's `appendNow`). What the
 * adapter reads of the stream for it, it checks first: a read head must make its hash, a stream
 * read whole must make its chain, else `StreamChainBrokenError`; a head given by the caller's link
 * is taken unread, unchecked.
 */
import {
  eventHash,
  readChainKeys,
  storedTextOf,
  StreamChainBrokenError,
  WrongExpectedVersionError,
  type RecordedEvent,
} from '@app/event-sourcing';
import { IntactChain } from '@app/audit';
import { BACKWARDS, END, type ReadStreamOptions } from '@eventstore/db-client';

/** Times an `any` or `stream_exists` append is chained again to a head another writer moved. */
export const CHAIN_ATTEMPTS = 5;

/** The revision and hash of a stream's last event ({@link toChainedClientEvents}); revision null for no stream. */
export interface ChainHead {
  revision: number | null;
  hash: string | null;
}

/**
 * The hash of the last of a stream's `events` (all of them, in revision order, as read back), once
 * every one is found to make its chain as `audit verify` checks it (`IntactChain`: its stored form
 * makes its stored hash, it is linked to the one before, never of an older rule than an event
 * before it); for a stream stored before the chain began, the hash computed over them all. Null
 * for no event. Throws `StreamChainBrokenError` naming the first revision that fails.
 */
export function headHashOf(streamId: string, events: RecordedEvent[]): string | null {
  const chain = new IntactChain();
  for (const e of events) if (!chain.add(storedTextOf(e))) throw new StreamChainBrokenError(streamId, e.streamRevision);
  return chain.headHash;
}

/**
 * The stored hash of a stream's last event, once its stored form is found to make it (one SHA-256;
 * the events before it are not read); null for an event stored before the chain began. Throws
 * `StreamChainBrokenError` when it does not make it.
 */
function checkedHeadHash(streamId: string, last: RecordedEvent): string | null {
  const text = storedTextOf(last);
  const keys = readChainKeys(text.metadata);
  if (keys.hash === null) return null;
  if (eventHash(keys.previousHash ?? null, text, keys) !== keys.hash) throw new StreamChainBrokenError(streamId, last.streamRevision);
  return keys.hash;
}

/**
 * The head an append with a numeric or `no_stream` expectation chains to: that revision, and
 * `previousHash` when the caller gave it (the link of the head it read: no read, no check);
 * otherwise the hash read from the stream's last event and checked against its stored form (the
 * whole stream read and checked, for a last event with no hash). Throws
 * `WrongExpectedVersionError` when the stream's head is not the expected revision, as the append
 * would, and `StreamChainBrokenError` when what was read does not make its chain. `read` reads the
 * stream on the leader with the options given.
 */
export async function chainHeadAt(
  read: (options: ReadStreamOptions) => Promise<RecordedEvent[]>,
  streamId: string,
  expected: number | 'no_stream',
  previousHash: string | null | undefined,
): Promise<ChainHead> {
  if (expected === 'no_stream') return { revision: null, hash: null };
  if (previousHash !== undefined && previousHash !== null) return { revision: expected, hash: previousHash };
  const [last] = await read({ fromRevision: END, direction: BACKWARDS, maxCount: 1, requiresLeader: true });
  const actual = last === undefined ? 'no_stream' : last.streamRevision;
  if (actual !== expected) throw new WrongExpectedVersionError(streamId, expected, actual);
  return { revision: expected, hash: checkedHeadHash(streamId, last) ?? headHashOf(streamId, await read({ requiresLeader: true })) };
}
