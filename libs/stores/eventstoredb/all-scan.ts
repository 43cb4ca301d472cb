/**
 * The port's `readAll` on EventStoreDB (docs/DESIGN.md "The event store port"): client 6.2.1's `readAll` sends no filter
 * (`dist/streams/readAll.js`, `setNoFilter`), so `$all` is read forwards in pages and filtered here, skipping system records and the
 * event at `fromPosition` (the client's start is inclusive).
 */
import type { AllStreamResolvedEvent, Position, ReadPosition } from '@eventstore/db-client';
import type { ReadAllOptions, RecordedEvent } from '@app/event-sourcing';
import { fromClientEvent } from './event-mapping';
import { isSystemEvent, matchesEventFilter, normaliseFilter } from './filters';
import { assertPortPosition, samePosition, toReadPosition } from './positions';

export const DEFAULT_EVENTSTOREDB_READ_ALL_MAX_COUNT = 1000;

/** Up to `maxCount` records from `from` (inclusive) towards the end. */
export type ForwardsRead = (from: ReadPosition, maxCount: number) => Promise<AllStreamResolvedEvent[]>;

/** RangeError for a bad `fromPosition` or `maxCount`; TypeError for a bad filter; PositionMappingError for an unmappable position. */
export async function scanAll(read: ForwardsRead, options: ReadAllOptions, pageSize: number): Promise<RecordedEvent[]> {
  const fromPosition = options.fromPosition ?? 0;
  const maxCount = options.maxCount ?? DEFAULT_EVENTSTOREDB_READ_ALL_MAX_COUNT;
  assertPortPosition(fromPosition);
  if (!Number.isInteger(maxCount) || maxCount < 1) throw new RangeError(`maxCount must be an integer ≥ 1, got ${maxCount}`);
  const filter = normaliseFilter(options.filter);

  const found: RecordedEvent[] = [];
  let cursor: ReadPosition = toReadPosition(fromPosition);
  let skip: Position | null = typeof cursor === 'string' ? null : cursor;
  for (;;) {
    const page = await read(cursor, pageSize);
    let fresh = 0;
    let last: Position | null = null;
    for (const { event } of page) {
      if (event === undefined) continue;
      last = event.position;
      if (skip !== null && samePosition(event.position, skip)) continue;
      fresh++;
      if (isSystemEvent(event.streamId, event.type) || !matchesEventFilter(filter, event.streamId, event.type)) continue;
      const recorded = fromClientEvent(event, event.position);
      if (recorded.position <= fromPosition) continue;
      found.push(recorded);
      if (found.length === maxCount) return found;
    }
    if (page.length < pageSize || fresh === 0 || last === null) return found;
    cursor = last;
    skip = last;
  }
}
