import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { createHash } from 'node:crypto';
import {
  loadTraineeState,
  schoolsNamedBy,
  TRAINEE_WRITE_PORTS,
  traineeOf,
  writeContext,
  type Caller,
  type TraineeWritePorts,
} from '@app/trainees/write';
import {
  ConcurrentModification,
  decide,
  duplicateGuardKey,
  evolveAll,
  initialTraineeState,
  REGISTRATION_GUARD_STREAM_PREFIX,
  requireData,
  traineeStreamId,
  utcDate,
  validateNewTrainee,
  ValidationFailed,
  type RegistrationClaimed,
  type RequestData,
  type Trainee,
  type TraineeRules,
} from '@app/trainees/decider';
import { toEventData } from '@app/event-sourcing';
import type { TraineeDetails, TraineeFields } from '@app/trainees/record';
import { newEventId, WrongExpectedVersionError, type AppendResult, type RecordedEvent } from '@app/event-sourcing';

/** POST /trainees as a command: the caller, the version's rules and the checked body `data`. */
export class RegisterTraineeCommand {
  constructor(
    readonly caller: Caller,
    readonly rules: TraineeRules,
    readonly data: RequestData<TraineeFields>,
  ) {}
}

/** How long a registration claim without its trainee stream counts as in flight, in ms. */
const CLAIM_IN_FLIGHT_MS = 10_000;
/** Rounds of claim-and-check before answering 409 Conflict (concurrent identical creates). */
const MAX_REGISTRATION_ATTEMPTS = 50;

/**
 * Registers a trainee with nested placements and degrees in one append (docs/spec/trainee-records-api.md
 * "POST /trainees"); returns it as written, once projected (docs/DESIGN.md property 1).
 *
 * Duplicates are race-free (docs/DESIGN.md property 3): before appending, the writer appends a claim
 * to a guard stream shared by every possible duplicate (same provider, date of birth, route and last
 * name) with the revision it read, so of N concurrent identical creates exactly one gets through; the
 * others re-read, see the winner and answer 409. Where the store appends to several streams in one
 * transaction (`appendToStreams`, SQLite) the claim and the trainee's stream are one write, so no
 * claim is left without its trainee by a crash; elsewhere (EventStoreDB) a claim younger than
 * {@link CLAIM_IN_FLIGHT_MS} without its stream holds the others back. Errors: the domain's (`ValidationFailed`,
 * `MissingData`, `DuplicateTrainee`) and `ConcurrentModification` after bounded rounds.
 */
@CommandHandler(RegisterTraineeCommand)
export class RegisterTraineeHandler implements ICommandHandler<RegisterTraineeCommand, Trainee> {
  constructor(@Inject(TRAINEE_WRITE_PORTS) private readonly ports: TraineeWritePorts) {}

  async execute({ caller, rules, data }: RegisterTraineeCommand): Promise<Trainee> {
    const { eventStore, projection, newId } = this.ports;
    const input = requireData(data);
    const now = this.ports.clock().toISOString();
    const schools = await schoolsNamedBy(this.ports.schools, input.fields.placements_attributes);
    const checked = validateNewTrainee(input.fields, input.problems, { rules, today: utcDate(now), schools });
    if (!checked.ok) throw new ValidationFailed(checked.errors);
    const guardStream = guardStreamOf(caller.ukprn, checked.value.details);
    const ctx = writeContext(caller, now);

    for (let attempt = 0; attempt < MAX_REGISTRATION_ATTEMPTS; attempt++) {
      const claims = await eventStore.readStream(guardStream);
      const candidates = await this.candidates(caller.ukprn, checked.value.details, claims, now);
      if (candidates === 'in_flight') {
        await sleep(10 + attempt * 5);
        continue;
      }
      const traineeId = newId();
      const nested = arrayLength(input.fields.placements_attributes) + arrayLength(input.fields.degrees_attributes);
      const events = decide(
        {
          type: 'RegisterTrainee',
          trainee_id: traineeId,
          ukprn: caller.ukprn,
          rules,
          data,
          now,
          new_ids: Array.from({ length: nested }, () => newId()),
          duplicate_candidates: candidates,
          schools,
        },
        initialTraineeState,
      );
      const claim: RegistrationClaimed = { type: 'RegistrationClaimed', data: { trainee_id: traineeId, at: now } };
      const claimWrite = {
        streamId: guardStream,
        events: toEventData([claim], ctx, newEventId),
        options: { expectedRevision: claims.length === 0 ? ('no_stream' as const) : claims[claims.length - 1].streamRevision },
      };
      const traineeWrite = {
        streamId: traineeStreamId(traineeId),
        events: toEventData(events, ctx, newEventId),
        options: { expectedRevision: 'no_stream' as const },
      };
      let result: AppendResult;
      try {
        if (eventStore.appendToStreams) {
          // One transaction: no claim is ever stored without its trainee (docs/DESIGN.md property 3).
          result = (await eventStore.appendToStreams([claimWrite, traineeWrite]))[1];
        } else {
          await eventStore.appendToStream(claimWrite.streamId, claimWrite.events, claimWrite.options);
          result = await eventStore.appendToStream(traineeWrite.streamId, traineeWrite.events, traineeWrite.options);
        }
      } catch (err) {
        if (err instanceof WrongExpectedVersionError && err.streamId === guardStream) continue;
        throw err;
      }
      await projection.waitFor(result.position);
      return traineeOf(evolveAll(events));
    }
    throw new ConcurrentModification();
  }

  /**
   * The trainees a new one could duplicate: the read model's candidates plus those of claims not yet
   * projected (read from their streams); `in_flight` while a claim younger than
   * {@link CLAIM_IN_FLIGHT_MS} has no stream yet (its writer is still appending).
   */
  private async candidates(ukprn: string, details: TraineeDetails, claims: RecordedEvent[], now: string): Promise<Trainee[] | 'in_flight'> {
    const candidates = await this.ports.trainees.findDuplicateCandidates(
      ukprn,
      details.date_of_birth,
      details.training_route,
      details.last_name,
    );
    const known = new Set(candidates.map((t) => t.trainee_id));
    let inFlight = false;
    for (const claim of claims) {
      const { trainee_id, at } = (claim.data as RegistrationClaimed['data']) ?? {};
      if (!trainee_id || known.has(trainee_id)) continue;
      const state = await loadTraineeState(this.ports.eventStore, trainee_id);
      if (state.exists) candidates.push(state.trainee);
      else if (Date.parse(now) - Date.parse(at) < CLAIM_IN_FLIGHT_MS) inFlight = true;
    }
    return inFlight ? 'in_flight' : candidates;
  }
}

/** The guard stream shared by every possible duplicate of these details (docs/DESIGN.md property 3). */
function guardStreamOf(ukprn: string, details: TraineeDetails): string {
  return REGISTRATION_GUARD_STREAM_PREFIX + createHash('sha256').update(duplicateGuardKey(ukprn, details)).digest('hex').slice(0, 40);
}

function arrayLength(value: readonly unknown[] | null | '' | undefined): number {
  return Array.isArray(value) ? value.length : 0;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
