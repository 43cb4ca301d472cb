/**
 * What the specifications of the lifecycle bodies (defer, withdraw, recommend for QTS) share: a
 * stored trainee with only what their record rules read, the context of each version, odd JSON
 * values, and a valid withdraw body's `data` in a version's names.
 */
import type { Trainee, TraineeStatus, ApiVersion, Degree, Placement, TraineeDetails } from '@app/trainees/record';
import type { BodyContext } from './bodies';

/** The `created_at` and `updated_at` of every fixture row. */
const NOW = '2026-01-01T00:00:00.000Z';

function placement(i: number): Placement {
  return {
    placement_id: `p${i}`,
    urn: null,
    name: `School ${i}`,
    postcode: null,
    address: null,
    school_id: null,
    created_at: NOW,
    updated_at: NOW,
  };
}

function degree(i: number): Degree {
  return {
    degree_id: `d${i}`,
    uk_degree: '083',
    non_uk_degree: null,
    subject: '100425',
    institution: '0117',
    grade: '02',
    country: null,
    graduation_year: 2020,
    other_grade: null,
    institution_uuid: null,
    uk_degree_uuid: null,
    subject_uuid: null,
    grade_uuid: null,
    created_at: NOW,
    updated_at: NOW,
  };
}

/** What {@link makeTrainee} varies. */
export interface TraineeOptions {
  training_route?: string;
  itt_start_date?: string;
  degrees?: number;
  placements?: number;
  state?: TraineeStatus;
}

/** A trainee with only what the lifecycle rules read: route 12 (degree, 2 placements) by default. */
export function makeTrainee(o: TraineeOptions = {}): Trainee {
  const details = {
    training_route: o.training_route ?? '12',
    itt_start_date: o.itt_start_date ?? '2025-09-01',
  } as Partial<TraineeDetails> as TraineeDetails;
  return {
    trainee_id: 't1',
    ukprn: '10000001',
    record_source: 'api',
    details,
    state: o.state ?? 'trn_received',
    trn: null,
    submitted_for_trn_at: NOW,
    outcome_date: null,
    recommended_for_award_at: null,
    awarded_at: null,
    defer_date: null,
    defer_reason: null,
    reinstate_date: null,
    withdrawal: null,
    placements: Array.from({ length: o.placements ?? 2 }, (_, i) => placement(i)),
    degrees: Array.from({ length: o.degrees ?? 1 }, (_, i) => degree(i)),
    created_at: NOW,
    updated_at: NOW,
  };
}

/** The context of each version, today being 2026-06-30. */
export const ctx25: BodyContext = { version: 'v2025.0', today: '2026-06-30' };
export const ctx26: BodyContext = { version: 'v2026.1', today: '2026-06-30' };
export const ctxOf = (version: ApiVersion): BodyContext => (version === 'v2025.0' ? ctx25 : ctx26);
/** Both API versions. */
export const VERSIONS: ApiVersion[] = ['v2025.0', 'v2026.1'];

/** A selection of JSON values of every type, for "never throws" checks. */
export const ODD_VALUES: unknown[] = [
  undefined,
  null,
  true,
  false,
  0,
  -1,
  1.5,
  20250901,
  '',
  '   ',
  'x',
  [],
  [null],
  [1],
  ['x'],
  {},
  { a: 1 },
  [[]],
  [{}],
];

/** The date key of a version, written out (not computed) so that the test checks the naming. */
export const DATE_KEY: Record<ApiVersion, string> = { 'v2025.0': 'withdraw_date', 'v2026.1': 'withdrawal_date' };

/** A valid withdraw body's `data` in `version`'s names (trigger trainee, one reason), with `extra` over it. */
export function withdrawalData(version: ApiVersion, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    [DATE_KEY[version]]: '2026-01-15',
    trigger: 'trainee',
    future_interest: 'no',
    reasons: ['does_not_want_to_become_a_teacher'],
    ...extra,
  };
}
