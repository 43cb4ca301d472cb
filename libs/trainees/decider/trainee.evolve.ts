import type { TraineeEvent } from './trainee.events';
import type { TraineeState } from './trainee.state';
import { lifecycleRecordIn, noLifecycleMembers, type Trainee } from '@app/trainees/record';

/**
 * One event applied to a state, never mutating it; events before the registration are ignored, so a partial stream never throws.
 * Copies only what the event changes; for many events, {@link evolveAll} copies once per fold.
 */
export function evolve(state: TraineeState, event: TraineeEvent): TraineeState {
  if (event.type === 'TraineeRegistered') return { exists: true, trainee: registered(event.data) };
  if (!state.exists) return state;
  if (event.type === 'TraineeErased') return { exists: false, erased: true };
  const trainee = copyFor(state.trainee, event);
  apply(trainee, event);
  return { exists: true, trainee };
}

/** A copy of the trainee that {@link apply} may change for `event`: the part the event touches is copied, the rest shared. */
function copyFor(t: Trainee, event: Exclude<TraineeEvent, { type: 'TraineeRegistered' | 'TraineeErased' }>): Trainee {
  switch (event.type) {
    case 'TraineeUpdated':
      return { ...t, details: { ...t.details } };
    case 'PlacementAdded':
    case 'PlacementUpdated':
    case 'PlacementRemoved':
      return { ...t, placements: [...t.placements] };
    case 'DegreeAdded':
    case 'DegreeUpdated':
    case 'DegreeRemoved':
      return { ...t, degrees: [...t.degrees] };
    default:
      return { ...t };
  }
}

/**
 * Folds events into a state (from a snapshot's, or none), `from` unchanged: the trainee is copied once, so the cost is linear in the
 * events whatever its placements and degrees (docs/DESIGN.md "Bounded cost per trainee").
 */
export function evolveAll(events: Iterable<TraineeEvent>, from: TraineeState = { exists: false }): TraineeState {
  let trainee = from.exists ? copyOf(from.trainee) : null;
  let erased = !from.exists && from.erased === true;
  for (const event of events) {
    if (event.type === 'TraineeRegistered') trainee = registered(event.data);
    else if (event.type === 'TraineeErased') {
      if (trainee) [trainee, erased] = [null, true];
    } else if (trainee) apply(trainee, event);
  }
  if (trainee) return { exists: true, trainee };
  return erased ? { exists: false, erased: true } : { exists: false };
}

/** A copy that {@link apply} may change without touching the original (arrays and nested records copied one level). */
function copyOf(t: Trainee): Trainee {
  return { ...t, details: { ...t.details }, placements: [...t.placements], degrees: [...t.degrees] };
}

function registered(d: Extract<TraineeEvent, { type: 'TraineeRegistered' }>['data']): Trainee {
  return {
    trainee_id: d.trainee_id,
    ukprn: d.ukprn,
    record_source: d.record_source,
    details: { ...d.details },
    state: 'draft',
    trn: null,
    submitted_for_trn_at: null,
    ...noLifecycleMembers(),
    recommended_for_award_at: null,
    awarded_at: null,
    reinstate_date: null,
    placements: [],
    degrees: [],
    created_at: d.at,
    updated_at: d.at,
  };
}

/** Applies one event to a trainee the fold owns, in place; event data is kept by reference, never changed (items are replaced whole). */
function apply(t: Trainee, event: Exclude<TraineeEvent, { type: 'TraineeRegistered' | 'TraineeErased' }>): void {
  switch (event.type) {
    case 'TraineeSubmittedForTrn':
      t.state = 'submitted_for_trn';
      t.submitted_for_trn_at = event.data.at;
      break;
    case 'TraineeUpdated':
      Object.assign(t.details, event.data.changes);
      break;
    case 'PlacementAdded':
      t.placements.push(event.data.placement);
      break;
    case 'PlacementUpdated':
      replaceById(t.placements, 'placement_id', event.data.placement);
      break;
    case 'PlacementRemoved':
      removeById(t.placements, 'placement_id', event.data.placement_id);
      break;
    case 'DegreeAdded':
      t.degrees.push(event.data.degree);
      break;
    case 'DegreeUpdated':
      replaceById(t.degrees, 'degree_id', event.data.degree);
      break;
    case 'DegreeRemoved':
      removeById(t.degrees, 'degree_id', event.data.degree_id);
      break;
    case 'TraineeDeferred':
      t.state = 'deferred';
      Object.assign(t, lifecycleRecordIn('deferral', event.data));
      break;
    case 'TraineeWithdrawn':
      t.state = 'withdrawn';
      Object.assign(t, lifecycleRecordIn('withdrawal', event.data));
      break;
    case 'TraineeRecommendedForAward':
      t.state = 'recommended_for_award';
      Object.assign(t, lifecycleRecordIn('recommendation', event.data));
      t.recommended_for_award_at = event.data.at;
      break;
    case 'TrnIssued':
      // A deferred, withdrawn or already recommended trainee keeps its state (docs/reference/API-FACTS.md §12.1).
      t.trn = event.data.trn;
      if (t.state === 'submitted_for_trn') t.state = 'trn_received';
      break;
    case 'TraineeAwarded':
      t.state = 'awarded';
      t.awarded_at = event.data.awarded_at;
      break;
    default:
      return;
  }
  if (event.data.at > t.updated_at) t.updated_at = event.data.at;
}

function replaceById<K extends string, T extends Record<K, string>>(items: T[], key: K, item: T): void {
  const i = items.findIndex((x) => x[key] === item[key]);
  if (i >= 0) items[i] = item;
}

function removeById<K extends string, T extends Record<K, string>>(items: T[], key: K, id: string): void {
  const i = items.findIndex((x) => x[key] === id);
  if (i >= 0) items.splice(i, 1);
}
