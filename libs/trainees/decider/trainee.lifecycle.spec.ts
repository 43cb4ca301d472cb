import { MissingData, StateTransitionError, ValidationFailed } from './trainee.errors';
import { DeciderSpecification } from '@app/event-sourcing/testing/decider-specification';
import {
  RULES,
  WITHDRAWAL_FIELDS,
  deferTrainee,
  recommendForAward,
  recordAward,
  recordTrnIssued,
  withdrawTrainee,
} from './testing/trainee-commands';
import {
  NOW,
  degreeRemoved,
  exampleHistoryIn,
  placementAdded,
  traineeAwarded,
  traineeDeferred,
  traineeRecommendedForAward,
  traineeRegistered,
  traineeSubmittedForTrn,
  traineeWithdrawn,
  trnIssued,
} from './testing/trainee-events';
import { testRules } from './testing/trainee-fixtures';
import { decide } from './trainee.decide';
import type { TraineeEvent } from './trainee.events';
import { evolve } from './trainee.evolve';
import { initialTraineeState } from './trainee.state';
import { type TraineeStatus } from '@app/trainees/record';
import { isActionAllowed, type TraineeAction } from './trainee.state-machine';
import { MISSING_REQUEST_DATA, requestData } from './rules/request-data';

const spec = DeciderSpecification.for({ decide, evolve, initialState: () => initialTraineeState });

const registered = exampleHistoryIn('submitted_for_trn');
const withTrn = exampleHistoryIn('trn_received');
const deferred = exampleHistoryIn('deferred');
const withdrawn = exampleHistoryIn('withdrawn');
const recommended = exampleHistoryIn('recommended_for_award');
const awarded = exampleHistoryIn('awarded');
/** Route 11 needs two placements for an award; the example brings one. */
const secondPlacement = placementAdded({ placement: { placement_id: 'P2', urn: null, name: 'Elm School' } });

describe('the trainee state machine (docs/reference/API-FACTS.md §12.2, docs/DESIGN.md ruling 8)', () => {
  const table: [TraineeAction, TraineeStatus[]][] = [
    ['defer', ['submitted_for_trn', 'trn_received']],
    ['withdraw', ['submitted_for_trn', 'trn_received', 'deferred']],
    ['recommend_for_award', ['submitted_for_trn', 'trn_received']],
  ];
  const states: TraineeStatus[] = [
    'draft',
    'submitted_for_trn',
    'trn_received',
    'deferred',
    'recommended_for_award',
    'withdrawn',
    'awarded',
  ];
  it.each(table)('%s is allowed exactly from %j', (action, allowed) => {
    for (const s of states) expect(isActionAllowed(action, s, RULES)).toBe(allowed.includes(s));
  });
  it('update is refused in the states the rules name, and allowed in every state by rules that name none', () => {
    for (const s of states) {
      expect(isActionAllowed('update', s, RULES)).toBe(!['recommended_for_award', 'withdrawn', 'awarded'].includes(s));
      expect(isActionAllowed('update', s, testRules({ writesRefusedIn: [] }))).toBe(true);
    }
  });
});

describe('trainee decider: DeferTrainee', () => {
  it('defers a trainee with a TRN', () => {
    spec
      .given(withTrn)
      .when(deferTrainee())
      .then([traineeDeferred({ at: NOW })]);
  });

  it('defers a trainee still waiting for its TRN', () => {
    spec
      .given(registered)
      .when(deferTrainee())
      .then([traineeDeferred({ at: NOW })]);
  });

  it('stores no reason when none or a blank one is sent', () => {
    spec
      .given(withTrn)
      .when(deferTrainee({ defer_date: '2026-11-20' }))
      .then([traineeDeferred({ defer_date: '2026-11-20', defer_reason: null, at: NOW })]);
    spec
      .given(withTrn)
      .when(deferTrainee({ defer_date: '2026-11-20', defer_reason: '' }))
      .then([traineeDeferred({ defer_date: '2026-11-20', defer_reason: null, at: NOW })]);
  });

  it.each([
    ['deferred', deferred],
    ['withdrawn', withdrawn],
    ['recommended for award', recommended],
    ['awarded', awarded],
  ])('refuses to defer a trainee %s, whatever the rules', (_, history) => {
    spec.given(history).when(deferTrainee()).thenThrows(StateTransitionError);
    spec
      .given(history)
      .when(deferTrainee(undefined, { rules: testRules({ writesRefusedIn: [] }) }))
      .thenThrows(StateTransitionError);
  });

  it('refuses a deferral without a date, or with the wire problems of its body', () => {
    spec
      .given(withTrn)
      .when(deferTrainee({}))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual(["defer_date can't be blank"]));
    spec
      .given(withTrn)
      .when(deferTrainee({}, { data: requestData({}, [{ path: ['defer_date'], message: 'defer_date is invalid' }]) }))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual(['defer_date is invalid']));
  });

  it('refuses a missing data object', () => {
    spec
      .given(withTrn)
      .when(deferTrainee({}, { data: MISSING_REQUEST_DATA }))
      .thenThrows(MissingData);
  });
});

describe('trainee decider: WithdrawTrainee', () => {
  it('withdraws a trainee with a TRN', () => {
    spec
      .given(withTrn)
      .when(withdrawTrainee())
      .then([traineeWithdrawn({ at: NOW })]);
  });

  it('withdraws a deferred trainee, keeping every withdrawal field', () => {
    const fields = {
      withdrawal_date: '2026-03-01',
      trigger: 'provider',
      future_interest: 'yes',
      reasons: ['safeguarding_concerns'],
      another_reason: null,
      safeguarding_concern_reasons: 'Detail',
    };
    spec
      .given(deferred)
      .when(withdrawTrainee(fields))
      .then([traineeWithdrawn({ withdrawal: { reasons: ['safeguarding_concerns'], safeguarding_concern_reasons: 'Detail' }, at: NOW })]);
  });

  it('checks the state before the body of a withdrawal', () => {
    const badBody = requestData({}, [{ path: ['withdrawal_date'], message: 'withdraw_date Choose a withdrawal date' }]);
    spec
      .given(withdrawn)
      .when(withdrawTrainee({}, { data: badBody }))
      .thenThrows(StateTransitionError);
    spec
      .given(withdrawn)
      .when(withdrawTrainee({}, { data: MISSING_REQUEST_DATA }))
      .thenThrows(StateTransitionError);
  });

  it.each([
    ['withdrawn', withdrawn],
    ['recommended for award', recommended],
    ['awarded', awarded],
  ])('refuses to withdraw a trainee %s', (_, history) => {
    spec.given(history).when(withdrawTrainee()).thenThrows(StateTransitionError);
  });

  it('refuses to withdraw a trainee whose ITT has not started, and withdraws it on the day it starts (docs/reference/API-FACTS.md §12.4)', () => {
    const startingOn = (itt_start_date: string): TraineeEvent[] => [
      traineeRegistered({ details: { itt_start_date } }),
      traineeSubmittedForTrn(),
    ];
    spec.given(startingOn('2026-11-23')).when(withdrawTrainee()).thenThrows(StateTransitionError);
    spec
      .given(startingOn('2026-11-22'))
      .when(withdrawTrainee({ ...WITHDRAWAL_FIELDS, withdrawal_date: '2026-11-22' }))
      .then([traineeWithdrawn({ withdrawal: { date: '2026-11-22' }, at: NOW })]);
  });

  it('refuses a withdrawal dated before the ITT started, naming the date field as the version calls it', () => {
    const early = { ...WITHDRAWAL_FIELDS, withdrawal_date: '2025-07-31' };
    spec
      .given(withTrn)
      .when(withdrawTrainee(early))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual(['withdrawal_date must be after itt_start_date']));
    const v2025Labels = testRules({ label: (field) => (field === 'withdrawal_date' ? 'withdraw_date' : field) });
    spec
      .given(withTrn)
      .when(withdrawTrainee(early, { rules: v2025Labels }))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual(['withdraw_date must be after itt_start_date']));
  });

  it('refuses an empty withdrawal with every failed rule, in the rules’ order', () => {
    spec
      .given(withTrn)
      .when(withdrawTrainee({}))
      .thenThrows(ValidationFailed, (e) =>
        expect(e.messages).toEqual([
          'withdrawal_date Choose a withdrawal date',
          'reasons Choose one or more reasons why the trainee withdrew from the course',
          'trigger is not included in the list',
          'future_interest is not included in the list',
        ]),
      );
  });

  it('refuses a missing data object', () => {
    spec
      .given(withTrn)
      .when(withdrawTrainee({}, { data: MISSING_REQUEST_DATA }))
      .thenThrows(MissingData);
  });
});

describe('trainee decider: RecommendForAward', () => {
  it('recommends from submitted_for_trn (docs/DESIGN.md ruling 8) and from trn_received', () => {
    spec
      .given([...registered, secondPlacement])
      .when(recommendForAward())
      .then([traineeRecommendedForAward({ at: NOW })]);
    spec
      .given([...withTrn, secondPlacement])
      .when(recommendForAward({ qts_standards_met_date: '2026-11-22' }))
      .then([traineeRecommendedForAward({ outcome_date: '2026-11-22', at: NOW })]);
  });

  it('refuses a date in the future or before the ITT started', () => {
    spec
      .given([...registered, secondPlacement])
      .when(recommendForAward({ qts_standards_met_date: '2026-11-23' }))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual(['qts_standards_met_date must not be in the future']));
    spec
      .given([...registered, secondPlacement])
      .when(recommendForAward({ qts_standards_met_date: '2025-07-31' }))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual(['qts_standards_met_date must be after itt_start_date']));
  });

  it('refuses a trainee with fewer placements than its route needs', () => {
    spec
      .given(withTrn)
      .when(recommendForAward())
      .thenThrows(ValidationFailed, (e) =>
        expect(e.messages).toEqual(['placements must be at least 2 for the provider_led_undergrad training route']),
      );
  });

  it('refuses a trainee without a degree on a route that needs one, listing every failed rule', () => {
    spec
      .given([traineeRegistered({ details: { training_route: '12' } }), placementAdded(), traineeSubmittedForTrn()])
      .when(recommendForAward())
      .thenThrows(ValidationFailed, (e) =>
        expect(e.messages).toEqual([
          'degree_id must be completed before qts_standards_met_date',
          'placements must be at least 2 for the provider_led_postgrad training route',
        ]),
      );
  });

  it('does not need a degree on a route that does not', () => {
    spec
      .given([...withTrn, secondPlacement, degreeRemoved()])
      .when(recommendForAward())
      .then([traineeRecommendedForAward({ at: NOW })]);
  });

  it.each([
    ['deferred', deferred],
    ['withdrawn', withdrawn],
    ['recommended for award', recommended],
    ['awarded', awarded],
  ])('refuses to recommend a trainee %s', (_, history) => {
    spec
      .given([...history, secondPlacement])
      .when(recommendForAward())
      .thenThrows(StateTransitionError);
  });

  it('refuses a missing data object', () => {
    spec
      .given([...withTrn, secondPlacement])
      .when(recommendForAward({}, { data: MISSING_REQUEST_DATA }))
      .thenThrows(MissingData);
  });
});

describe('trainee decider: RecordTrnIssued', () => {
  it('records the TRN the registry issued', () => {
    spec
      .given(registered)
      .when(recordTrnIssued())
      .then([trnIssued({ at: NOW })]);
  });

  it('records a TRN for a trainee deferred or withdrawn before it arrived (docs/reference/API-FACTS.md §12.1)', () => {
    spec
      .given([...registered, traineeDeferred()])
      .when(recordTrnIssued())
      .then([trnIssued({ at: NOW })]);
    spec
      .given([...registered, traineeWithdrawn()])
      .when(recordTrnIssued({ trn: '7654321' }))
      .then([trnIssued({ trn: '7654321', at: NOW })]);
  });

  it('records nothing when the trainee already has a TRN', () => {
    spec
      .given(withTrn)
      .when(recordTrnIssued({ trn: '7654321' }))
      .thenNothingHappened();
  });
});

describe('trainee decider: RecordAward', () => {
  it('records the award of a recommended trainee', () => {
    spec
      .given(recommended)
      .when(recordAward())
      .then([traineeAwarded({ at: NOW })]);
  });

  it('records nothing for a trainee not recommended, or already awarded', () => {
    spec.given(withTrn).when(recordAward()).thenNothingHappened();
    spec.given(awarded).when(recordAward()).thenNothingHappened();
  });
});

describe('the lifecycle events as decided', () => {
  const decided = (history: TraineeEvent[], command: Parameters<typeof decide>[0]) =>
    decide(command, history.reduce(evolve, initialTraineeState))[0].data as unknown as Record<string, unknown>;

  it('hold their data under the keys, and in the order, that every event of the log has', () => {
    expect(Object.keys(decided(withTrn, deferTrainee()))).toEqual(['trainee_id', 'defer_date', 'defer_reason', 'at']);
    const withdrawal = decided(withTrn, withdrawTrainee());
    expect(Object.keys(withdrawal)).toEqual(['trainee_id', 'withdrawal', 'at']);
    expect(Object.keys(withdrawal.withdrawal as object)).toEqual([
      'date',
      'trigger',
      'future_interest',
      'reasons',
      'another_reason',
      'safeguarding_concern_reasons',
    ]);
    expect(Object.keys(decided([...withTrn, secondPlacement], recommendForAward()))).toEqual(['trainee_id', 'outcome_date', 'at']);
  });
});
