import {
  AWARDED_AT,
  DEFERRED_AT,
  EXAMPLE_DEGREE,
  EXAMPLE_DETAILS,
  EXAMPLE_PLACEMENT,
  EXAMPLE_WITHDRAWAL,
  RECOMMENDED_AT,
  REGISTERED_AT,
  TRN_ISSUED_AT,
  UKPRN,
  UPDATED_AT,
  WITHDRAWN_AT,
  degreeAdded,
  degreeRemoved,
  degreeUpdated,
  exampleRegistration,
  placementAdded,
  placementRemoved,
  placementUpdated,
  traineeAwarded,
  traineeDeferred,
  traineeRecommendedForAward,
  traineeSubmittedForTrn,
  traineeUpdated,
  traineeWithdrawn,
  trnIssued,
} from './testing/trainee-events';
import type { TraineeEvent } from './trainee.events';
import { evolve, evolveAll } from './trainee.evolve';
import type { TraineeState } from './trainee.state';
import type { Trainee } from '@app/trainees/record';

/** The trainee the events leave; fails the spec when they leave none. */
function traineeAfter(events: TraineeEvent[]): Trainee {
  const state = evolveAll(events);
  if (!state.exists) throw new Error('the events leave no trainee');
  return state.trainee;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The example trainee as its registration leaves it. */
const REGISTERED: Trainee = {
  trainee_id: 'T1',
  ukprn: UKPRN,
  record_source: 'api',
  details: EXAMPLE_DETAILS,
  state: 'submitted_for_trn',
  trn: null,
  submitted_for_trn_at: REGISTERED_AT,
  outcome_date: null,
  recommended_for_award_at: null,
  awarded_at: null,
  defer_date: null,
  defer_reason: null,
  reinstate_date: null,
  withdrawal: null,
  placements: [EXAMPLE_PLACEMENT],
  degrees: [EXAMPLE_DEGREE],
  created_at: REGISTERED_AT,
  updated_at: REGISTERED_AT,
};

describe('trainee evolve', () => {
  it('folds the registration into a trainee submitted for a TRN, with no TRN yet', () => {
    expect(evolveAll(exampleRegistration())).toStrictEqual({ exists: true, trainee: REGISTERED });
  });

  it('ignores events of a trainee not registered yet', () => {
    expect(evolveAll([trnIssued(), placementAdded(), traineeDeferred()])).toStrictEqual({ exists: false });
  });

  it('never changes the state it is given', () => {
    const before = deepFreeze(evolveAll(exampleRegistration()));
    const events = [
      traineeUpdated(),
      placementUpdated(),
      placementRemoved(),
      degreeUpdated(),
      degreeRemoved(),
      trnIssued(),
      traineeWithdrawn(),
    ];
    expect(() => events.reduce<TraineeState>(evolve, before)).not.toThrow();
    expect(before).toStrictEqual({ exists: true, trainee: REGISTERED });
  });

  it('merges the changes of an update into the details and moves updated_at, keeping created_at', () => {
    expect(traineeAfter([...exampleRegistration(), traineeUpdated({ changes: { middle_names: 'Kim' } })])).toStrictEqual({
      ...REGISTERED,
      details: { ...EXAMPLE_DETAILS, middle_names: 'Kim' },
      updated_at: UPDATED_AT,
    });
  });

  it('moves updated_at forward only: an event stamped earlier leaves it', () => {
    const late = traineeUpdated({ changes: { middle_names: 'Kim' }, at: '2026-06-01T00:00:00.000Z' });
    const early = traineeUpdated({ changes: { first_names: 'Jonathan' }, at: '2026-02-01T00:00:00.000Z' });
    const trainee = traineeAfter([...exampleRegistration(), late, early]);
    expect(trainee.updated_at).toBe('2026-06-01T00:00:00.000Z');
    expect(trainee.details).toMatchObject({ middle_names: 'Kim', first_names: 'Jonathan' });
  });

  it('adds, replaces and drops placements by id', () => {
    const p2 = { ...EXAMPLE_PLACEMENT, placement_id: 'P2', name: 'Elm School' };
    expect(traineeAfter([...exampleRegistration(), placementAdded({ placement: p2 })]).placements).toStrictEqual([EXAMPLE_PLACEMENT, p2]);
    expect(traineeAfter([...exampleRegistration(), placementAdded({ placement: p2 }), placementUpdated()]).placements).toStrictEqual([
      { ...EXAMPLE_PLACEMENT, name: 'Renamed', updated_at: UPDATED_AT },
      p2,
    ]);
    expect(traineeAfter([...exampleRegistration(), placementAdded({ placement: p2 }), placementRemoved()])).toMatchObject({
      placements: [p2],
      updated_at: UPDATED_AT,
    });
  });

  it('adds, replaces and drops degrees by id', () => {
    const d2 = { ...EXAMPLE_DEGREE, degree_id: 'D2', graduation_year: 2010 };
    expect(traineeAfter([...exampleRegistration(), degreeAdded({ degree: d2 })]).degrees).toStrictEqual([EXAMPLE_DEGREE, d2]);
    expect(traineeAfter([...exampleRegistration(), degreeAdded({ degree: d2 }), degreeUpdated()]).degrees).toStrictEqual([
      degreeUpdated().data.degree,
      d2,
    ]);
    expect(traineeAfter([...exampleRegistration(), degreeAdded({ degree: d2 }), degreeRemoved()])).toMatchObject({
      degrees: [d2],
      updated_at: UPDATED_AT,
    });
  });

  it('a TRN moves submitted_for_trn to trn_received', () => {
    expect(traineeAfter([...exampleRegistration(), trnIssued()])).toStrictEqual({
      ...REGISTERED,
      state: 'trn_received',
      trn: '1234567',
      updated_at: TRN_ISSUED_AT,
    });
  });

  it.each([
    ['deferred', [traineeDeferred()]],
    ['withdrawn', [traineeWithdrawn()]],
    ['recommended_for_award', [traineeRecommendedForAward()]],
  ])('a TRN arriving for a trainee %s keeps its state (docs/reference/API-FACTS.md §12.1)', (state, events) => {
    const at = '2026-11-15T00:00:00.000Z';
    expect(traineeAfter([...exampleRegistration(), ...(events as TraineeEvent[]), trnIssued({ at })])).toMatchObject({
      state,
      trn: '1234567',
      updated_at: at,
    });
  });

  it('a deferral stores its date and reason', () => {
    expect(traineeAfter([...exampleRegistration(), trnIssued(), traineeDeferred()])).toStrictEqual({
      ...REGISTERED,
      state: 'deferred',
      trn: '1234567',
      defer_date: '2026-02-01',
      defer_reason: 'Illness',
      updated_at: DEFERRED_AT,
    });
  });

  it('a withdrawal stores the withdrawal and keeps a deferral’s fields', () => {
    expect(traineeAfter([...exampleRegistration(), traineeDeferred(), traineeWithdrawn()])).toStrictEqual({
      ...REGISTERED,
      state: 'withdrawn',
      defer_date: '2026-02-01',
      defer_reason: 'Illness',
      withdrawal: EXAMPLE_WITHDRAWAL,
      updated_at: WITHDRAWN_AT,
    });
  });

  it('a recommendation stores the outcome date and when it was made; the award, when it was awarded', () => {
    const recommended = [...exampleRegistration(), trnIssued(), traineeRecommendedForAward()];
    expect(traineeAfter(recommended)).toStrictEqual({
      ...REGISTERED,
      state: 'recommended_for_award',
      trn: '1234567',
      outcome_date: '2026-11-01',
      recommended_for_award_at: RECOMMENDED_AT,
      updated_at: RECOMMENDED_AT,
    });
    expect(traineeAfter([...recommended, traineeAwarded()])).toStrictEqual({
      ...REGISTERED,
      state: 'awarded',
      trn: '1234567',
      outcome_date: '2026-11-01',
      recommended_for_award_at: RECOMMENDED_AT,
      awarded_at: '2026-11-10T00:00:00.000Z',
      updated_at: AWARDED_AT,
    });
  });

  it('submission for a TRN stamps submitted_for_trn_at', () => {
    const at = '2026-01-06T00:00:00.000Z';
    expect(traineeAfter([...exampleRegistration().slice(0, 3), traineeSubmittedForTrn({ at })])).toMatchObject({
      state: 'submitted_for_trn',
      submitted_for_trn_at: at,
      updated_at: at,
    });
  });

  it('never changes the events it folds, and folding the tail after a snapshot equals folding the whole stream', () => {
    const events = deepFreeze([
      ...exampleRegistration(),
      traineeUpdated(),
      placementUpdated(),
      degreeRemoved(),
      trnIssued(),
      traineeDeferred(),
    ]);
    const whole = evolveAll(events);
    for (let cut = 1; cut < events.length; cut++) {
      // A snapshot is the read model's JSON document: a copy, as stored and read back.
      const snapshot = JSON.parse(JSON.stringify(evolveAll(events.slice(0, cut)))) as TraineeState;
      expect(evolveAll(events.slice(cut), snapshot)).toStrictEqual(whole);
    }
    expect(events.reduce<TraineeState>(evolve, { exists: false })).toStrictEqual(whole);
  });
});
