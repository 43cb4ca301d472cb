import {
  ConcurrentModification,
  decodeTraineeEvent,
  evolve,
  evolveAll,
  initialTraineeState,
  NotFound,
  traineeStreamId,
  type TraineeEvent,
  type TraineeState,
} from '@app/trainees/decider';
import type { Trainee, PlacementFields, School } from '@app/trainees/record';
import {
  DomainError,
  toEventData,
  type WriteContext,
  newEventId,
  runCommand,
  WrongExpectedVersionError,
  type EventStore,
  type StreamSnapshot,
} from '@app/event-sourcing';
import type { Caller } from './caller';
import type { SchoolLookup, TraineeSnapshots, TraineeWritePorts } from './trainee-write.ports';

/** What a command decides on: the stored trainee id (as the read model spells it) and the request's instant. */
export interface CommandContext {
  traineeId: string;
  /** ISO 8601 instant, UTC, milliseconds. */
  now: string;
}

/**
 * Runs `decision` on an existing trainee: from the read model's snapshot plus the stream's tail (so a document behind the log
 * decides on what the log holds, docs/DESIGN.md "Failures of the subscription"), one writer per trainee in this process, appended
 * with the revision read, answered once projected (docs/DESIGN.md property 1). Ownership is the decider's check (property 6).
 * Throws NotFound, the decider's errors, `ConcurrentModification` once retries are spent, {@link TraineeHistoryUnreadable}.
 */
export async function handleTraineeCommand(
  ports: TraineeWritePorts,
  caller: Caller,
  traineeId: string,
  decision: (state: TraineeState, context: CommandContext) => TraineeEvent[],
): Promise<Trainee> {
  const start = await startingPoint(ports.trainees, traineeId);
  const id = start.traineeId;
  return ports.locks.run(id, async () => {
    const now = ports.clock().toISOString();
    const ctx = writeContext(caller, now);
    try {
      const outcome = await runCommand<TraineeState, TraineeEvent>(ports.eventStore, traineeStreamId(id), {
        initialState: initialTraineeState,
        snapshot: start.snapshot,
        evolve,
        evolveAll: (events, from) => readable(() => evolveAll(events, from)),
        decode: (recorded) => readable(() => decodeTraineeEvent(recorded)),
        decide: (state) => decision(state, { traineeId: id, now }),
        encode: (events) => toEventData(events, ctx, newEventId),
      });
      if (outcome.position !== null) await ports.projection.waitFor(outcome.position);
      return traineeOf(outcome.state);
    } catch (err) {
      if (err instanceof WrongExpectedVersionError) throw new ConcurrentModification();
      throw err;
    }
  });
}

/** A stored event of the trainee cannot be folded (nor projected): 422, without the internal error. */
export class TraineeHistoryUnreadable extends DomainError {
  readonly kind = 'TraineeHistoryUnreadable';
  constructor() {
    super('This trainee’s stored history cannot be read at the moment, so it cannot be changed; contact support');
  }
}

/** A failure other than a domain error becomes {@link TraineeHistoryUnreadable}. */
function readable<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw new TraineeHistoryUnreadable();
  }
}

/** The stored id and the snapshot to start from; none (replay) when the read model has none for this projection version. NotFound. */
async function startingPoint(
  trainees: TraineeSnapshots,
  traineeId: string,
): Promise<{ traineeId: string; snapshot: StreamSnapshot<TraineeState> | null }> {
  const snapshot = await trainees.getTraineeSnapshot(traineeId);
  if (snapshot) {
    return {
      traineeId: snapshot.trainee.trainee_id,
      snapshot: { state: { exists: true, trainee: snapshot.trainee }, head: snapshot.head },
    };
  }
  const trainee = await trainees.getTrainee(traineeId);
  if (!trainee) throw new NotFound('Trainee');
  return { traineeId: trainee.trainee_id, snapshot: null };
}

/** A trainee's state from its whole stream (`{exists: false}` when the stream is empty). */
export async function loadTraineeState(eventStore: EventStore, traineeId: string): Promise<TraineeState> {
  const events: TraineeEvent[] = [];
  for (const r of await eventStore.readStream(traineeStreamId(traineeId))) {
    const e = decodeTraineeEvent(r);
    if (e) events.push(e);
  }
  return evolveAll(events);
}

/** The metadata a caller's write records (docs/DESIGN.md "Event envelope"). */
export function writeContext(caller: Caller, now: string): WriteContext {
  return {
    occurredAt: now,
    providerUkprn: caller.ukprn,
    apiVersion: caller.apiVersion,
    requestId: caller.requestId,
    // An API write is caused by its request and begins its own chain (docs/observability.md "Traces").
    causationId: caller.requestId,
    correlationId: caller.requestId,
    tokenId: caller.tokenId,
    userId: caller.userId ?? null,
  };
}

/** The trainee of a state that must hold one (after a successful command). */
export function traineeOf(state: TraineeState): Trainee {
  if (!state.exists) throw new Error('expected a trainee');
  return state.trainee;
}

/** The schools of the six-digit URNs placements name, read before deciding so `decide` stays pure (docs/reference/API-FACTS.md §10.3). */
export function schoolsNamedBy(
  schools: SchoolLookup,
  placements: readonly PlacementFields[] | null | '' | undefined,
): Promise<Map<string, School>> {
  const urns = Array.isArray(placements)
    ? placements.map((p) => p.urn).filter((urn): urn is string => typeof urn === 'string' && /^\d{6}$/.test(urn))
    : [];
  return schools.findByUrns(urns);
}
