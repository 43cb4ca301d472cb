import type { ApiVersion } from '../api-version';
import { MissingData, NotFound, StateTransitionError, ValidationFailed, DuplicateTrainee } from '../errors';
import type { RegisterTrainee, TraineeCommand, UpdateTrainee } from './trainee.commands';
import { findDuplicates } from './trainee.duplicates';
import type { TraineeEvent } from './trainee.events';
import type { Trainee, TraineeState } from './trainee.state';
import { isActionAllowed } from './trainee.state-machine';
import { DISABILITY_KEY, toCanonicalInput, TRAINEE_INPUT_KEYS, validateNewTrainee, validateTraineeUpdate } from './validation';

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
  }
}

/** `YYYY-MM-DD` of an ISO 8601 instant, in UTC. */
export function utcDate(instant: string): string {
  return instant.slice(0, 10);
}

function register(cmd: RegisterTrainee, state: TraineeState): TraineeEvent[] {
  if (state.exists) throw new Error(`trainee ${cmd.trainee_id} already exists`);
  requireTraineeData(cmd.input, cmd.version);
  const result = validateNewTrainee(cmd.input, { version: cmd.version, today: utcDate(cmd.now) });
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

/** The trainee if it exists and belongs to `ukprn`; else 404 (DESIGN.md property 6). */
export function ownTrainee(state: TraineeState, ukprn: string): Trainee {
  if (!state.exists || state.trainee.ukprn !== ukprn) throw new NotFound('Trainee');
  return state.trainee;
}

function requireAllowed(trainee: Trainee, version: ApiVersion): void {
  if (!isActionAllowed('update', trainee.state, version)) throw new StateTransitionError();
}

/** `data` must be a non-empty object (API-FACTS §5.1; DESIGN.md ruling 4). */
export function requireData(input: unknown): asserts input is Record<string, unknown> {
  if (input === null || typeof input !== 'object' || Array.isArray(input) || Object.keys(input).length === 0) {
    throw new MissingData();
  }
}

const PERMITTED_KEYS: ReadonlySet<string> = new Set<string>([...TRAINEE_INPUT_KEYS, 'placements_attributes', 'degrees_attributes']);

/**
 * `data` must be a non-empty object holding at least one key the version accepts for a trainee;
 * unknown keys are otherwise ignored (API-FACTS §5.1, §5.3).
 */
export function requireTraineeData(input: unknown, version: ApiVersion): asserts input is Record<string, unknown> {
  requireData(input);
  const keys = Object.keys(toCanonicalInput(input, version));
  if (!keys.some((k) => PERMITTED_KEYS.has(k) || DISABILITY_KEY.test(k))) throw new MissingData();
}
