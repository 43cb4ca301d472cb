import { checkStreamChain, type ChainFault, type EventStore, type StoredEventText } from '@app/event-sourcing';

/** Events the check reads per call of the store (whole streams: one long stream may exceed it). */
const BATCH_EVENTS = 5000;

/** What {@link verifyLog} is told as it goes; every callback is optional. */
export interface VerifyLogListener {
  /** Each fault as it is found (docs/DESIGN.md "Verifiable history"). */
  onFault?(fault: ChainFault): void;
  /** Each stream once checked, in stream-id order, with the hash of its last event. */
  onStream?(streamId: string, headHash: string | null): void;
  /** The number of events checked so far, after each batch. */
  onProgress?(events: number): void;
}

/** What {@link verifyLog} checked: counts of events, streams and faults. */
export interface LogVerification {
  events: number;
  streams: number;
  faults: number;
}

/**
 * Checks the hash chain of every stream of `store` (docs/DESIGN.md "Verifiable history"): reads the
 * streams whole, in stream-id order, as stored, and runs `checkStreamChain` on each, telling
 * `listener` of every fault, stream and batch. `store` must be the store as stored (the event
 * store beneath the sealing of personal data): the chain hashes the sealed texts. A store with
 * `readStoredStreams` is read through it; any other is read in two passes through the port (every
 * stream id from the global log, then each stream, its data and metadata as `JSON.stringify`
 * writes them, which is how the adapters store them).
 */
export async function verifyLog(store: EventStore, listener: VerifyLogListener = {}): Promise<LogVerification> {
  const totals: LogVerification = { events: 0, streams: 0, faults: 0 };
  const check = (events: StoredEventText[]) => {
    const report = checkStreamChain(events);
    totals.streams++;
    totals.events += events.length;
    totals.faults += report.faults.length;
    for (const f of report.faults) listener.onFault?.(f);
    listener.onStream?.(events[0].streamId, report.headHash);
  };
  for await (const batch of storedStreamBatches(store)) {
    let start = 0;
    for (let i = 1; i <= batch.length; i++) {
      if (i < batch.length && batch[i].streamId === batch[start].streamId) continue;
      check(batch.slice(start, i));
      start = i;
    }
    listener.onProgress?.(totals.events);
  }
  return totals;
}

/** The log's streams as stored, whole, in stream-id order, in batches of about {@link BATCH_EVENTS} events. */
async function* storedStreamBatches(store: EventStore): AsyncGenerator<StoredEventText[]> {
  if (store.readStoredStreams) {
    let afterStream: string | null = null;
    for (;;) {
      const batch = await store.readStoredStreams({ afterStream, maxCount: BATCH_EVENTS });
      if (batch.length === 0) return;
      yield batch;
      afterStream = batch[batch.length - 1].streamId;
    }
  }
  const streamIds = new Set<string>();
  for (let from = 0; ;) {
    const page = await store.readAll({ fromPosition: from, maxCount: BATCH_EVENTS });
    if (page.length === 0) break;
    for (const e of page) streamIds.add(e.streamId);
    from = page[page.length - 1].position;
  }
  let batch: StoredEventText[] = [];
  for (const streamId of [...streamIds].sort()) {
    for (const e of await store.readStream(streamId)) {
      batch.push({
        streamId,
        revision: e.streamRevision,
        type: e.type,
        data: JSON.stringify(e.data),
        metadata: JSON.stringify(e.metadata),
      });
    }
    if (batch.length >= BATCH_EVENTS) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}
