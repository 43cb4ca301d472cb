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

export const INVALID_AS_OF = 'as_of is not a valid ISO 8601 instant';

/** `query` the raw query (`after`, `limit` choose the page); with `as_of`, the trainee as it stood then. */
export class TraineeHistoryQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string,
    readonly query: Record<string, unknown>,
  ) {}
}

/**
 * Without the global `position`, which between a trainee's events would tell the service's write volume (docs/DESIGN.md "Who holds what").
 */
export type ProviderTimelineEntry = Omit<TimelineEntry, 'position'>;

export interface TimelinePageAnswer {
  data: ProviderTimelineEntry[];
  /** After the page's last entry; with no entry, the one sent, or the start's. */
  next_cursor: string;
  has_more: boolean;
}

export type TraineeHistoryAnswer = { kind: 'timeline'; page: TimelinePageAnswer } | { kind: 'as_of'; trainee: Trainee };

/**
 * Reads the trainee's stream on purpose (docs/DESIGN.md "The shape"), found through the ownership rule; a page reads only its own events
 * and its cursors are sealed for the provider and trainee. Throws NotFound (404), ValidationFailed (422) for a bad `as_of`,
 * ListQueryInvalid (422) for a bad or unknown parameter.
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

function answeredEntries(entries: readonly TimelineEntry[], ukprn: string): ProviderTimelineEntry[] {
  return timelineForProvider(entries, ukprn).map(({ position: _position, ...entry }) => entry);
}
