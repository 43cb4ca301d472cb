import {
  ConcurrentModification,
  decide,
  duplicateGuardKey,
  evolveAll,
  initialTraineeState,
  requireData,
  traineeStreamId,
  type RecordSource,
  type RequestData,
  type TraineeEvent,
  type TraineeRules,
} from '@app/trainees/decider';
import type { Trainee, TraineeFields } from '@app/trainees/record';
import { newEventId, toEventData } from '@app/event-sourcing';
import type { Caller } from './caller';
import { loadTraineeState, schoolsNamedBy, traineeOf, writeContext } from './handle-trainee-command';
import type { RegistrationClaim } from './registration-reservations.port';
import { CLAIM_WRITE_WITHIN_MS } from './settled-claims';
import type { TraineeWritePorts } from './trainee-write.ports';

/** How long a registration claim without its trainee stream counts as in flight, in ms. */
const CLAIM_IN_FLIGHT_MS = 10_000;
/** Rounds of claim-and-check before answering 409 Conflict (concurrent identical creates). */
const MAX_REGISTRATION_ATTEMPTS = 50;

/**
 * Registers a trainee with nested placements and degrees in one append (docs/spec/trainee-records-api.md "POST /trainees"), duplicates
 * race-free (docs/DESIGN.md "Registration reservations"). `data`: the body after the wire checks; `given.traineeId`: fixed beforehand
 * (an upload's row), else `ports.newTraineeId`. Returns the trainee once projected. Throws the decider's errors (`ValidationFailed`,
 * `MissingData`, `DuplicateTrainee`), `ConcurrentModification` after bounded rounds or past {@link CLAIM_WRITE_WITHIN_MS}.
 */
export async function registerTrainee(
  ports: TraineeWritePorts,
  caller: Caller,
  rules: TraineeRules,
  data: RequestData<TraineeFields>,
  given: { traineeId?: string; recordSource?: RecordSource } = {},
): Promise<Trainee> {
  const started = performance.now();
  const { traineeId, now, decideWith, key } = await registration(ports, caller, rules, data, given);
  if (key === null) {
    // A field of the duplicate rule is missing or malformed: the record rules refuse the body.
    decideWith([]);
    throw new Error('a registration without a date of birth, route or last name passed the record rules');
  }
  const name = ports.guardNameOf(key);
  for (let attempt = 0; attempt < MAX_REGISTRATION_ATTEMPTS; attempt++) {
    const reservation = await ports.reservations.readReservation(name);
    const others = reservation.claims.filter((c) => c.trainee_id !== traineeId); // its own, from a run that stopped, is made again
    // Claims are aged against the clock now, not the request's start: this attempt may come late.
    const found = await duplicateCandidates(ports, caller.ukprn, requireData(data).fields, others, ports.clock().toISOString());
    if (found === 'in_flight') {
      await sleep(10 + attempt * 5);
      continue;
    }
    const events = decideWith(found.candidates);
    // Stamped as written: a claim counts as in flight for CLAIM_IN_FLIGHT_MS from its write, however long the create took to get there.
    const claims = [...found.kept, { trainee_id: traineeId, at: ports.clock().toISOString() }];
    // A reservation read longer ago could have lost a settled claim since (settled-claims.ts).
    if (performance.now() - started > CLAIM_WRITE_WITHIN_MS) throw new ConcurrentModification();
    if (!(await ports.reservations.writeReservation(name, reservation.version, claims))) continue;
    ports.claimWritten?.();
    const append = toEventData(events, writeContext(caller, now), newEventId);
    const result = await ports.eventStore.appendToStream(traineeStreamId(traineeId), append, { expectedRevision: 'no_stream' });
    await ports.projection.waitFor(result.position);
    return traineeOf(evolveAll(events));
  }
  throw new ConcurrentModification();
}

async function registration(
  ports: TraineeWritePorts,
  caller: Caller,
  rules: TraineeRules,
  data: RequestData<TraineeFields>,
  given: { traineeId?: string; recordSource?: RecordSource },
): Promise<{ traineeId: string; now: string; decideWith: (candidates: Trainee[]) => TraineeEvent[]; key: string | null }> {
  const input = requireData(data);
  const now = ports.clock().toISOString();
  const schools = await schoolsNamedBy(ports.schools, input.fields.placements_attributes);
  const traineeId = given.traineeId ?? (await ports.newTraineeId());
  const nested = arrayLength(input.fields.placements_attributes) + arrayLength(input.fields.degrees_attributes);
  const newIds = Array.from({ length: nested }, () => ports.newId());
  const decideWith = (candidates: Trainee[]): TraineeEvent[] =>
    decide(
      {
        type: 'RegisterTrainee',
        trainee_id: traineeId,
        ukprn: caller.ukprn,
        rules,
        data,
        now,
        new_ids: newIds,
        duplicate_candidates: candidates,
        schools,
        record_source: given.recordSource,
      },
      initialTraineeState,
    );
  return { traineeId, now, decideWith, key: guardKeyOf(caller.ukprn, input.fields) };
}

/**
 * {@link registerTrainee}'s checks without the write (an upload's rows), against the read model and `alsoCandidates` (earlier rows of
 * the file). Returns the trainee the create would make (its id is not kept) and its duplicate key. Throws the decider's errors.
 */
export async function checkRegistration(
  ports: TraineeWritePorts,
  caller: Caller,
  rules: TraineeRules,
  data: RequestData<TraineeFields>,
  alsoCandidates: (guardKey: string) => Trainee[],
): Promise<{ trainee: Trainee; guardKey: string }> {
  const { decideWith, key } = await registration(ports, caller, rules, data, { traineeId: 'checked', recordSource: 'csv' });
  if (key === null) {
    decideWith([]);
    throw new Error('a registration without a date of birth, route or last name passed the record rules');
  }
  const { date_of_birth, training_route, last_name } = requireData(data).fields;
  const stored = await ports.trainees.findDuplicateCandidates(caller.ukprn, date_of_birth!, training_route!, last_name!);
  const events = decideWith([...stored, ...alsoCandidates(key)]);
  return { trainee: traineeOf(evolveAll(events)), guardKey: key };
}

/** Null when a field is blank (the record rules refuse the body); the wire checks normalised date and route as the record stores them. */
function guardKeyOf(ukprn: string, fields: TraineeFields): string | null {
  const { date_of_birth, training_route, last_name } = fields;
  if (!date_of_birth || !training_route || typeof last_name !== 'string' || last_name.trim() === '') return null;
  return duplicateGuardKey(ukprn, { date_of_birth, training_route, last_name });
}

/**
 * The read model's candidates plus unprojected claims' trainees, and the claims to keep (not erased trainees' nor stopped writers');
 * `in_flight` while a claim younger than {@link CLAIM_IN_FLIGHT_MS} has no stream yet.
 */
async function duplicateCandidates(
  ports: TraineeWritePorts,
  ukprn: string,
  fields: TraineeFields,
  claims: readonly RegistrationClaim[],
  now: string,
): Promise<{ candidates: Trainee[]; kept: RegistrationClaim[] } | 'in_flight'> {
  const candidates = await ports.trainees.findDuplicateCandidates(ukprn, fields.date_of_birth!, fields.training_route!, fields.last_name!);
  const known = new Set(candidates.map((t) => t.trainee_id));
  const kept: RegistrationClaim[] = [];
  let inFlight = false;
  for (const claim of claims) {
    if (known.has(claim.trainee_id)) {
      kept.push(claim);
      continue;
    }
    const state = await loadTraineeState(ports.eventStore, claim.trainee_id);
    if (state.exists) {
      candidates.push(state.trainee);
      kept.push(claim);
    } else if (!state.erased && Date.parse(now) - Date.parse(claim.at) < CLAIM_IN_FLIGHT_MS) {
      inFlight = true;
      kept.push(claim);
    }
  }
  return inFlight ? 'in_flight' : { candidates, kept };
}

function arrayLength(value: readonly unknown[] | null | '' | undefined): number {
  return Array.isArray(value) ? value.length : 0;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
