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
