import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import {
  loadTraineeHistory,
  parseInstant,
  timelineForProvider,
  traineeAsOf,
  traineeTimeline,
  type TimelineEntry,
  findOwnTrainee,
  TRAINEE_READ_MODEL,
  type TraineeReadModel,
} from '@app/trainees/read';
import type { Caller } from '@app/trainees/write';
import { NotFound, ValidationFailed } from '@app/trainees/decider';
import { type Trainee } from '@app/trainees/record';
import { EVENT_STORE, type EventStore } from '@app/event-sourcing';

/** The message of the 422 for a bad `as_of`. */
export const INVALID_AS_OF = 'as_of is not a valid ISO 8601 instant';

/**
 * The audit history of one of the caller's trainees: its timeline, or (with `asOf`, the raw
 * `as_of` query value) the trainee as it stood at that instant.
 */
export class TraineeHistoryQuery {
  constructor(
    readonly caller: Caller,
    readonly traineeId: string,
    readonly asOf: unknown,
  ) {}
}

export type TraineeHistoryAnswer = { kind: 'timeline'; entries: TimelineEntry[] } | { kind: 'as_of'; trainee: Trainee };

/**
 * Replays the trainee's stream from the event log (the one answer that reads the log on purpose,
 * docs/DESIGN.md "The shape"); the trainee read model finds the caller's trainee (the ownership
 * rule, `findOwnTrainee`) and its stored id. Errors: NotFound (404) for an unknown trainee, another
 * provider's (docs/DESIGN.md property 6) and one that did not exist yet at `as_of`;
 * ValidationFailed (422) for a bad `as_of`.
 */
@QueryHandler(TraineeHistoryQuery)
export class TraineeHistoryHandler implements IQueryHandler<TraineeHistoryQuery, TraineeHistoryAnswer> {
  constructor(
    @Inject(TRAINEE_READ_MODEL) private readonly trainees: TraineeReadModel,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
  ) {}

  async execute(query: TraineeHistoryQuery): Promise<TraineeHistoryAnswer> {
    const { caller } = query;
    const own = await findOwnTrainee(this.trainees, caller.ukprn, query.traineeId);
    const history = await loadTraineeHistory(this.eventStore, own.trainee_id);
    if (!history) throw new NotFound('Trainee');
    if (query.asOf === undefined) {
      return { kind: 'timeline', entries: timelineForProvider(traineeTimeline(history.events), caller.ukprn) };
    }
    const instant = parseAsOf(query.asOf);
    if (!instant) throw new ValidationFailed([INVALID_AS_OF]);
    const trainee = traineeAsOf(history.events, instant);
    if (!trainee) throw new NotFound('Trainee');
    return { kind: 'as_of', trainee };
  }
}

/**
 * The instant of an `as_of` query value, or null. A `+` of an offset sent unencoded arrives as a
 * space (form encoding of query strings); a space just before a trailing `hh:mm` can mean nothing
 * else, so it is read as `+`.
 */
export function parseAsOf(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  return parseInstant(value.replace(/ (\d{2}(?::?\d{2})?)$/, '+$1'));
}
