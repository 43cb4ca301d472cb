import type { AllStreamResolvedEvent, Position, ReadPosition } from '@eventstore/db-client';
import type { LogPosition, RecordedEvent } from '@app/event-sourcing';
import { fromClientEvent } from './event-mapping';
import { isSystemEvent, matchesEventFilter, NormalisedFilter } from './filters';
import { toReadPosition } from './positions';

/**
 * The subscription's bookkeeping apart from its I/O (protocol: eventstoredb-subscription.ts): never yields an event at or below the
 * last yielded, nor a system event or one outside the filter; resumes from the last yielded or a later checkpoint once all before it
 * was handled.
 */
export class SubscriptionCursor {
  private last: LogPosition;
  private resume: ReadPosition;

  /** `fromPosition` exclusive (0: start); RangeError when invalid. */
  constructor(
    fromPosition: LogPosition,
    private readonly filter: NormalisedFilter | null,
  ) {
    this.resume = toReadPosition(fromPosition);
    this.last = fromPosition;
  }

  /** Initially the caller's checkpoint. */
  get lastPosition(): number {
    return this.last;
  }

  /** The last event accepted or a later adopted checkpoint: what the stall check compares with the log's head. */
  get reached(): number {
    return typeof this.resume === 'string' ? this.last : Math.max(this.last, Number(this.resume.commit));
  }

  get resumeFrom(): ReadPosition {
    return this.resume;
  }

  /** Null to skip the item; accepting moves the last position and the resume point. PositionMappingError for an unmappable position. */
  accept(resolved: AllStreamResolvedEvent): RecordedEvent | null {
    const event = resolved.event;
    if (event === undefined) return null;
    if (isSystemEvent(event.streamId, event.type)) return null;
    if (!matchesEventFilter(this.filter, event.streamId, event.type)) return null;
    const recorded = fromClientEvent(event, event.position);
    if (recorded.position <= this.last) return null;
    this.last = recorded.position;
    this.resume = event.position;
    return recorded;
  }

  /** Only once every event delivered before it was accepted and handled; ignored unless beyond the resume point and the last event. */
  adoptCheckpoint(position: Position): void {
    const resumeCommit = typeof this.resume === 'string' ? -1n : this.resume.commit;
    if (position.commit > resumeCommit && position.commit > BigInt(this.last)) this.resume = position;
  }
}
