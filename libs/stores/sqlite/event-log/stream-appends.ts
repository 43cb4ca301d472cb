import type Database from 'better-sqlite3';
import {
  chainEvent,
  chainHeadHash,
  eventHash,
  StreamChainBrokenError,
  IdempotencyConflictError,
  logPosition,
  readChainKeys,
  WrongExpectedVersionError,
  type AppendResult,
} from '@app/event-sourcing';
import { rawToStoredText, type QueuedWrite, type RawEventRow } from './sqlite-rows';

interface StreamHeadRow {
  revision: number;
  position: number;
}

interface ExistingIdRow {
  stream_id: string;
  revision: number;
  position: number;
}

/** What one append of a unit of work did: its result, and whether it wrote (false for an idempotent retry). */
export interface AppendOutcome {
  result: AppendResult;
  written: boolean;
}

/** The statements of appends to the `events` table and the checks each append makes (docs/DESIGN.md "The event store port"). */
export class StreamAppends {
  private readonly insertEvent: Database.Statement<unknown[]>;
  private readonly selectById: Database.Statement<[string], ExistingIdRow>;
  private readonly selectStreamHead: Database.Statement<[string], StreamHeadRow>;
  private readonly selectStream: Database.Statement<[string], RawEventRow>;
  private readonly selectHead: Database.Statement<[number], { id: string; type: string; data: string; metadata: string }>;

  /** `chain` false stores events as given, unchained (the bench's comparison only: `SqliteEventStoreOptions.hashChain`). */
  constructor(
    db: Database.Database,
    private readonly chain = true,
  ) {
    this.insertEvent = db.prepare(
      'INSERT INTO events (id, stream_id, revision, type, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.selectById = db.prepare('SELECT stream_id, revision, position FROM events WHERE id = ?');
    // The index of UNIQUE (stream_id, revision) covers it (position is the rowid): no table row is read.
    this.selectStreamHead = db.prepare('SELECT revision, position FROM events WHERE stream_id = ? ORDER BY revision DESC LIMIT 1');
    this.selectHead = db.prepare('SELECT id, type, data, metadata FROM events WHERE position = ?');
    this.selectStream = db
      .prepare<[string], RawEventRow>(
        'SELECT position, id, stream_id, revision, type, data, metadata FROM events WHERE stream_id = ? ORDER BY revision',
      )
      .raw(true);
  }

  /**
   * One stream's write of a unit of work, inside the write transaction (the rules are
   * `SqliteEventStore.appendToStream`'s): an idempotent retry answers its original result; the
   * expected revision is checked against the stream's head; each event is stored chained to the
   * one before it, the head's hash read with the head itself and checked against its stored form
   * (docs/DESIGN.md "Verifiable history"): {@link StreamChainBrokenError} when it does not hold.
   */
  append({ streamId, events, expected }: QueuedWrite, recordedAt: string): AppendOutcome {
    if (events.length > 0) {
      const existing = events.map((event) => this.selectById.get(event.id));
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
    let previous = head === undefined || !this.chain ? null : this.headHash(streamId, head);
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
      const info = this.insertEvent.run(event.id, streamId, revision, event.type, event.data, metadata, recordedAt);
      position = Number(info.lastInsertRowid);
    }
    return { result: { nextExpectedRevision: revision, position: logPosition(position) }, written: true };
  }

  /**
   * The hash of a stream's last event (`head`), read from its row and checked: its stored form must
   * make the hash it was stored with (one SHA-256 of one row, a few µs), else
   * {@link StreamChainBrokenError}; a new event never chains onto an altered one. For a head stored
   * before the chain began (no hash stored), computed over the whole stream, once, by the next
   * append, which chains to it. The caller's link (`previousHash`) is not trusted for this: the row is.
   */
  private headHash(streamId: string, head: StreamHeadRow): string | null {
    const row = this.selectHead.get(head.position)!;
    const keys = readChainKeys(row.metadata);
    if (keys.hash === null) return chainHeadHash(this.selectStream.all(streamId).map(rawToStoredText));
    if (eventHash(keys.previousHash ?? null, { ...row, streamId, revision: head.revision }, keys) !== keys.hash) {
      throw new StreamChainBrokenError(streamId, head.revision);
    }
    return keys.hash;
  }
}
