import type { ApiVersion } from '../api-version';
import { DuplicateDegree, DuplicateTrainee, MissingData, NotFound, StateTransitionError, ValidationFailed } from '../errors';
import type {
  AddDegree,
  AddPlacement,
  DeferTrainee,
  RecommendForAward,
  RecordAward,
  RecordTrnIssued,
  WithdrawTrainee,
  RegisterTrainee,
  RemoveDegree,
  RemovePlacement,
  TraineeCommand,
  UpdateDegree,
  UpdatePlacement,
  UpdateTrainee,
} from './trainee.commands';
import type { Degree, DegreeInput, Placement, PlacementInput } from './trainee.details';
import { findDuplicates, isDuplicateDegree } from './trainee.duplicates';
import type { TraineeEvent } from './trainee.events';
import type { Trainee, TraineeState } from './trainee.state';
import { isActionAllowed, type TraineeAction } from './trainee.state-machine';
import {
  DISABILITY_KEY,
  toCanonicalInput,
  TRAINEE_INPUT_KEYS,
  validateDegree,
  validateDegreeUpdate,
  validateNewTrainee,
  validatePlacement,
  validatePlacementUpdate,
  validateTraineeUpdate,
  validateDeferral,
  validateRecommendation,
  validateWithdrawal,
} from './validation';

/**
 * Decides what a command does to a trainee: returns the new events (possibly none) or throws a
 * {@link DomainError}. Pure: the time and new ids arrive inside the command.
 *
 * Errors: {@link MissingData} and {@link ValidationFailed} (422), {@link DuplicateTrainee} (409),
 * {@link NotFound} (404), {@link StateTransitionError} (422).
 */
export function decide(command: TraineeCommand, state: TraineeState): TraineeEvent[] {
  switch (command.type) {
    case 'RegisterTrainee':
      return register(command, state);
    case 'UpdateTrainee':
      return update(command, state);
    case 'AddPlacement':
      return addPlacement(command, state);
    case 'UpdatePlacement':
      return updatePlacement(command, state);
    case 'RemovePlacement':
      return removePlacement(command, state);
    case 'AddDegree':
      return addDegree(command, state);
    case 'UpdateDegree':
      return updateDegree(command, state);
    case 'RemoveDegree':
      return removeDegree(command, state);
    case 'DeferTrainee':
      return defer(command, state);
    case 'WithdrawTrainee':
      return withdraw(command, state);
    case 'RecommendForAward':
      return recommend(command, state);
    case 'RecordTrnIssued':
      return recordTrn(command, state);
    case 'RecordAward':
      return recordAward(command, state);
  }
}

/** `YYYY-MM-DD` of an ISO 8601 instant, in UTC. */
export function utcDate(instant: string): string {
  return instant.slice(0, 10);
}

function register(cmd: RegisterTrainee, state: TraineeState): TraineeEvent[] {
  if (state.exists) throw new Error(`trainee ${cmd.trainee_id} already exists`);
  requireTraineeData(cmd.input, cmd.version);
  const result = validateNewTrainee(cmd.input, { version: cmd.version, today: utcDate(cmd.now), schools: cmd.schools });
  if (!result.ok) throw new ValidationFailed(result.errors);
  const { details, placements, degrees } = result.value;
  const duplicates = findDuplicates(details, cmd.duplicate_candidates.filter((t) => t.ukprn === cmd.ukprn));
  if (duplicates.length > 0) throw new DuplicateTrainee<Trainee>(duplicates);

  const ids = [...cmd.new_ids];
  const nextId = (): string => {
    const id = ids.shift();
    if (!id) throw new Error('RegisterTrainee.new_ids ran out');
    return id;
  };
  const at = cmd.now;
  const events: TraineeEvent[] = [
    { type: 'TraineeRegistered', data: { trainee_id: cmd.trainee_id, ukprn: cmd.ukprn, record_source: 'api', details, at } },
  ];
  for (const p of placements) {
    events.push({
      type: 'PlacementAdded',
      data: { trainee_id: cmd.trainee_id, placement: { placement_id: nextId(), ...p, created_at: at, updated_at: at }, at },
    });
  }
  for (const d of degrees) {
    events.push({
      type: 'DegreeAdded',
      data: { trainee_id: cmd.trainee_id, degree: { degree_id: nextId(), ...d, created_at: at, updated_at: at }, at },
    });
  }
  events.push({ type: 'TraineeSubmittedForTrn', data: { trainee_id: cmd.trainee_id, at } });
  return events;
}

function update(cmd: UpdateTrainee, state: TraineeState): TraineeEvent[] {
  const trainee = ownTrainee(state, cmd.ukprn);
  requireTraineeData(cmd.input, cmd.version);
  requireAllowed(trainee, cmd.version);
  const result = validateTraineeUpdate(
    cmd.input,
    trainee.details,
    { version: cmd.version, today: utcDate(cmd.now) },
    { hasDegrees: trainee.degrees.length > 0 },
  );
  if (!result.ok) throw new ValidationFailed(result.errors);
  const { changes } = result.value;
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'TraineeUpdated', data: { trainee_id: cmd.trainee_id, changes, at: cmd.now } }];
}

/** A writable trainee of the caller: exists, is the provider's, and the state machine allows writes. */
function writableTrainee(cmd: { ukprn: string; version: ApiVersion }, state: TraineeState): Trainee {
  const trainee = ownTrainee(state, cmd.ukprn);
  requireAllowed(trainee, cmd.version);
  return trainee;
}

function addPlacement(cmd: AddPlacement, state: TraineeState): TraineeEvent[] {
  const trainee = writableTrainee(cmd, state);
  requireData(cmd.input);
  const result = validatePlacement(cmd.input, { version: cmd.version, today: utcDate(cmd.now), schools: cmd.schools }, { nested: false });
  if (!result.ok) throw new ValidationFailed(result.errors);
  const placement: Placement = { placement_id: cmd.placement_id, ...result.value, created_at: cmd.now, updated_at: cmd.now };
  return [{ type: 'PlacementAdded', data: { trainee_id: trainee.trainee_id, placement, at: cmd.now } }];
}

function updatePlacement(cmd: UpdatePlacement, state: TraineeState): TraineeEvent[] {
  const trainee = writableTrainee(cmd, state);
  const stored = findPlacement(trainee, cmd.placement_id);
  requireData(cmd.input);
  const current: PlacementInput = { urn: stored.urn, name: stored.name, postcode: stored.postcode, address: stored.address, school_id: stored.school_id };
  const result = validatePlacementUpdate(cmd.input, current, { version: cmd.version, today: utcDate(cmd.now), schools: cmd.schools });
  if (!result.ok) throw new ValidationFailed(result.errors);
  if (sameFields(current, result.value)) return [];
  const placement: Placement = { ...stored, ...result.value, updated_at: cmd.now };
  return [{ type: 'PlacementUpdated', data: { trainee_id: trainee.trainee_id, placement, at: cmd.now } }];
}

function removePlacement(cmd: RemovePlacement, state: TraineeState): TraineeEvent[] {
  const trainee = writableTrainee(cmd, state);
  const { placement_id } = findPlacement(trainee, cmd.placement_id);
  return [{ type: 'PlacementRemoved', data: { trainee_id: trainee.trainee_id, placement_id, at: cmd.now } }];
}

function addDegree(cmd: AddDegree, state: TraineeState): TraineeEvent[] {
  const trainee = writableTrainee(cmd, state);
  requireData(cmd.input);
  const result = validateDegree(cmd.input, { version: cmd.version, today: utcDate(cmd.now) });
  if (!result.ok) throw new ValidationFailed(result.errors);
  const duplicates = trainee.degrees.filter((d) => isDuplicateDegree(result.value, d));
  if (duplicates.length > 0) throw new DuplicateDegree<Degree>(duplicates);
  const degree: Degree = { degree_id: cmd.degree_id, ...result.value, created_at: cmd.now, updated_at: cmd.now };
  return [{ type: 'DegreeAdded', data: { trainee_id: trainee.trainee_id, degree, at: cmd.now } }];
}

function updateDegree(cmd: UpdateDegree, state: TraineeState): TraineeEvent[] {
  const trainee = writableTrainee(cmd, state);
  const stored = findDegree(trainee, cmd.degree_id);
  requireData(cmd.input);
  const { degree_id: _id, created_at: _c, updated_at: _u, ...current } = stored;
  const result = validateDegreeUpdate(cmd.input, current as DegreeInput, { version: cmd.version, today: utcDate(cmd.now) });
  if (!result.ok) throw new ValidationFailed(result.errors);
  const duplicates = trainee.degrees.filter((d) => d.degree_id !== stored.degree_id && isDuplicateDegree(result.value, d));
  if (duplicates.length > 0) throw new DuplicateDegree<Degree>(duplicates);
  if (sameFields(current, result.value)) return [];
  const degree: Degree = { ...stored, ...result.value, updated_at: cmd.now };
  return [{ type: 'DegreeUpdated', data: { trainee_id: trainee.trainee_id, degree, at: cmd.now } }];
}

function removeDegree(cmd: RemoveDegree, state: TraineeState): TraineeEvent[] {
  const trainee = writableTrainee(cmd, state);
  const { degree_id } = findDegree(trainee, cmd.degree_id);
  return [{ type: 'DegreeRemoved', data: { trainee_id: trainee.trainee_id, degree_id, at: cmd.now } }];
}

/** The caller's trainee, if the state machine allows `action` on it; else StateTransitionError (§12.2). */
function actionableTrainee(cmd: { ukprn: string; version: ApiVersion }, state: TraineeState, action: TraineeAction): Trainee {
  const trainee = ownTrainee(state, cmd.ukprn);
  if (!isActionAllowed(action, trainee.state, cmd.version)) throw new StateTransitionError();
  return trainee;
}

function defer(cmd: DeferTrainee, state: TraineeState): TraineeEvent[] {
  const trainee = actionableTrainee(cmd, state, 'defer');
  requireData(cmd.input);
  const result = validateDeferral(cmd.input, trainee, { version: cmd.version, today: utcDate(cmd.now) });
  if (!result.ok) throw new ValidationFailed(result.errors);
  return [{ type: 'TraineeDeferred', data: { trainee_id: trainee.trainee_id, ...result.value, at: cmd.now } }];
}

/**
 * Withdraw (docs/reference/API-FACTS.md §12.4): first the state check — allowed in submitted_for_trn, trn_received
 * and deferred, and only once ITT has started (itt_start_date not after today) — regardless of the
 * body; then every rule of the body.
 */
function withdraw(cmd: WithdrawTrainee, state: TraineeState): TraineeEvent[] {
  const trainee = actionableTrainee(cmd, state, 'withdraw');
  if (trainee.details.itt_start_date > utcDate(cmd.now)) throw new StateTransitionError();
  requireData(cmd.input);
  const result = validateWithdrawal(cmd.input, trainee, { version: cmd.version, today: utcDate(cmd.now) });
  if (!result.ok) throw new ValidationFailed(result.errors);
  return [{ type: 'TraineeWithdrawn', data: { trainee_id: trainee.trainee_id, withdrawal: result.value, at: cmd.now } }];
}

/** Recommend for QTS/EYTS (docs/reference/API-FACTS.md §12.5; docs/DESIGN.md ruling 8: from submitted_for_trn or trn_received). */
function recommend(cmd: RecommendForAward, state: TraineeState): TraineeEvent[] {
  const trainee = actionableTrainee(cmd, state, 'recommend_for_award');
  requireData(cmd.input);
  const result = validateRecommendation(cmd.input, trainee, { version: cmd.version, today: utcDate(cmd.now) });
  if (!result.ok) throw new ValidationFailed(result.errors);
  return [{ type: 'TraineeRecommendedForAward', data: { trainee_id: trainee.trainee_id, outcome_date: result.value.outcome_date, at: cmd.now } }];
}

/** Records the TRN the registry issued; nothing when the trainee already has one (idempotent). */
function recordTrn(cmd: RecordTrnIssued, state: TraineeState): TraineeEvent[] {
  if (!state.exists) throw new NotFound('Trainee');
  if (state.trainee.trn) return [];
  return [{ type: 'TrnIssued', data: { trainee_id: state.trainee.trainee_id, trn: cmd.trn, at: cmd.now } }];
}

/** Records the registry's award of a recommended trainee; nothing when not recommended or already awarded. */
function recordAward(cmd: RecordAward, state: TraineeState): TraineeEvent[] {
  if (!state.exists) throw new NotFound('Trainee');
  if (state.trainee.state !== 'recommended_for_award') return [];
  return [{ type: 'TraineeAwarded', data: { trainee_id: state.trainee.trainee_id, awarded_at: cmd.awarded_at, at: cmd.now } }];
}

/** The trainee's placement by id (ids match case-insensitively, docs/reference/API-FACTS.md §1.10); else 404. */
export function findPlacement(trainee: Trainee, placementId: string): Placement {
  const id = placementId.toLowerCase();
  const found = trainee.placements.find((p) => p.placement_id.toLowerCase() === id);
  if (!found) throw new NotFound('Placement');
  return found;
}

/** The trainee's degree by id (case-insensitive); else 404. */
export function findDegree(trainee: Trainee, degreeId: string): Degree {
  const id = degreeId.toLowerCase();
  const found = trainee.degrees.find((d) => d.degree_id.toLowerCase() === id);
  if (!found) throw new NotFound('Degree');
  return found;
}

function sameFields<T extends object>(a: T, b: T): boolean {
  return (Object.keys(b) as (keyof T)[]).every((k) => JSON.stringify(a[k] ?? null) === JSON.stringify(b[k] ?? null));
}

/** The trainee if it exists and belongs to `ukprn`; else 404 (docs/DESIGN.md property 6). */
export function ownTrainee(state: TraineeState, ukprn: string): Trainee {
  if (!state.exists || state.trainee.ukprn !== ukprn) throw new NotFound('Trainee');
  return state.trainee;
}

function requireAllowed(trainee: Trainee, version: ApiVersion): void {
  if (!isActionAllowed('update', trainee.state, version)) throw new StateTransitionError();
}

/** `data` must be a non-empty object (docs/reference/API-FACTS.md §5.1; docs/DESIGN.md ruling 4). */
export function requireData(input: unknown): asserts input is Record<string, unknown> {
  if (input === null || typeof input !== 'object' || Array.isArray(input) || Object.keys(input).length === 0) {
    throw new MissingData();
  }
}

const PERMITTED_KEYS: ReadonlySet<string> = new Set<string>([...TRAINEE_INPUT_KEYS, 'placements_attributes', 'degrees_attributes']);

/**
 * `data` must be a non-empty object holding at least one key the version accepts for a trainee;
 * unknown keys are otherwise ignored (docs/reference/API-FACTS.md §5.1, §5.3).
 */
export function requireTraineeData(input: unknown, version: ApiVersion): asserts input is Record<string, unknown> {
  requireData(input);
  const keys = Object.keys(toCanonicalInput(input, version));
  if (!keys.some((k) => PERMITTED_KEYS.has(k) || DISABILITY_KEY.test(k))) throw new MissingData();
}
