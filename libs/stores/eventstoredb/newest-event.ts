/**
 * The newest `$all` event a predicate accepts, read backwards in small pages: the store's head and the stall check's matching head
 * (docs/DESIGN.md "Failures of the subscription"). Client 6.2.1 cannot filter `$all` reads on the server.
 */
import { END, type AllStreamResolvedEvent, type Position, type ReadPosition } from '@eventstore/db-client';
import { isSystemEvent } from './filters';
import { LOG_START, type LogPosition } from '@app/event-sourcing';
import { samePosition, toPortPosition } from './positions';

/** Up to `maxCount` records from `from` (inclusive) towards the start. */
export type BackwardsRead = (from: ReadPosition, maxCount: number) => Promise<AllStreamResolvedEvent[]>;

export interface NewestPositionOptions {
  pageSize?: number;
  /** Default: the whole log. */
  maxRecords?: number;
}

/** `LOG_START` when the log holds none; null when none among the newest `maxRecords`. PositionMappingError for an unmappable position. */
export async function newestPosition(
  read: BackwardsRead,
  matches: (streamId: string, type: string) => boolean,
  options: NewestPositionOptions = {},
): Promise<LogPosition | null> {
  const pageSize = options.pageSize ?? 32;
  const maxRecords = options.maxRecords ?? Infinity;
  let cursor: ReadPosition = END;
  for (let seen = 0; seen < maxRecords;) {
    const page = await read(cursor, pageSize);
    let last: Position | null = null;
    for (const { event } of page) {
      if (event === undefined) continue;
      // Each page after the first starts at the previous page's last record: skip it.
      if (typeof cursor !== 'string' && samePosition(event.position, cursor)) continue;
      last = event.position;
      seen++;
      if (!isSystemEvent(event.streamId, event.type) && matches(event.streamId, event.type)) return toPortPosition(event.position);
    }
    if (page.length < pageSize || last === null) return LOG_START;
    cursor = last;
  }
  return null;
}

/** What a head read found: the newest record of `$all` read (system or not; null: none) and the newest event at or before it. */
export interface KnownHead {
  through: Position | null;
  head: LogPosition;
}

/**
 * The log's head (the newest non-system event; `LOG_START` when none) as {@link newestPosition} reads it, but back only to
 * `known.through`, the newest record an earlier read saw: the log is append-only, so what was at or before it is as it was, and a
 * log of many system records (a server's first records, one per leader election) is read once, not at every call. A newest record
 * before `known.through` means the log was replaced (a restore): `known` is then ignored. PositionMappingError as there.
 */
export async function newestHead(read: BackwardsRead, known: KnownHead | null, pageSize: number): Promise<KnownHead> {
  let cursor: ReadPosition = END;
  let through: Position | null = null;
  let trusted = known;
  for (;;) {
    const page = await read(cursor, pageSize);
    let last: Position | null = null;
    for (const { event } of page) {
      if (event === undefined) continue;
      if (typeof cursor !== 'string' && samePosition(event.position, cursor)) continue;
      if (through === null) {
        through = event.position;
        if (trusted?.through != null && through.commit < trusted.through.commit) trusted = null;
      }
      if (trusted?.through != null && event.position.commit <= trusted.through.commit) return { through, head: trusted.head };
      last = event.position;
      if (!isSystemEvent(event.streamId, event.type)) return { through, head: toPortPosition(event.position) };
    }
    if (page.length < pageSize || last === null) return { through, head: LOG_START };
    cursor = last;
  }
}
