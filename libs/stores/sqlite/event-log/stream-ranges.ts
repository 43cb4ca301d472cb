import type { Database } from '@app/sqlite';
import type { RecordedEvent } from '@app/event-sourcing';
import { rawToRecordedEvent, type RawEventRow } from './sqlite-rows';

const COLUMNS = 'position, id, stream_id, revision, type, data, metadata';

/** After a stream (exclusive), or, when null, at the category's first. */
export interface RangeStart {
  streamPrefix: string;
  afterStream: string | null;
  /** Inclusive: the snapshot of the log. */
  toPosition: number;
}

/**
 * Splits a category's streams into ranges of whole streams of about n events, and reads a range, on the `(stream_id, revision)` index
 * (docs/DESIGN.md "Rebuilding by stream"). Each statement binds one lower bound on `stream_id` (`StreamScan` says why). Also lists the
 * streams in the order they began, and reads a list of them.
 */
export class StreamRanges {
  private readonly statements = new Map<string, Database.Statement<unknown[], RawEventRow | string>>();
  private readOne: Database.Statement<[string, number]> | null = null;

  constructor(private readonly db: Database.Database) {}

  /** The stream of the `events`-th event after `start` (the range reads it whole); undefined when fewer remain: to the category's end. */
  end(start: RangeStart, events: number): string | undefined {
    const { lower, first } = this.lower(start);
    const nth = this.statement(
      'nth',
      lower,
      '<',
      `SELECT stream_id FROM events WHERE {RANGE} ORDER BY stream_id, revision LIMIT 1 OFFSET ?`,
    );
    return nth.pluck().get(first, upperBound(start.streamPrefix), start.toPosition, events - 1) as string | undefined;
  }

  /** `lastStream` inclusive (undefined: to the category's end), at or below the start's position, in stream-id then revision order. */
  read(start: RangeStart, lastStream: string | undefined): RecordedEvent[] {
    const { lower, first } = this.lower(start);
    const read = this.statement(
      'read',
      lower,
      lastStream === undefined ? '<' : '<=',
      `SELECT ${COLUMNS} FROM events WHERE {RANGE} ORDER BY stream_id, revision`,
    );
    const rows = read.raw(true).all(first, lastStream ?? upperBound(start.streamPrefix), start.toPosition) as unknown as RawEventRow[];
    return rows.map(rawToRecordedEvent);
  }

  /**
   * The category's streams with an event at or below `toPosition`, in the order of their first such event (a trainee stream's: its
   * registration, the trainee's `created_position`), each with its count of events up to there. One pass over the stream index.
   */
  inCreationOrder(streamPrefix: string, toPosition: number): { streams: string[]; events: number[] } {
    const rows = this.db
      .prepare<[string, string, number], [string, number, number]>(
        `SELECT stream_id, MIN(position) AS first, COUNT(*) FROM events
         WHERE stream_id >= ? AND stream_id < ? AND position <= ? GROUP BY stream_id ORDER BY first`,
      )
      .raw()
      .all(streamPrefix, upperBound(streamPrefix), toPosition);
    return { streams: rows.map((r) => r[0]), events: rows.map((r) => r[2]) };
  }

  /** Each of `streams` whole up to `toPosition`, in the order given, each in revision order. */
  readStreams(streams: readonly string[], toPosition: number): RecordedEvent[] {
    const read = (this.readOne ??= this.db.prepare(
      `SELECT ${COLUMNS} FROM events WHERE stream_id = ? AND position <= ? ORDER BY revision`,
    ));
    const out: RecordedEvent[] = [];
    for (const stream of streams)
      for (const row of read.raw(true).all(stream, toPosition) as unknown as RawEventRow[]) out.push(rawToRecordedEvent(row));
    return out;
  }

  /** The cursor where it lies at or beyond the prefix (exclusive), else the prefix (inclusive). */
  private lower(start: RangeStart): { lower: '>' | '>='; first: string } {
    return start.afterStream != null && start.afterStream >= start.streamPrefix
      ? { lower: '>', first: start.afterStream }
      : { lower: '>=', first: start.streamPrefix };
  }

  private statement(name: string, lower: string, upper: string, sql: string): Database.Statement<unknown[], RawEventRow | string> {
    const key = `${name}${lower}${upper}`;
    let statement = this.statements.get(key);
    if (!statement) {
      statement = this.db.prepare(sql.replace('{RANGE}', `stream_id ${lower} ? AND stream_id ${upper} ? AND position <= ?`));
      this.statements.set(key, statement);
    }
    return statement;
  }
}

/** The least string above every string starting with `prefix` (its last UTF-16 unit raised by one). */
function upperBound(prefix: string): string {
  return prefix.slice(0, -1) + String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1);
}
