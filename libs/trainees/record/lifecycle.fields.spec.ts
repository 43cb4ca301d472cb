import type { Expect } from './field-table';
import {
  LIFECYCLE_FIELDS,
  LIFECYCLE_MEMBERS,
  LIFECYCLE_PATHS,
  lifecycleAnswerOf,
  lifecycleRecordIn,
  lifecycleRecordOf,
  lifecycleStoredOf,
  noLifecycleMembers,
  type Deferral,
  type DeferralFields,
  type LifecycleMembers,
  type Recommendation,
  type RecommendationFields,
  type Withdrawal,
  type WithdrawalFields,
} from './lifecycle.fields';
import { TRAINEE_DETAILS_NAMES } from './trainee.fields';

type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends <T>() => T extends Y ? 1 : 2 ? true : false;

// What the lifecycle rows make, as the decider, the events and the trainee have always typed it.
export type _Deferral = Expect<Equal<Deferral, { defer_date: string; defer_reason: string | null }>>;
export type _Withdrawal = Expect<
  Equal<
    Withdrawal,
    {
      date: string;
      trigger: string;
      future_interest: string;
      reasons: string[];
      another_reason: string | null;
      safeguarding_concern_reasons: string | null;
    }
  >
>;
export type _Recommendation = Expect<Equal<Recommendation, { outcome_date: string }>>;
export type _DeferralFields = Expect<Equal<DeferralFields, { defer_date?: string; defer_reason?: string | null }>>;
export type _WithdrawalFields = Expect<
  Equal<
    WithdrawalFields,
    {
      withdrawal_date?: string;
      trigger?: string;
      future_interest?: string;
      reasons?: readonly string[];
      another_reason?: string | null;
      safeguarding_concern_reasons?: string | null;
    }
  >
>;
export type _RecommendationFields = Expect<Equal<RecommendationFields, { qts_standards_met_date?: string }>>;
export type _Members = Expect<
  Equal<
    LifecycleMembers,
    { outcome_date: string | null; defer_date: string | null; defer_reason: string | null; withdrawal: Withdrawal | null }
  >
>;

describe('what the lifecycle rows give (docs/DESIGN.md "The record tables")', () => {
  it("orders each body's fields as its messages and request schema have them (docs/reference/API-FACTS.md §12.3–§12.5)", () => {
    expect(LIFECYCLE_FIELDS.deferral.map((f) => f.key)).toEqual(['defer_date', 'defer_reason']);
    expect(LIFECYCLE_FIELDS.withdrawal.map((f) => f.key)).toEqual([
      'withdrawal_date',
      'reasons',
      'trigger',
      'future_interest',
      'another_reason',
      'safeguarding_concern_reasons',
    ]);
    expect(LIFECYCLE_FIELDS.recommendation.map((f) => [f.key, f.stored])).toEqual([['qts_standards_met_date', 'outcome_date']]);
  });

  it('records a body in the order every event has held it, optional fields null when not sent or blank', () => {
    const withdrawal = lifecycleStoredOf('withdrawal', {
      reasons: ['a', 'b'],
      safeguarding_concern_reasons: null,
      another_reason: '',
      future_interest: 'no',
      trigger: 'trainee',
      withdrawal_date: '2026-01-15',
    });
    expect(Object.entries(withdrawal)).toEqual([
      ['date', '2026-01-15'],
      ['trigger', 'trainee'],
      ['future_interest', 'no'],
      ['reasons', ['a', 'b']],
      ['another_reason', null],
      ['safeguarding_concern_reasons', null],
    ]);
    expect(lifecycleStoredOf('deferral', { defer_reason: '', defer_date: '2026-02-01' })).toEqual({
      defer_date: '2026-02-01',
      defer_reason: null,
    });
    expect(lifecycleRecordOf('withdrawal', withdrawal)).toEqual({ withdrawal });
    expect(lifecycleRecordOf('recommendation', { outcome_date: '2026-06-30' })).toEqual({ outcome_date: '2026-06-30' });
    const copied = lifecycleRecordIn('withdrawal', { withdrawal });
    expect(copied).toEqual({ withdrawal });
    expect(copied.withdrawal).not.toBe(withdrawal);
  });

  it('gives the trainee its members, none of them in the stored record, and where each field is kept', () => {
    expect(LIFECYCLE_MEMBERS).toEqual(['outcome_date', 'defer_date', 'defer_reason', 'withdrawal']);
    expect(noLifecycleMembers()).toEqual({ outcome_date: null, defer_date: null, defer_reason: null, withdrawal: null });
    for (const member of LIFECYCLE_MEMBERS) expect(TRAINEE_DETAILS_NAMES).not.toContain(member);
    expect(LIFECYCLE_PATHS.defer_reason).toEqual({ body: 'deferral', path: 'defer_reason' });
    expect(LIFECYCLE_PATHS.withdrawal_date).toEqual({ body: 'withdrawal', path: 'withdrawal.date' });
    expect(LIFECYCLE_PATHS.withdrawal_another_reason).toEqual({ body: 'withdrawal', path: 'withdrawal.another_reason' });
  });

  it('answers what the action recorded, null before it', () => {
    const trigger = lifecycleAnswerOf('withdrawal_trigger')!;
    expect(trigger({ withdrawal: null })).toBeNull();
    expect(trigger({ withdrawal: { trigger: 'provider' } })).toBe('provider');
    expect(lifecycleAnswerOf('defer_reason')!({ defer_reason: 'Illness' })).toBe('Illness');
    expect(lifecycleAnswerOf('first_names')).toBeUndefined();
  });
});
