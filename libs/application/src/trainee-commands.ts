import { createHash } from 'node:crypto';
import { ConcurrentModification, decide, decodeTraineeEvent, type DeferralFields, type DegreeFields, duplicateGuardKey, evolve, evolveAll, initialTraineeState, NotFound, type PlacementFields, type RecommendationFields, REGISTRATION_GUARD_STREAM_PREFIX, type RegistrationClaimed, type RequestData, requireData, toEventData, type Trainee, type TraineeCommand, type TraineeEvent, type TraineeFields, type TraineeRules, type TraineeState, traineeStreamId, utcDate, validateNewTrainee, ValidationFailed, type WithdrawalFields, type WriteContext } from '@app/domain';
import { type EventStore, newEventId, runCommand, WrongExpectedVersionError } from '@app/event-store';
import { type SchoolDirectory, type TraineeReadModel } from '@app/read-model';
import { KeyedLock } from './keyed-lock';

/**
 * Who is writing: the caller's provider and token, the API version name the request used (recorded
 * in the events' metadata) and the request id.
 */
export interface Caller {
  ukprn: string;
  tokenId: string | null;
  apiVersion: string;
  requestId: string | null;
}

export interface TraineeCommandsDeps {
  eventStore: EventStore;
  readModel: TraineeReadModel;
  schools: SchoolDirectory;
  /** Resolves once the projections have applied every event up to `position`. */
  waitForProjection(position: number): Promise<unknown>;
  newId(): string;
  clock?: () => Date;
}

/** How long a registration claim without its trainee stream counts as in flight, in ms. */
const CLAIM_IN_FLIGHT_MS = 10_000;
const MAX_REGISTRATION_ATTEMPTS = 50;

/**
 * The write side for trainees: load the stream, decide, append with the revision read, wait for
 * the projection (read-your-writes, docs/DESIGN.md property 1), return the trainee as written.
 * Errors: the domain's (`ValidationFailed`, `MissingData`, `DuplicateTrainee`, `NotFound`,
 * `StateTransitionError`) and `ConcurrentModification` after bounded retries.
 */
export class TraineeCommands {
  private readonly clock: () => Date;
  private readonly locks = new KeyedLock();

  constructor(private readonly deps: TraineeCommandsDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /**
   * POST /trainees. Duplicates are race-free (docs/DESIGN.md property 3): before appending, the writer
   * appends a claim to a guard stream shared by every possible duplicate (same provider, date of
   * birth, route and last name) with the revision it read, so of N concurrent identical creates
   * exactly one gets through; the others re-read, see the winner and answer 409.
   */
  async register(caller: Caller, rules: TraineeRules, data: RequestData<TraineeFields>): Promise<Trainee> {
    const input = requireData(data);
    const now = this.clock().toISOString();
    const schools = await this.deps.schools.findByUrns(urnsOf(input.fields.placements_attributes));
    const checked = validateNewTrainee(input.fields, input.problems, { rules, today: utcDate(now), schools });
    if (!checked.ok) throw new ValidationFailed(checked.errors);
    const details = checked.value.details;
    const guardStream =
      REGISTRATION_GUARD_STREAM_PREFIX +
      createHash('sha256').update(duplicateGuardKey(caller.ukprn, details)).digest('hex').slice(0, 40);
    const { eventStore, readModel } = this.deps;

    for (let attempt = 0; attempt < MAX_REGISTRATION_ATTEMPTS; attempt++) {
      const claims = await eventStore.readStream(guardStream);
      const candidates = await readModel.findDuplicateCandidates(
        caller.ukprn,
        details.date_of_birth,
        details.training_route,
        details.last_name,
      );
      const known = new Set(candidates.map((t) => t.trainee_id));
      let inFlight = false;
      for (const claim of claims) {
        const { trainee_id, at } = (claim.data as RegistrationClaimed['data']) ?? {};
        if (!trainee_id || known.has(trainee_id)) continue;
        const state = await this.load(trainee_id);
        if (state.exists) candidates.push(state.trainee);
        else if (Date.parse(now) - Date.parse(at) < CLAIM_IN_FLIGHT_MS) inFlight = true;
      }
      if (inFlight) {
        await sleep(10 + attempt * 5);
        continue;
      }

      const traineeId = this.deps.newId();
      const nested = arrayLength(input.fields.placements_attributes) + arrayLength(input.fields.degrees_attributes);
      const events = decide(
        {
          type: 'RegisterTrainee',
          trainee_id: traineeId,
          ukprn: caller.ukprn,
          rules,
          data,
          now,
          new_ids: Array.from({ length: nested }, () => this.deps.newId()),
          duplicate_candidates: candidates,
          schools,
        },
        initialTraineeState,
      );
      const ctx = this.context(caller, now);
      const claim: RegistrationClaimed = { type: 'RegistrationClaimed', data: { trainee_id: traineeId, at: now } };
      try {
        await eventStore.appendToStream(guardStream, toEventData([claim], ctx, newEventId), {
          expectedRevision: claims.length === 0 ? 'no_stream' : claims[claims.length - 1].streamRevision,
        });
      } catch (err) {
        if (err instanceof WrongExpectedVersionError) continue;
        throw err;
      }
      const result = await eventStore.appendToStream(traineeStreamId(traineeId), toEventData(events, ctx, newEventId), {
        expectedRevision: 'no_stream',
      });
      await this.deps.waitForProjection(result.position);
      return traineeOf(evolveAll(events));
    }
    throw new ConcurrentModification();
  }

  /** PUT or PATCH /trainees/{trainee_id}: merge semantics (docs/reference/API-FACTS.md §7). */
  update(caller: Caller, rules: TraineeRules, traineeId: string, data: RequestData<TraineeFields>): Promise<Trainee> {
    return this.execute(caller, traineeId, (id, now) => ({ type: 'UpdateTrainee', trainee_id: id, ukprn: caller.ukprn, rules, data, now }));
  }

  /** POST …/placements: returns the trainee and the new placement's id. */
  async addPlacement(caller: Caller, rules: TraineeRules, traineeId: string, data: RequestData<PlacementFields>): Promise<{ trainee: Trainee; placementId: string }> {
    const placementId = this.deps.newId();
    const schools = await this.deps.schools.findByUrns(urnsOf(data.kind === 'data' ? [data.fields] : []));
    const trainee = await this.execute(caller, traineeId, (id, now) => ({
      type: 'AddPlacement', trainee_id: id, ukprn: caller.ukprn, rules, now, placement_id: placementId, data, schools,
    }));
    return { trainee, placementId };
  }

  /** PUT or PATCH …/placements/{placement_id}. */
  async updatePlacement(caller: Caller, rules: TraineeRules, traineeId: string, placementId: string, data: RequestData<PlacementFields>): Promise<Trainee> {
    // Only a URN sent links a school: a partial update without one unlinks (docs/reference/API-FACTS.md §10.5).
    const schools = await this.deps.schools.findByUrns(urnsOf(data.kind === 'data' ? [data.fields] : []));
    return this.execute(caller, traineeId, (id, now) => ({
      type: 'UpdatePlacement', trainee_id: id, ukprn: caller.ukprn, rules, now, placement_id: placementId, data, schools,
    }));
  }

  /** DELETE …/placements/{placement_id}: returns the trainee after the removal. */
  removePlacement(caller: Caller, rules: TraineeRules, traineeId: string, placementId: string): Promise<Trainee> {
    return this.execute(caller, traineeId, (id, now) => ({ type: 'RemovePlacement', trainee_id: id, ukprn: caller.ukprn, rules, now, placement_id: placementId }));
  }

  /** POST …/degrees: returns the trainee and the new degree's id. */
  async addDegree(caller: Caller, rules: TraineeRules, traineeId: string, data: RequestData<DegreeFields>): Promise<{ trainee: Trainee; degreeId: string }> {
    const degreeId = this.deps.newId();
    const trainee = await this.execute(caller, traineeId, (id, now) => ({ type: 'AddDegree', trainee_id: id, ukprn: caller.ukprn, rules, now, degree_id: degreeId, data }));
    return { trainee, degreeId };
  }

  /** PUT or PATCH …/degrees/{degree_id}. */
  updateDegree(caller: Caller, rules: TraineeRules, traineeId: string, degreeId: string, data: RequestData<DegreeFields>): Promise<Trainee> {
    return this.execute(caller, traineeId, (id, now) => ({ type: 'UpdateDegree', trainee_id: id, ukprn: caller.ukprn, rules, now, degree_id: degreeId, data }));
  }

  /** DELETE …/degrees/{degree_id}: returns the trainee after the removal. */
  removeDegree(caller: Caller, rules: TraineeRules, traineeId: string, degreeId: string): Promise<Trainee> {
    return this.execute(caller, traineeId, (id, now) => ({ type: 'RemoveDegree', trainee_id: id, ukprn: caller.ukprn, rules, now, degree_id: degreeId }));
  }

  /** POST …/defer (docs/spec/trainee-records-api.md; docs/reference/API-FACTS.md §12.3). */
  defer(caller: Caller, rules: TraineeRules, traineeId: string, data: RequestData<DeferralFields>): Promise<Trainee> {
    return this.execute(caller, traineeId, (id, now) => ({ type: 'DeferTrainee', trainee_id: id, ukprn: caller.ukprn, rules, now, data }));
  }

  /** POST …/withdraw (docs/spec/trainee-records-api.md; docs/reference/API-FACTS.md §12.4). */
  withdraw(caller: Caller, rules: TraineeRules, traineeId: string, data: RequestData<WithdrawalFields>): Promise<Trainee> {
    return this.execute(caller, traineeId, (id, now) => ({ type: 'WithdrawTrainee', trainee_id: id, ukprn: caller.ukprn, rules, now, data }));
  }

  /** POST …/recommend-for-qts (docs/spec/trainee-records-api.md; docs/reference/API-FACTS.md §12.5; docs/DESIGN.md ruling 8). */
  recommendForAward(caller: Caller, rules: TraineeRules, traineeId: string, data: RequestData<RecommendationFields>): Promise<Trainee> {
    return this.execute(caller, traineeId, (id, now) => ({ type: 'RecommendForAward', trainee_id: id, ukprn: caller.ukprn, rules, now, data }));
  }

  /**
   * Runs a command on the caller's trainee: one writer per trainee at a time in this process
   * ({@link KeyedLock}), optimistic concurrency against other processes, then read-your-writes.
   */
  private async execute(caller: Caller, traineeId: string, command: (id: string, now: string) => TraineeCommand): Promise<Trainee> {
    const id = await this.resolveId(caller, traineeId);
    return this.locks.run(id, async () => {
      const now = this.clock().toISOString();
      const ctx = this.context(caller, now);
      const cmd = command(id, now);
      try {
        const outcome = await runCommand<TraineeState, TraineeEvent>(this.deps.eventStore, traineeStreamId(id), {
          initialState: initialTraineeState,
          evolve,
          decode: decodeTraineeEvent,
          decide: (state) => decide(cmd, state),
          encode: (events) => toEventData(events, ctx, newEventId),
        });
        if (outcome.position !== null) await this.deps.waitForProjection(outcome.position);
        return traineeOf(outcome.state);
      } catch (err) {
        if (err instanceof WrongExpectedVersionError) throw new ConcurrentModification();
        throw err;
      }
    });
  }

  /** The stored id of the caller's trainee (ids match case-insensitively); 404 otherwise. */
  private async resolveId(caller: Caller, traineeId: string): Promise<string> {
    const trainee = await this.deps.readModel.getTrainee(traineeId);
    if (!trainee || trainee.ukprn !== caller.ukprn) throw new NotFound('Trainee');
    return trainee.trainee_id;
  }

  private async load(traineeId: string): Promise<TraineeState> {
    const recorded = await this.deps.eventStore.readStream(traineeStreamId(traineeId));
    let state: TraineeState = initialTraineeState;
    for (const r of recorded) {
      const e = decodeTraineeEvent(r);
      if (e) state = evolve(state, e);
    }
    return state;
  }

  private context(caller: Caller, now: string): WriteContext {
    return {
      occurredAt: now,
      providerUkprn: caller.ukprn,
      apiVersion: caller.apiVersion,
      requestId: caller.requestId,
      tokenId: caller.tokenId,
    };
  }
}

function traineeOf(state: TraineeState): Trainee {
  if (!state.exists) throw new Error('expected a trainee');
  return state.trainee;
}

/** The URNs named by placement fields (used to look schools up before deciding). */
function urnsOf(items: readonly PlacementFields[] | null | '' | undefined): string[] {
  if (!Array.isArray(items)) return [];
  return items.map((p) => p.urn).filter((urn): urn is string => typeof urn === 'string' && /^\d{6}$/.test(urn));
}

function arrayLength(value: readonly unknown[] | null | '' | undefined): number {
  return Array.isArray(value) ? value.length : 0;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
