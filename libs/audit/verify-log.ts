import {
  LOG_START,
  storedTextOf,
  type StoredLog,
  type StoredEventText,
  type ChainFault,
  checkStreamChain,
  type LogPosition,
} from '@app/event-sourcing';
import { checkAgainstDigest, streamGone, type SignedHead } from './digest-check';
import type { HashedHead } from './digest';

/** Per store call; whole streams, so one long stream may exceed it. */
const BATCH_EVENTS = 5000;

export interface VerifyLogListener {
  onFault?(fault: ChainFault): void;
  /** In stream-id order, with its head as of `toPosition`, when given. */
  onStream?(head: HashedHead): void;
  /** Events checked so far, after each batch. */
  onProgress?(events: number): void;
}

export interface VerifyLogOptions extends VerifyLogListener {
  /** Each stream as it stood then (a digest's position). */
  toPosition?: LogPosition;
  /** Its heads by stream id (`checkAgainstDigest`). */
  digest?: { position: LogPosition; heads: ReadonlyMap<string, SignedHead> };
  /** For a check split between threads; a digest's heads outside the range are not looked for. */
  range?: StreamRange;
  /** Events read per store call (default 5,000); whole streams, so one long stream may exceed it. */
  batchEvents?: number;
}

/** Binary order; null: unbounded. */
export interface StreamRange {
  after: string | null;
  before: string | null;
}

function withinRange(streamId: string, range: StreamRange): boolean {
  return (range.after === null || streamId > range.after) && (range.before === null || streamId < range.before);
}

export interface LogVerification {
  events: number;
  streams: number;
  faults: number;
}

/**
 * Checks every stream's chain as stored, whole, in stream-id order (docs/DESIGN.md "Verifiable history"), and against `options.digest`
 * (a stream it holds that the log has not is `missing` whole). Through `readStoredStreams` where the store has it, else in two passes
 * through the port, texts as `JSON.stringify` writes them.
 */
export async function verifyLog(store: StoredLog, options: VerifyLogOptions = {}): Promise<LogVerification> {
  const totals: LogVerification = { events: 0, streams: 0, faults: 0 };
  const { toPosition, digest } = options;
  const seen = new Set<string>();
  const report = (faults: ChainFault[]) => {
    totals.faults += faults.length;
    for (const f of faults) options.onFault?.(f);
  };
  const check = (whole: StoredEventText[]) => {
    const streamId = whole[0].streamId;
    if (digest) {
      seen.add(streamId);
      report(checkAgainstDigest(whole, digest.heads.get(streamId), digest.position));
    }
    // A stream's positions grow with its revisions: as of a position, it is a prefix.
    const events = toPosition === undefined ? whole : whole.filter((e) => e.position === undefined || e.position <= toPosition);
    if (events.length === 0) return;
    const chain = checkStreamChain(events);
    totals.streams++;
    totals.events += events.length;
    report(chain.faults);
    if (chain.headHash !== null) options.onStream?.({ streamId, revision: events[events.length - 1].revision, hash: chain.headHash });
  };
  const range = options.range ?? { after: null, before: null };
  for await (const batch of storedStreamBatches(store, range, options.batchEvents ?? BATCH_EVENTS)) {
    let start = 0;
    for (let i = 1; i <= batch.length; i++) {
      if (i < batch.length && batch[i].streamId === batch[start].streamId) continue;
      check(batch.slice(start, i));
      start = i;
    }
    options.onProgress?.(totals.events);
  }
  if (digest)
    for (const [streamId, head] of digest.heads)
      if (!seen.has(streamId) && withinRange(streamId, range)) report(streamGone(streamId, head, digest.position));
  return totals;
}

async function* storedStreamBatches(store: StoredLog, range: StreamRange, batchEvents: number): AsyncGenerator<StoredEventText[]> {
  if (store.readStoredStreams) {
    let afterStream: string | null = range.after;
    for (;;) {
      const batch = await store.readStoredStreams({ afterStream, beforeStream: range.before, maxCount: batchEvents });
      if (batch.length === 0) return;
      yield batch;
      afterStream = batch[batch.length - 1].streamId;
    }
  }
  const streamIds = new Set<string>();
  for (let from = LOG_START; ;) {
    const page = await store.readAll({ fromPosition: from, maxCount: batchEvents });
    if (page.length === 0) break;
    for (const e of page) streamIds.add(e.streamId);
    from = page[page.length - 1].position;
  }
  let batch: StoredEventText[] = [];
  for (const streamId of [...streamIds].filter((id) => withinRange(id, range)).sort()) {
    for (const e of await store.readStream(streamId)) batch.push(storedTextOf(e));
    if (batch.length >= batchEvents) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
