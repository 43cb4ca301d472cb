import type { Database } from '@app/sqlite';
import {
  chainEvent,
  StreamChainBrokenError,
  IdempotencyConflictError,
  logPosition,
  WrongExpectedVersionError,
  type AppendResult,
  IntactChain,
} from '@app/event-sourcing';
import { rawToStoredText, type QueuedWrite, type RawEventRow } from './sqlite-rows';
import { VerifiedHeads } from './verified-heads';
import { packMetadata } from './packed-metadata';
import { packEventId, storedIdForms } from './packed-ids';

interface StreamHeadRow {
  revision: number;
  position: number;
}

interface ExistingIdRow {
  stream_id: string;
  revision: number;
  position: number;
}

/** `written` false for an idempotent retry. */
export interface AppendOutcome {
  result: AppendResult;
  written: boolean;
}

/** The statements and checks of appends to `events` (docs/DESIGN.md "The event store port"). */
export class StreamAppends {
  private readonly insertEvent: Database.Statement<unknown[]>;
  private readonly selectById: Database.Statement<[Buffer | string, string], ExistingIdRow>;
  private readonly selectStreamHead: Database.Statement<[string], StreamHeadRow>;
  private readonly selectStream: Database.Statement<[string], RawEventRow>;
  private readonly verified: VerifiedHeads;

  /** `chain` false stores events unchained (the bench's comparison only). */
  constructor(
    db: Database.Database,
    private readonly chain = true,
  ) {
    this.insertEvent = db.prepare(
      'INSERT INTO events (id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    // Both stored forms of the id (./packed-ids.ts): two seeks of the id index.
    this.selectById = db.prepare('SELECT stream_id, revision, position FROM events WHERE id IN (?, ?)');
    // The index of UNIQUE (stream_id, revision) covers it (position is the rowid): no table row is read.
    this.selectStreamHead = db.prepare('SELECT revision, position FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1');
    this.selectStream = db
      .prepare<[string], RawEventRow>(
        'SELECT position, id, stream_id, revision, type, data, metadata FROM events WHERE stream_id = ? ORDER BY revision',
      )
      .raw(true);
    this.verified = new VerifiedHeads(db);
  }

  /**
   * One stream's write, inside the write transaction, by `SqliteEventStore.appendToStream`'s rules; each event chained to the one before
   * once the stream is found to make its chain ({@link checkedHeadHash}), else {@link StreamChainBrokenError}.
   */
  append({ streamId, events, expected }: QueuedWrite, recordedAt: string): AppendOutcome {
    if (events.length > 0) {
      const existing = events.map((event) => this.selectById.get(...storedIdForms(event.id)));
      const firstExisting = existing.findIndex((row) => row !== undefined);
      if (firstExisting >= 0) {
        const first = existing[0];
        const sameBatch =
          first !== undefined &&
          existing.every((row, i) => row !== undefined && row.stream_id === streamId && row.revision === first.revision + i);
        if (!sameBatch) throw new IdempotencyConflictError(streamId, events[firstExisting].id);
        const last = existing[existing.length - 1]!;
        return { result: { nextExpectedRevision: last.revision, position: logPosition(last.position) }, written: false };
      }
    }

    const head = this.selectStreamHead.get(streamId);
    const actual: number | 'no_stream' = head === undefined ? 'no_stream' : head.revision;
    const matches =
      expected === 'any' ||
      (expected === 'no_stream' && actual === 'no_stream') ||
      (expected === 'stream_exists' && actual !== 'no_stream') ||
      expected === actual;
    if (!matches) throw new WrongExpectedVersionError(streamId, expected, actual);

    if (events.length === 0) {
      return { result: { nextExpectedRevision: head?.revision ?? -1, position: logPosition(head?.position ?? 0) }, written: false };
    }
    let revision = head === undefined ? -1 : head.revision;
    let previous = head === undefined || !this.chain ? null : this.checkedHeadHash(streamId, head.revision);
    let position = 0;
    for (const event of events) {
      revision += 1;
      let metadata = event.metadata;
      if (this.chain) {
        const chained = chainEvent(previous, {
          streamId,
          revision,
          id: event.id,
          type: event.type,
          data: event.data,
          metadata: event.metadata,
        });
        metadata = chained.metadata;
        previous = chained.hash;
      }
      const stored = [packEventId(event.id), streamId, revision, event.type, event.data, packMetadata(metadata), recordedAt];
      const info = this.insertEvent.run(...stored);
      position = Number(info.lastInsertRowid);
    }
    if (previous !== null) this.verified.set(streamId, revision, previous);
    return { result: { nextExpectedRevision: revision, position: logPosition(position) }, written: true };
  }

  /**
   * The hash the next event chains to, once every stored event of the stream makes its chain as `audit verify` checks it (`IntactChain`,
   * libs/audit: an event whose chain keys were taken away after chained ones fails too), else {@link StreamChainBrokenError} naming the
   * first bad revision: a new event never chains onto an altered stream. Events from before the chain: the hash over them all. The caller's
   * link is not trusted; the rows are. Read whole (~10 µs an event) only at this connection's first append to a stream, or after another
   * connection committed; else the head it checked or wrote ({@link VerifiedHeads} says why that is safe).
   */
  private checkedHeadHash(streamId: string, revision: number): string {
    this.verified.sync();
    const known = this.verified.get(streamId, revision);
    if (known !== undefined) return known;
    const chain = new IntactChain();
    for (const row of this.selectStream.all(streamId)) {
      if (!chain.add(rawToStoredText(row))) throw new StreamChainBrokenError(streamId, row[3]);
    }
    // The rows end at the head the index gave (same transaction): one missing before it was refused above.
    return chain.headHash!;
  }
}
