import { StateTransitionError, ValidationFailed } from '../errors';
import { given } from '../testing/decider-spec';
import { TRAINEE_FIELDS, testRules } from '../testing/trainee-fixtures';
import { decide } from './trainee.decide';
import type { TraineeEvent } from './trainee.events';
import { evolveAll } from './trainee.evolve';
import type { TraineeStatus } from './trainee.state';
import { isActionAllowed, type TraineeAction } from './trainee.state-machine';
import { requestData } from './validation';

const NOW = '2026-11-22T10:00:00.000Z';
const RULES = testRules();
const T = { trainee_id: 'T1', ukprn: '10000001', now: NOW, rules: RULES };

function registered(): TraineeEvent[] {
  return decide(
    { type: 'RegisterTrainee', trainee_id: 'T1', ukprn: '10000001', rules: RULES, data: requestData(TRAINEE_FIELDS), now: '2026-01-01T00:00:00.000Z', new_ids: ['P1', 'D1'], duplicate_candidates: [] },
    { exists: false },
  );
}
const trnIssued: TraineeEvent = { type: 'TrnIssued', data: { trainee_id: 'T1', trn: '1234567', at: '2026-01-02T00:00:00.000Z' } };
const deferred: TraineeEvent = { type: 'TraineeDeferred', data: { trainee_id: 'T1', defer_date: '2026-02-01', defer_reason: null, at: '2026-02-01T00:00:00.000Z' } };

describe('the trainee state machine (docs/reference/API-FACTS.md §12.2, docs/DESIGN.md ruling 8)', () => {
  const table: [TraineeAction, TraineeStatus[]][] = [
    ['defer', ['submitted_for_trn', 'trn_received']],
    ['withdraw', ['submitted_for_trn', 'trn_received', 'deferred']],
    ['recommend_for_award', ['submitted_for_trn', 'trn_received']],
  ];
  const states: TraineeStatus[] = ['draft', 'submitted_for_trn', 'trn_received', 'deferred', 'recommended_for_award', 'withdrawn', 'awarded'];
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

describe('trainee decider: lifecycle', () => {
  it('defers a trainee with a TRN', () => {
    given([...registered(), trnIssued])
      .when({ type: 'DeferTrainee', ...T, data: requestData({ defer_date: '2026-03-01', defer_reason: 'Illness' }) })
      .then([{ type: 'TraineeDeferred', data: { trainee_id: 'T1', defer_date: '2026-03-01', defer_reason: 'Illness', at: NOW } }]);
  });

  it('refuses to defer a deferred trainee', () => {
    given([...registered(), deferred]).when({ type: 'DeferTrainee', ...T, data: requestData({ defer_date: '2026-03-01' }) }).thenThrows(StateTransitionError);
  });

  it('withdraws a deferred trainee, keeping every withdrawal field', () => {
    given([...registered(), deferred])
      .when({ type: 'WithdrawTrainee', ...T, data: requestData({ withdrawal_date: '2026-03-01', trigger: 'provider', future_interest: 'yes', reasons: ['safeguarding_concerns'], another_reason: null, safeguarding_concern_reasons: 'Detail' }) })
      .thenMatch((events) =>
        expect(events).toEqual([
          {
            type: 'TraineeWithdrawn',
            data: {
              trainee_id: 'T1',
              withdrawal: { date: '2026-03-01', trigger: 'provider', future_interest: 'yes', reasons: ['safeguarding_concerns'], another_reason: null, safeguarding_concern_reasons: 'Detail' },
              at: NOW,
            },
          },
        ]),
      );
  });

  it('checks the state before the body of a withdrawal', () => {
    const withdrawn: TraineeEvent = { type: 'TraineeWithdrawn', data: { trainee_id: 'T1', withdrawal: { date: '2026-03-01', trigger: 'provider', future_interest: 'yes', reasons: ['mandatory_reasons'], another_reason: null, safeguarding_concern_reasons: null }, at: NOW } };
    given([...registered(), withdrawn]).when({ type: 'WithdrawTrainee', ...T, data: requestData({}, [{ path: ['withdrawal_date'], message: 'withdraw_date Choose a withdrawal date' }]) }).thenThrows(StateTransitionError);
  });

  it('recommends from submitted_for_trn (ruling 8) and refuses a date in the future', () => {
    // Route 11 needs two placements for an award; the example brings one.
    const second: TraineeEvent = {
      type: 'PlacementAdded',
      data: { trainee_id: 'T1', placement: { placement_id: 'P2', urn: null, name: 'Elm School', postcode: null, address: null, school_id: null, created_at: NOW, updated_at: NOW }, at: NOW },
    };
    given([...registered(), second])
      .when({ type: 'RecommendForAward', ...T, data: requestData({ qts_standards_met_date: '2026-11-01' }) })
      .thenMatch((events) => expect(events).toEqual([{ type: 'TraineeRecommendedForAward', data: { trainee_id: 'T1', outcome_date: '2026-11-01', at: NOW } }]));
    given([...registered(), second])
      .when({ type: 'RecommendForAward', ...T, data: requestData({ qts_standards_met_date: '2026-11-23' }) })
      .thenThrows(ValidationFailed, (e) => expect((e as ValidationFailed).messages).toEqual(['qts_standards_met_date must not be in the future']));
  });

  it('a TRN moves submitted_for_trn to trn_received but keeps deferred and recommended states; recording it twice adds nothing', () => {
    const afterTrn = (events: TraineeEvent[]) => {
      const s = evolveAll([...events, trnIssued]);
      return s.exists ? s.trainee.state : null;
    };
    expect(afterTrn(registered())).toBe('trn_received');
    expect(afterTrn([...registered(), deferred])).toBe('deferred');
    given([...registered(), trnIssued]).when({ type: 'RecordTrnIssued', trainee_id: 'T1', trn: '7654321', now: NOW }).then([]);
  });

  it('records an award only for a recommended trainee, once', () => {
    const recommended: TraineeEvent = { type: 'TraineeRecommendedForAward', data: { trainee_id: 'T1', outcome_date: '2026-11-01', at: NOW } };
    const award = { type: 'RecordAward' as const, trainee_id: 'T1', awarded_at: '2026-11-01T00:00:00.000Z', now: NOW };
    given([...registered(), trnIssued, recommended]).when(award).then([{ type: 'TraineeAwarded', data: { trainee_id: 'T1', awarded_at: '2026-11-01T00:00:00.000Z', at: NOW } }]);
    given([...registered(), trnIssued]).when(award).then([]);
    const awarded: TraineeEvent = { type: 'TraineeAwarded', data: { trainee_id: 'T1', awarded_at: '2026-11-01T00:00:00.000Z', at: NOW } };
    given([...registered(), trnIssued, recommended, awarded]).when(award).then([]);
  });
});
