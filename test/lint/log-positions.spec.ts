/**
 * Positions are opaque above the stores (docs/DESIGN.md "The event store port", positions): every
 * port that takes one back (a read bound, a checkpoint, a wait, a cursor, an audit's bound) takes a `LogPosition`,
 * which only a store makes. Each `@ts-expect-error` below is a line the compiler must refuse;
 * `npm run typecheck` (part of `npm test`) runs over this file, and fails with "Unused
 * '@ts-expect-error' directive" the day a port takes a plain number again. The first case is the
 * webhook dispatcher's old checkpoint, `next.position - 1`: on EventStoreDB a byte offset no event
 * starts at, which the server cannot read from.
 */
import type { CursorCodec, ChangeFeed } from '@app/changes';
import { laterPosition, LOG_START, logPosition, type LogPosition, type RecordedEvent, type StoredLog } from '@app/event-sourcing';
import type { ProjectorHandle, ReadModelStore, StreamBuild } from '@app/runtime/projector';
import type { WebhookOutbox } from '@app/webhooks/delivery';
import { checkAgainstDigest, verifyLog } from '@app/audit';

/** Every port a position is handed back to; the calls are compiled, never run. */
interface Ports {
  log: StoredLog;
  feed: ChangeFeed;
  checkpoints: ReadModelStore;
  projector: ProjectorHandle;
  outbox: WebhookOutbox;
  build: StreamBuild;
  cursors: CursorCodec;
}

/** The lines the compiler refuses, each beside the one it takes. */
async function handBack(p: Ports, next: RecordedEvent, storedNumber: number): Promise<LogPosition[]> {
  // @ts-expect-error -- a position computed from another is no position of the log
  await p.log.readAll({ fromPosition: next.position - 1, maxCount: 1 });
  await p.log.readAll({ fromPosition: next.position, maxCount: 1 });
  // @ts-expect-error -- nor is a number literal, as a read bound
  await p.log.readAll({ fromPosition: 0 });
  await p.log.readAll({ fromPosition: LOG_START });
  // @ts-expect-error -- nor as the upper bound of a read by stream
  await p.log.readStreamsByPrefix?.({ streamPrefix: 'trainee-', toPosition: 1000, maxCount: 10 });
  // @ts-expect-error -- a checkpoint is stored only as a position the store gave
  await p.outbox.ingest({ endpoints: [], deliveries: [], abandonFor: [], at: 0, checkpoint: next.position - 1 });
  // @ts-expect-error -- nor a number kept somewhere else
  await p.checkpoints.writeCheckpoint('registry', storedNumber);
  await p.checkpoints.writeCheckpoint('registry', next.position);
  // @ts-expect-error -- the change feed's bounds are positions
  await p.feed.changesBetween(0, next.position, 10);
  // @ts-expect-error -- a writer waits for the position its append gave, not a number
  await p.projector.waitFor(storedNumber);
  // @ts-expect-error -- a stream build finishes at the snapshot it read
  await p.build.finish(storedNumber + 1);
  // @ts-expect-error -- a cursor seals a position the store gave
  p.cursors.encode('10000001', storedNumber);
  // @ts-expect-error -- an audit as of a digest stops at the position the store gave it
  await verifyLog(p.log, { toPosition: storedNumber, digest: { position: next.position, heads: new Map() } });
  await verifyLog(p.log, { toPosition: next.position });
  // @ts-expect-error -- nor a digest's position read from anywhere but the digest the store's position went into
  checkAgainstDigest([], undefined, storedNumber);
  // @ts-expect-error -- Math.max of positions is a number; laterPosition keeps the brand
  const max: LogPosition = Math.max(next.position, await p.outbox.checkpoint());
  return [max, laterPosition(next.position, await p.outbox.checkpoint())];
}

describe('LogPosition at the ports', () => {
  it('compiles only what hands a store back its own positions (the lines above are type-checked, not run)', () => {
    expect(typeof handBack).toBe('function');
    // Positions stay ordered numbers: comparing them is what every reader may do.
    expect(logPosition(2) > LOG_START).toBe(true);
    expect(laterPosition(logPosition(2), logPosition(7))).toBe(7);
  });
});
