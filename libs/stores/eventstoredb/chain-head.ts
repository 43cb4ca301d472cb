/**
 * The head an EventStoreDB append chains its events to (docs/DESIGN.md "Verifiable history"): the
 * stream's last revision and that event's hash. EventStoreDB has no transaction in which the adapter
 * could read the head and append, so the append names the exact revision it chained to and is
 * refused by the server if another writer went first (see the adapter's `appendNow`).
 */
import { chainHeadHash, storedHash, storedTextOf, WrongExpectedVersionError, type RecordedEvent } from '@app/event-sourcing';
import { BACKWARDS, END, type ReadStreamOptions } from '@eventstore/db-client';

/** Times an `any` or `stream_exists` append is chained again to a head another writer moved. */
export const CHAIN_ATTEMPTS = 5;

/** The revision and hash of a stream's last event ({@link toChainedClientEvents}); revision null for no stream. */
export interface ChainHead {
  revision: number | null;
  hash: string | null;
}

/**
 * The hash of the last of a stream's `events` (all of them, in revision order): its stored hash,
 * or, for a stream stored before the chain began, the hash computed over them all.
 */
export function headHashOf(events: RecordedEvent[]): string | null {
  if (events.length === 0) return null;
  const stored = storedHash(events[events.length - 1].metadata);
  if (stored !== null) return stored;
  return chainHeadHash(events.map(storedTextOf));
}

/**
 * The head an append with a numeric or `no_stream` expectation chains to: that revision, and
 * `previousHash` when the caller gave it (the link of the head it read: no read); otherwise the hash read from the
 * stream's last event (the whole stream, for one stored before the chain began). Throws
 * `WrongExpectedVersionError` when the stream's head is not the expected revision, as the append
 * would. `read` reads the stream on the leader with the options given.
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
  return { revision: expected, hash: storedHash(last.metadata) ?? headHashOf(await read({ requiresLeader: true })) };
}
