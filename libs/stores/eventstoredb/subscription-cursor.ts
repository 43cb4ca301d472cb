/**
 * The bookkeeping of the EventStoreDB subscription, kept apart from its I/O: which delivered events
 * to yield, and where to resume after a drop (see eventstoredb-subscription.ts for the protocol).
 */
import type { AllStreamResolvedEvent, Position, ReadPosition } from '@eventstore/db-client';
import type { RecordedEvent } from '@app/event-sourcing';
import { fromClientEvent } from './event-mapping';
import { isSystemEvent, matchesEventFilter, NormalisedFilter } from './filters';
import { toReadPosition } from './positions';

/**
 * Tracks the last yielded port position and the resume point of a subscription.
 * Rules: never yield an event at or below the last yielded position (so re-delivery after a
 * resubscription is dropped); skip system events and events outside the port filter; resume from
 * the last yielded event, or from a later server checkpoint once every event before it was handled.
 */
export class SubscriptionCursor {
  private last: number;
  private resume: ReadPosition;

  /** `fromPosition`: the caller's exclusive checkpoint (0 = start). RangeError when invalid. */
  constructor(
    fromPosition: number,
    private readonly filter: NormalisedFilter | null,
  ) {
    this.resume = toReadPosition(fromPosition);
    this.last = fromPosition;
  }

  /** Port position of the last event accepted (initially the caller's checkpoint). */
  get lastPosition(): number {
    return this.last;
  }

  /**
   * Port position the subscription has reached: the last event accepted, or a later adopted server
   * checkpoint (its commit position). What the stall check compares with the log's head.
   */
  get reached(): number {
    return typeof this.resume === 'string' ? this.last : Math.max(this.last, Number(this.resume.commit));
  }

  /** Where the next server subscription should start (`START` or a client position). */
  get resumeFrom(): ReadPosition {
    return this.resume;
  }

  /**
   * The port event to yield for a delivered item, or null to skip it (no event, system event,
   * outside the filter, or at/below the last accepted position). Accepting moves the last position
   * and the resume point to the event. Throws PositionMappingError for an unmappable position.
   */
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

  /**
   * Adopts a server checkpoint as the resume point when it lies beyond both the current resume
   * point and the last accepted event; otherwise ignores it. Call only once every event delivered
   * before the checkpoint has been passed to {@link accept} and handled.
   */
  adoptCheckpoint(position: Position): void {
    const resumeCommit = typeof this.resume === 'string' ? -1n : this.resume.commit;
    if (position.commit > resumeCommit && position.commit > BigInt(this.last)) this.resume = position;
  }
}
