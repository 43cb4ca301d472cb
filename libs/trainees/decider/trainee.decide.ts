import { DuplicateDegree, DuplicateTrainee, MissingData, NotFound, StateTransitionError, ValidationFailed } from './trainee.errors';
import { ERASE_REASON_MAX_LENGTH, ERASED_BY_MAX_LENGTH } from './trainee.commands';
import type {
  AddDegree,
  AddPlacement,
  DeferTrainee,
  EraseTrainee,
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
import {
  lifecycleRecordOf,
  type Degree,
  type DegreeInput,
  type LifecycleBody,
  type LifecycleStored,
  type Placement,
  type PlacementInput,
  type Trainee,
} from '@app/trainees/record';
import { findDuplicates, isDuplicateDegree } from './trainee.duplicates';
import { TOO_MANY_DEGREES, TOO_MANY_PLACEMENTS, TRAINEE_DEGREES_MAX, TRAINEE_PLACEMENTS_MAX } from './trainee.limits';
import { LIFECYCLE_EVENTS, type TraineeEvent } from './trainee.events';
import type { TraineeRules } from './trainee.rules';
import type { TraineeState } from './trainee.state';
import { isActionAllowed, type TraineeAction } from './trainee.state-machine';
import { validateDegree, validateDegreeUpdate } from './rules/validate-degree';
import { validateNewTrainee, validateTraineeUpdate } from './rules/validate-trainee';
import { validatePlacement, validatePlacementUpdate } from './rules/validate-placement';
import { validateDeferral, validateRecommendation, validateWithdrawal, type LifecycleRuleContext } from './rules/validate-lifecycle';
import type { RequestData } from './rules/request-data';

/**
 * The new events (possibly none) a command makes of a trainee; pure, the time and ids arrive in the command. Throws {@link MissingData},
 * {@link ValidationFailed}, {@link StateTransitionError} (422), {@link DuplicateTrainee} (409), {@link NotFound} (404).
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
    case 'EraseTrainee':
      return erase(command, state);
  }
}

/** `YYYY-MM-DD` of an ISO 8601 instant, in UTC. */
export function utcDate(instant: string): string {
  return instant.slice(0, 10);
}

function register(cmd: RegisterTrainee, state: TraineeState): TraineeEvent[] {
  if (state.exists) throw new Error(`trainee ${cmd.trainee_id} already exists`);
  const data = requireData(cmd.data);
  const result = validateNewTrainee(data.fields, data.problems, { rules: cmd.rules, today: utcDate(cmd.now), schools: cmd.schools });
  if (!result.ok) throw new ValidationFailed(result.errors, result.problems);
  const { details, placements, degrees } = result.value;
  const duplicates = findDuplicates(
    details,
    cmd.duplicate_candidates.filter((t) => t.ukprn === cmd.ukprn),
  );
  if (duplicates.length > 0) throw new DuplicateTrainee<Trainee>(duplicates);

  const ids = [...cmd.new_ids];
  const nextId = (): string => {
    const id = ids.shift();
    if (!id) throw new Error('RegisterTrainee.new_ids ran out');
    return id;
  };
  const at = cmd.now;
  const events: TraineeEvent[] = [
    {
      type: 'TraineeRegistered',
      data: { trainee_id: cmd.trainee_id, ukprn: cmd.ukprn, record_source: cmd.record_source ?? 'api', details, at },
    },
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
  const data = requireData(cmd.data);
  requireAllowed(trainee, cmd.rules);
  const result = validateTraineeUpdate(
    data.fields,
    data.problems,
    trainee.details,
    { rules: cmd.rules, today: utcDate(cmd.now) },
    { hasDegrees: trainee.degrees.length > 0 },
  );
  if (!result.ok) throw new ValidationFailed(result.errors, result.problems);
  const { changes } = result.value;
  if (Object.keys(changes).length === 0) return [];
  return [{ type: 'TraineeUpdated', data: { trainee_id: cmd.trainee_id, changes, at: cmd.now } }];
}

/** A writable trainee of the caller: exists, is the provider's, and the state machine allows writes. */
function writableTrainee(cmd: { ukprn: string; rules: TraineeRules }, state: TraineeState): Trainee {
  const trainee = ownTrainee(state, cmd.ukprn);
  requireAllowed(trainee, cmd.rules);
  return trainee;
}

function addPlacement(cmd: AddPlacement, state: TraineeState): TraineeEvent[] {
  const trainee = writableTrainee(cmd, state);
  const data = requireData(cmd.data);
  if (trainee.placements.length >= TRAINEE_PLACEMENTS_MAX) throw new ValidationFailed([TOO_MANY_PLACEMENTS]);
  const result = validatePlacement(data.fields, data.problems, { schools: cmd.schools }, { nested: false });
  if (!result.ok) throw new ValidationFailed(result.errors, result.problems);
  const placement: Placement = { placement_id: cmd.placement_id, ...result.value, created_at: cmd.now, updated_at: cmd.now };
  return [{ type: 'PlacementAdded', data: { trainee_id: trainee.trainee_id, placement, at: cmd.now } }];
}

function updatePlacement(cmd: UpdatePlacement, state: TraineeState): TraineeEvent[] {
  const trainee = writableTrainee(cmd, state);
  const stored = findPlacement(trainee, cmd.placement_id);
  const data = requireData(cmd.data);
  const current: PlacementInput = {
    urn: stored.urn,
    name: stored.name,
    postcode: stored.postcode,
    address: stored.address,
    school_id: stored.school_id,
  };
  const result = validatePlacementUpdate(data.fields, data.problems, current, { schools: cmd.schools });
  if (!result.ok) throw new ValidationFailed(result.errors, result.problems);
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
  const data = requireData(cmd.data);
  if (trainee.degrees.length >= TRAINEE_DEGREES_MAX) throw new ValidationFailed([TOO_MANY_DEGREES]);
  const result = validateDegree(data.fields, data.problems, { rules: cmd.rules, today: utcDate(cmd.now) });
  if (!result.ok) throw new ValidationFailed(result.errors, result.problems);
  const duplicates = trainee.degrees.filter((d) => isDuplicateDegree(result.value, d));
  if (duplicates.length > 0) throw new DuplicateDegree<Degree>(duplicates);
  const degree: Degree = { degree_id: cmd.degree_id, ...result.value, created_at: cmd.now, updated_at: cmd.now };
  return [{ type: 'DegreeAdded', data: { trainee_id: trainee.trainee_id, degree, at: cmd.now } }];
}

function updateDegree(cmd: UpdateDegree, state: TraineeState): TraineeEvent[] {
  const trainee = writableTrainee(cmd, state);
  const stored = findDegree(trainee, cmd.degree_id);
  const data = requireData(cmd.data);
  const { degree_id: _id, created_at: _c, updated_at: _u, ...current } = stored;
  const result = validateDegreeUpdate(data.fields, data.problems, current as DegreeInput, { rules: cmd.rules, today: utcDate(cmd.now) });
  if (!result.ok) throw new ValidationFailed(result.errors, result.problems);
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

/** The caller's trainee, if the state machine allows `action` on it; else StateTransitionError (docs/reference/API-FACTS.md §12.2). */
function actionableTrainee(cmd: { ukprn: string; rules: TraineeRules }, state: TraineeState, action: TraineeAction): Trainee {
  const trainee = ownTrainee(state, cmd.ukprn);
  if (!isActionAllowed(action, trainee.state, cmd.rules)) throw new StateTransitionError();
  return trainee;
}

/** What a lifecycle action's rules need from the command: today and the version's labels. */
function lifecycleContext(cmd: { rules: TraineeRules; now: string }): LifecycleRuleContext {
  return { today: utcDate(cmd.now), label: (field) => cmd.rules.label(field) };
}

/** The event of lifecycle action `body` recording `stored` on `trainee` at `now`. */
function lifecycleEvent<B extends LifecycleBody>(body: B, trainee: Trainee, stored: LifecycleStored<B>, now: string): TraineeEvent {
  return {
    type: LIFECYCLE_EVENTS[body],
    data: { trainee_id: trainee.trainee_id, ...lifecycleRecordOf(body, stored), at: now },
  } as TraineeEvent;
}

function defer(cmd: DeferTrainee, state: TraineeState): TraineeEvent[] {
  const trainee = actionableTrainee(cmd, state, 'defer');
  const data = requireData(cmd.data);
  const result = validateDeferral(data.fields, data.problems, lifecycleContext(cmd));
  if (!result.ok) throw new ValidationFailed(result.errors, result.problems);
  return [lifecycleEvent('deferral', trainee, result.value, cmd.now)];
}

/** Withdraw (docs/reference/API-FACTS.md §12.4): the state check, ITT started included, before any rule of the body. */
function withdraw(cmd: WithdrawTrainee, state: TraineeState): TraineeEvent[] {
  const trainee = actionableTrainee(cmd, state, 'withdraw');
  if (trainee.details.itt_start_date > utcDate(cmd.now)) throw new StateTransitionError();
  const data = requireData(cmd.data);
  const result = validateWithdrawal(data.fields, data.problems, trainee, lifecycleContext(cmd));
  if (!result.ok) throw new ValidationFailed(result.errors, result.problems);
  return [lifecycleEvent('withdrawal', trainee, result.value, cmd.now)];
}

/** Recommend for QTS/EYTS (docs/reference/API-FACTS.md §12.5; docs/DESIGN.md ruling 8: from submitted_for_trn or trn_received). */
function recommend(cmd: RecommendForAward, state: TraineeState): TraineeEvent[] {
  const trainee = actionableTrainee(cmd, state, 'recommend_for_award');
  const data = requireData(cmd.data);
  const result = validateRecommendation(data.fields, data.problems, trainee, lifecycleContext(cmd));
  if (!result.ok) throw new ValidationFailed(result.errors, result.problems);
  return [lifecycleEvent('recommendation', trainee, result.value, cmd.now)];
}

/** Records the TRN the registry issued; nothing when the trainee already has one (idempotent). */
function recordTrn(cmd: RecordTrnIssued, state: TraineeState): TraineeEvent[] {
  if (!state.exists) throw new NotFound('Trainee');
  if (state.trainee.trn) return [];
  return [{ type: 'TrnIssued', data: { trainee_id: state.trainee.trainee_id, trn: cmd.trn, at: cmd.now } }];
}

/** One `TraineeErased`. NotFound when none or erased; `RangeError` for a blank or too long reason or `erased_by` (an operator's slip). */
function erase(cmd: EraseTrainee, state: TraineeState): TraineeEvent[] {
  if (!state.exists) throw new NotFound('Trainee');
  const reason = cmd.reason.trim();
  if (reason === '' || reason.length > ERASE_REASON_MAX_LENGTH)
    throw new RangeError(`the reason must be 1 to ${ERASE_REASON_MAX_LENGTH} characters`);
  const by = cmd.erased_by.trim();
  if (by === '' || by.length > ERASED_BY_MAX_LENGTH)
    throw new RangeError(`who erases must be named in 1 to ${ERASED_BY_MAX_LENGTH} characters`);
  return [{ type: 'TraineeErased', data: { trainee_id: state.trainee.trainee_id, reason, erased_by: by, at: cmd.now } }];
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

function requireAllowed(trainee: Trainee, rules: TraineeRules): void {
  if (!isActionAllowed('update', trainee.state, rules)) throw new StateTransitionError();
}

/** The request's `data`; {@link MissingData} when missing (docs/reference/API-FACTS.md §5.1; docs/DESIGN.md ruling 4). */
export function requireData<F>(data: RequestData<F>): Extract<RequestData<F>, { kind: 'data' }> {
  if (data.kind === 'missing') throw new MissingData();
  return data;
}
