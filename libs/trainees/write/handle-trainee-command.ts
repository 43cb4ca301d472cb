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
 * The write path every command on an existing trainee shares (in the style of Emmett's
 * `CommandHandler`): find the trainee and its snapshot in the read model (404 when no trainee has
 * the id), then, one writer per trainee at a time in this process, {@link runCommand} from the
 * snapshot (only the events after it are read), `decision` on the state, append with the revision
 * read, and wait for the projection (read-your-writes, docs/DESIGN.md property 1). Returns the
 * trainee after the command. Whose trainee it is, is the decider's check (`ownTrainee` in `decide`:
 * another provider's trainee is NotFound, docs/DESIGN.md property 6).
 * Errors: the decider's, `ConcurrentModification` once the retries after concurrent writes are spent,
 * and {@link TraineeHistoryUnreadable} when a stored event of the trainee cannot be folded.
 *
 * A trainee whose document is behind the log (the projector stays on an event it cannot apply,
 * see `Projector` and docs/operations.md "Health"; or an older version skipped one) is written from
 * that document with the stream's tail folded from the event log, so the write decides on what the
 * log holds, never on the document's gap (docs/DESIGN.md "Failures of the subscription"). When the
 * decider cannot fold a stored event either, nothing is appended and the request answers
 * {@link TraineeHistoryUnreadable} (422, the contract's error shape) instead of an internal error.
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

/**
 * A stored event of the trainee cannot be folded into its state (an event the projector cannot
 * apply either, see {@link handleTraineeCommand}); answered 422 without the internal error.
 */
export class TraineeHistoryUnreadable extends DomainError {
  readonly kind = 'TraineeHistoryUnreadable';
  constructor() {
    super('This trainee’s stored history cannot be read at the moment, so it cannot be changed; contact support');
  }
}

/** Runs a decode or fold of stored events, with a failure other than a domain error turned into {@link TraineeHistoryUnreadable}. */
function readable<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof DomainError) throw err;
    throw new TraineeHistoryUnreadable();
  }
}

/**
 * The stored id of a trainee and the snapshot to start from: the read model's document and
 * revision, or no snapshot (replay the stream) when the read model has none for this code's
 * projection version. NotFound when no trainee has the id.
 */
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
  };
}

/** The trainee of a state that must hold one (after a successful command). */
export function traineeOf(state: TraineeState): Trainee {
  if (!state.exists) throw new Error('expected a trainee');
  return state.trainee;
}

/**
 * The directory's schools for the URNs that placement inputs name (six digits; others are left to
 * validation), looked up before deciding so `decide` stays pure (docs/reference/API-FACTS.md §10.3).
 */
export function schoolsNamedBy(
  schools: SchoolLookup,
  placements: readonly PlacementFields[] | null | '' | undefined,
): Promise<Map<string, School>> {
  const urns = Array.isArray(placements)
    ? placements.map((p) => p.urn).filter((urn): urn is string => typeof urn === 'string' && /^\d{6}$/.test(urn))
    : [];
  return schools.findByUrns(urns);
}
