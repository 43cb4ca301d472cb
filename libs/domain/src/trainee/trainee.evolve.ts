import type { TraineeEvent } from './trainee.events';
import type { Trainee, TraineeState } from './trainee.state';

/**
 * Applies one event to a trainee's state and returns the new state (pure; never mutates its
 * input). Events for a trainee that does not exist yet, other than `TraineeRegistered`, are
 * ignored, so a projector fed a partial stream never throws.
 */
export function evolve(state: TraineeState, event: TraineeEvent): TraineeState {
  if (event.type === 'TraineeRegistered') {
    const d = event.data;
    const trainee: Trainee = {
      trainee_id: d.trainee_id,
      ukprn: d.ukprn,
      record_source: d.record_source,
      details: { ...d.details },
      state: 'draft',
      trn: null,
      submitted_for_trn_at: null,
      outcome_date: null,
      recommended_for_award_at: null,
      awarded_at: null,
      defer_date: null,
      defer_reason: null,
      reinstate_date: null,
      withdrawal: null,
      placements: [],
      degrees: [],
      created_at: d.at,
      updated_at: d.at,
    };
    return { exists: true, trainee };
  }
  if (!state.exists) return state;
  const t = state.trainee;
  switch (event.type) {
    case 'TraineeSubmittedForTrn':
      return next({ ...t, state: 'submitted_for_trn', submitted_for_trn_at: event.data.at }, event.data.at);
    case 'TraineeUpdated':
      return next({ ...t, details: { ...t.details, ...event.data.changes } }, event.data.at);
    case 'PlacementAdded':
      return next({ ...t, placements: [...t.placements, event.data.placement] }, event.data.at);
    case 'PlacementUpdated': {
      const p = event.data.placement;
      return next({ ...t, placements: t.placements.map((x) => (x.placement_id === p.placement_id ? p : x)) }, event.data.at);
    }
    case 'PlacementRemoved':
      return next({ ...t, placements: t.placements.filter((x) => x.placement_id !== event.data.placement_id) }, event.data.at);
    case 'DegreeAdded':
      return next({ ...t, degrees: [...t.degrees, event.data.degree] }, event.data.at);
    case 'DegreeUpdated': {
      const d = event.data.degree;
      return next({ ...t, degrees: t.degrees.map((x) => (x.degree_id === d.degree_id ? d : x)) }, event.data.at);
    }
    case 'DegreeRemoved':
      return next({ ...t, degrees: t.degrees.filter((x) => x.degree_id !== event.data.degree_id) }, event.data.at);
    case 'TraineeDeferred':
      return next({ ...t, state: 'deferred', defer_date: event.data.defer_date, defer_reason: event.data.defer_reason }, event.data.at);
    case 'TraineeWithdrawn':
      return next({ ...t, state: 'withdrawn', withdrawal: { ...event.data.withdrawal } }, event.data.at);
    case 'TraineeRecommendedForAward':
      return next(
        { ...t, state: 'recommended_for_award', outcome_date: event.data.outcome_date, recommended_for_award_at: event.data.at },
        event.data.at,
      );
    case 'TrnIssued':
      // A deferred, withdrawn or already recommended trainee keeps its state (docs/reference/API-FACTS.md §12.1).
      return next({ ...t, trn: event.data.trn, state: t.state === 'submitted_for_trn' ? 'trn_received' : t.state }, event.data.at);
    case 'TraineeAwarded':
      return next({ ...t, state: 'awarded', awarded_at: event.data.awarded_at }, event.data.at);
    default:
      return state;
  }
}

function next(trainee: Trainee, at: string): TraineeState {
  return { exists: true, trainee: { ...trainee, updated_at: at > trainee.updated_at ? at : trainee.updated_at } };
}

/** Folds a whole stream into a state. */
export function evolveAll(events: Iterable<TraineeEvent>, from: TraineeState = { exists: false }): TraineeState {
  let state = from;
  for (const e of events) state = evolve(state, e);
  return state;
}
