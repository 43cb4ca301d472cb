/**
 * The head an append chains to (docs/DESIGN.md "Verifiable history"). No transaction can hold a read of the head and the append, so
 * the append names the exact revision and the server refuses it if another writer went first. What is read is checked first
 * (`StreamChainBrokenError`); a head from the caller's link is taken unread.
 */
import {
  eventHash,
  readChainKeys,
  storedTextOf,
  StreamChainBrokenError,
  WrongExpectedVersionError,
  type RecordedEvent,
  IntactChain,
} from '@app/event-sourcing';
import { BACKWARDS, END, type ReadStreamOptions } from '@eventstore/db-client';

/** Times an `any` or `stream_exists` append is chained again to a head another writer moved. */
export const CHAIN_ATTEMPTS = 5;

/** Revision null for no stream. */
export interface ChainHead {
  revision: number | null;
  hash: string | null;
}

/**
 * The hash of the last of all a stream's `events` once each makes its chain as `audit verify` checks it (`IntactChain`); for a
 * stream stored before the chain began, the hash over them all; null for none. `StreamChainBrokenError` naming the first that fails.
 */
export function headHashOf(streamId: string, events: RecordedEvent[]): string | null {
  const chain = new IntactChain();
  for (const e of events) if (!chain.add(storedTextOf(e))) throw new StreamChainBrokenError(streamId, e.streamRevision);
  return chain.headHash;
}

/** Checked against the last event's stored form alone (one SHA-256); null when stored before the chain began. */
function checkedHeadHash(streamId: string, last: RecordedEvent): string | null {
  const text = storedTextOf(last);
  const keys = readChainKeys(text.metadata);
  if (keys.hash === null) return null;
  if (eventHash(keys.previousHash ?? null, text, keys) !== keys.hash) throw new StreamChainBrokenError(streamId, last.streamRevision);
  return keys.hash;
}

/**
 * For a numeric or `no_stream` expectation: `previousHash` when given (no read, no check), else the last event's hash checked (the
 * whole stream for one without a hash). WrongExpectedVersionError when the head is not `expected`, as the append would throw;
 * `StreamChainBrokenError`. `read` reads on the leader.
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
  return chainHeadAfter(read, streamId, last);
}

/**
 * The head after `last`, the stream's last event (undefined: no stream): its hash checked alone, or the hash over the whole stream
 * read again when it was stored before the chain began. `StreamChainBrokenError`.
 */
export async function chainHeadAfter(
  read: (options: ReadStreamOptions) => Promise<RecordedEvent[]>,
  streamId: string,
  last: RecordedEvent | undefined,
): Promise<ChainHead> {
  if (last === undefined) return { revision: null, hash: null };
  const hash = checkedHeadHash(streamId, last) ?? headHashOf(streamId, await read({ requiresLeader: true }));
  return { revision: last.streamRevision, hash };
}
