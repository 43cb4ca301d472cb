import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CURSOR_CODEC, type CursorCodec } from '@app/changes';
import {
  loadTraineeHistory,
  readTimelinePage,
  TIMELINE_SOURCE,
  type TimelineSource,
  timelineForProvider,
  traineeAsOf,
  type TimelineEntry,
  findOwnTrainee,
  TRAINEE_READ_MODEL,
  type TraineeReadModel,
} from '@app/trainees/read';
import type { Caller } from '@app/trainees/write';
import { NotFound, ValidationFailed } from '@app/trainees/decider';
import { type Trainee } from '@app/trainees/record';
import { EVENT_STORE, type EventStore } from '@app/event-sourcing';
import { HistoryCursors, refuseUnknownHistoryParameters, toHistoryRequest } from './trainee-history.params';
import { parseAsOf } from '../as-of';

/** The message of the 422 for a bad `as_of`. */
export const INVALID_AS_OF = 'as_of is not a valid ISO 8601 instant';

/**
 * The audit history of one of the caller's trainees: a page of its timeline (`query`: the raw
 * query, whose `after` and `limit` choose the page), or (with `as_of`, the raw query value) the
 * trainee as it stood at that instant.
 */
export class TraineeHistoryQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string,
    readonly query: Record<string, unknown>,
  ) {}
}

/**
 * A timeline entry as a provider is answered it: without the event's global `position`, which
 * between a trainee's events would tell the service's write volume (docs/DESIGN.md "Who holds
 * what"); the revision places it in the stream.
 */
export type ProviderTimelineEntry = Omit<TimelineEntry, 'position'>;

/** A page of the timeline as answered: its entries, the cursor to send next, and whether more are stored. */
export interface TimelinePageAnswer {
  data: ProviderTimelineEntry[];
  /** The place after the page's last entry (with no entry, the one sent, or the start's). */
  next_cursor: string;
  has_more: boolean;
}

export type TraineeHistoryAnswer = { kind: 'timeline'; page: TimelinePageAnswer } | { kind: 'as_of'; trainee: Trainee };

/**
 * Reads the trainee's stream from the event log (the one answer that reads the log on purpose,
 * docs/DESIGN.md "The shape"); the trainee read model finds the caller's trainee (the ownership
 * rule, `findOwnTrainee`) and its stored id.
 *
 * A timeline page reads only its own events (`readTimelinePage`: `limit + 1` events from the
 * cursor's revision) and the lifecycle state the cursor carries, so its cost does not grow with
 * the stream; its cursors are sealed for the caller's provider and this trainee (`HistoryCursors`).
 * `as_of` replays the stream up to the instant. Errors: NotFound (404) for an unknown trainee,
 * another provider's (docs/DESIGN.md property 6) and one that did not exist yet at `as_of`;
 * ValidationFailed (422) for a bad `as_of`; ListQueryInvalid (422, keyed by parameter) for a bad
 * `after` or `limit`, or a parameter the endpoint does not take (docs/operations.md "Trainee history").
 */
@QueryHandler(TraineeHistoryQuery)
export class TraineeHistoryHandler implements IQueryHandler<TraineeHistoryQuery, TraineeHistoryAnswer> {
  constructor(
    @Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
    @Inject(TIMELINE_SOURCE) private readonly timeline: TimelineSource,
    @Inject(CURSOR_CODEC) private readonly codec: CursorCodec,
  ) {}

  async execute({ caller, traineeId, query }: TraineeHistoryQuery): Promise<TraineeHistoryAnswer> {
    const own = await findOwnTrainee(this.trainees, caller.ukprn, traineeId);
    refuseUnknownHistoryParameters(query);
    if (query.as_of !== undefined) return this.asOf(own.trainee_id, query.as_of);
    const cursors = new HistoryCursors(this.codec, caller.ukprn, own.trainee_id);
    const { from, limit } = toHistoryRequest(query, cursors);
    const page = await readTimelinePage(this.timeline, own.trainee_id, from, limit);
    if (from.revision === 0 && page.entries.length === 0) throw new NotFound('Trainee');
    return {
      kind: 'timeline',
      page: { data: answeredEntries(page.entries, caller.ukprn), next_cursor: cursors.encode(page.next), has_more: page.hasMore },
    };
  }

  private async asOf(storedId: string, asOf: unknown): Promise<TraineeHistoryAnswer> {
    const history = await loadTraineeHistory(this.eventStore, storedId);
    if (!history) throw new NotFound('Trainee');
    const instant = parseAsOf(asOf);
    if (!instant) throw new ValidationFailed([INVALID_AS_OF]);
    const trainee = traineeAsOf(history.events, instant);
    if (!trainee) throw new NotFound('Trainee');
    return { kind: 'as_of', trainee };
  }
}

/** The entries of a page as the provider `ukprn` is answered them (`timelineForProvider`), each without its global position. */
function answeredEntries(entries: readonly TimelineEntry[], ukprn: string): ProviderTimelineEntry[] {
  return timelineForProvider(entries, ukprn).map(({ position: _position, ...entry }) => entry);
}
