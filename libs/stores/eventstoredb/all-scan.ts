/**
 * The port's `readAll` on EventStoreDB (docs/DESIGN.md "The event store port"): client 6.2.1's `readAll` sends no filter
 * (`dist/streams/readAll.js`, `setNoFilter`), so `$all` is read forwards in pages and filtered here, skipping system records and the
 * event at `fromPosition` (the client's start is inclusive). Only a subscription filters on the server (`subscribeToAll`'s filter);
 * a read through one would need the end of its catch-up, which servers before KurrentDB's `caughtUp` do not send.
 *
 * So a selective filter costs every record after `fromPosition`, and the readers that ask again and again from where they stand (the
 * webhook dispatcher, a projection's lag, the sandbox's start) would pay it at each call while nothing they want comes. A scan that
 * found none is remembered ({@link EmptyScans}): asked again from within it, the scan goes on from the record it ended at, so each
 * call costs the records appended since.
 */
import type { AllStreamResolvedEvent, Position, ReadPosition } from '@eventstore/db-client';
import { LOG_START, type LogPosition, type ReadAllOptions, type RecordedEvent } from '@app/event-sourcing';
import { fromClientEvent } from './event-mapping';
import { isSystemEvent, matchesEventFilter, normaliseFilter, type NormalisedFilter } from './filters';
import { assertPortPosition, samePosition, toReadPosition } from './positions';

export const DEFAULT_EVENTSTOREDB_READ_ALL_MAX_COUNT = 1000;

/** Up to `maxCount` records from `from` (inclusive) towards the end. */
export type ForwardsRead = (from: ReadPosition, maxCount: number) => Promise<AllStreamResolvedEvent[]>;

/** A scan with one filter that found no event after `from` up to the record at `through`, inclusive. */
interface EmptyScan {
  from: number;
  through: Position;
}

/** The latest empty scan of each filter, for the few filters readers use (least recently used dropped past 16). */
export class EmptyScans {
  private readonly byFilter = new Map<string, EmptyScan>();

  /** One that covers a scan from `from`, or null. */
  covering(key: string, from: number): EmptyScan | null {
    const scan = this.byFilter.get(key);
    return scan !== undefined && scan.from <= from && from <= Number(scan.through.commit) ? scan : null;
  }

  remember(key: string, scan: EmptyScan): void {
    this.byFilter.delete(key);
    this.byFilter.set(key, scan);
    if (this.byFilter.size > 16) this.byFilter.delete(this.byFilter.keys().next().value!);
  }

  forget(key: string): void {
    this.byFilter.delete(key);
  }
}

/**
 * RangeError for a bad `fromPosition` or `maxCount`; TypeError for a bad filter; PositionMappingError for an unmappable position.
 * With `emptyScans`, a scan within one that found none goes on from its end, unless the record it ended at is no longer there (a log
 * replaced under the process).
 */
export async function scanAll(
  read: ForwardsRead,
  options: ReadAllOptions,
  pageSize: number,
  emptyScans?: EmptyScans,
): Promise<RecordedEvent[]> {
  const fromPosition = options.fromPosition ?? LOG_START;
  const maxCount = options.maxCount ?? DEFAULT_EVENTSTOREDB_READ_ALL_MAX_COUNT;
  assertPortPosition(fromPosition);
  if (!Number.isInteger(maxCount) || maxCount < 1) throw new RangeError(`maxCount must be an integer ≥ 1, got ${maxCount}`);
  const filter = normaliseFilter(options.filter);
  const key = JSON.stringify(filter);
  const known = emptyScans?.covering(key, fromPosition) ?? null;
  if (known !== null) {
    // A read from where no record starts fails: the log was replaced, and is scanned again.
    const scan = await scanFrom(read, known.through, true, fromPosition, maxCount, filter, pageSize).catch(() => null);
    if (scan !== null) {
      if (scan.found.length === 0) emptyScans?.remember(key, { from: known.from, through: scan.through ?? known.through });
      return scan.found;
    }
    emptyScans?.forget(key);
  }
  const scan = (await scanFrom(read, toReadPosition(fromPosition), false, fromPosition, maxCount, filter, pageSize))!;
  if (scan.found.length === 0 && scan.through !== null) emptyScans?.remember(key, { from: fromPosition, through: scan.through });
  return scan.found;
}

/** From `start` (a record's position: it is skipped) on; `through` the last record read; null when `verify` and none is at `start`. */
async function scanFrom(
  read: ForwardsRead,
  start: ReadPosition,
  verify: boolean,
  fromPosition: LogPosition,
  maxCount: number,
  filter: NormalisedFilter | null,
  pageSize: number,
): Promise<{ found: RecordedEvent[]; through: Position | null } | null> {
  const found: RecordedEvent[] = [];
  let cursor = start;
  let skip: Position | null = typeof cursor === 'string' ? null : cursor;
  let through: Position | null = skip;
  for (let first = true; ; first = false) {
    const page = await read(cursor, pageSize);
    const at = page[0]?.event?.position;
    if (first && verify && skip !== null && (at === undefined || !samePosition(at, skip))) return null;
    let fresh = 0;
    let last: Position | null = null;
    for (const { event } of page) {
      if (event === undefined) continue;
      last = event.position;
      if (skip !== null && samePosition(event.position, skip)) continue;
      fresh++;
      through = event.position;
      if (isSystemEvent(event.streamId, event.type) || !matchesEventFilter(filter, event.streamId, event.type)) continue;
      const recorded = fromClientEvent(event, event.position);
      if (recorded.position <= fromPosition) continue;
      found.push(recorded);
      if (found.length === maxCount) return { found, through };
    }
    if (page.length < pageSize || fresh === 0 || last === null) return { found, through };
    cursor = last;
    skip = last;
  }
}
