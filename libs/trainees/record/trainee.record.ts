/**
 * The trainee record's table (docs/DESIGN.md "The record tables"), in answer order (docs/spec/trainee-records-api.md "Trainee
 * object"; docs/reference/API-FACTS.md §6.2–§6.10, §13; docs/DESIGN.md rulings 3, 6, 10, 14). A value read from `t.details` states
 * its type: TypeScript cannot infer it through the table it derives from.
 */
import { bool, code, codesOf, date, dateAnswer, instant, ndate, nenum, ninstant, nstr, str, text, says } from './field-table';
import type { FieldRow, StoredFieldsOf } from './field-table';
import { DEGREES_ATTRIBUTES_MAX_ITEMS, PLACEMENTS_ATTRIBUTES_MAX_ITEMS, TEXT_MAX_CHARS } from './limits';
import { TRAINEE_STATES, type TraineeBase } from './trainee';
import { fundingFlags } from './trainee.answers';
import { diversityRows } from './trainee-diversity.record';
import { COURSE_SUBJECT_ROWS, IDENTITY_ROWS } from './trainee-identity.record';
import { LIFECYCLE_ROWS } from './trainee-lifecycle.record';

const RECORD_SOURCE = 'How the record came in: `api`, or `csv` for a trainee added from an uploaded file (trainee-uploads).';
/** The trainee's fields, in answer order (the `disabilityN` keys are answered after `disability2`). */

export const TRAINEE_RECORD = [
  {
    name: 'trainee_id',
    answer: {
      value: (t) => t.trainee_id,
      schema: str('The trainee id: 24 random base58 characters.', { example: 'X7CbWEXaTtWYUsfq54gnfQuN' }),
    },
  },
  ...IDENTITY_ROWS,
  { name: 'created_at', answer: { value: (t) => t.created_at, schema: instant('UTC, milliseconds.') } },
  { name: 'updated_at', answer: { value: (t) => t.updated_at, schema: instant('UTC, milliseconds.') } },
  {
    name: 'training_route',
    input: {
      person: says('Training route', '11'),
      kind: code('training_route'),
      required: true,
      messageRank: 5,
      description: 'Training route (code).',
    },
    answer: { schema: { type: 'string', enum: codesOf('training_route') } },
  },
  ...diversityRows<TraineeCore>((t, key): string | null => t.details.disabilities[key] ?? null),
  {
    name: 'itt_start_date',
    input: {
      person: says('ITT start date', '2025-08-01', { hint: 'The start of initial teacher training.' }),
      kind: date,
      required: true,
      messageRank: 6,
      description: 'Start of initial teacher training; its year at most next year.',
    },
    answer: { schema: dateAnswer() },
  },
  {
    name: 'itt_end_date',
    input: {
      person: says('ITT end date', '2027-07-31', { hint: 'The expected end of initial teacher training, after its start.' }),
      kind: date,
      required: true,
      messageRank: 7,
      description: 'Expected end of initial teacher training, after its start.',
    },
    answer: { schema: dateAnswer() },
  },
  {
    name: 'trainee_start_date',
    input: {
      person: says('Trainee start date', '2025-08-01', { hint: 'Leave blank if the trainee started on the ITT start date.' }),
      kind: date,
      messageRank: 24,
      description: 'When the trainee started; defaults to itt_start_date.',
    },
    answer: { schema: ndate() },
  },
  ...LIFECYCLE_ROWS.recommendation,
  { name: 'course_itt_start_date', answer: { value: (t): string => t.details.itt_start_date, schema: dateAnswer() } },
  {
    name: 'pg_apprenticeship_start_date',
    input: {
      person: says('Postgraduate apprenticeship start date', null),
      kind: { kind: 'lenient_date' },
      messageRank: 31,
      description: 'Postgraduate apprenticeship start date; anything that is not a date is stored as null.',
    },
    answer: { schema: ndate() },
  },
  {
    name: 'trn',
    personal: true,
    answer: { value: (t) => t.trn, schema: nstr('Teacher reference number, null until the registry issues one.', { pattern: '^\\d{7}$' }) },
  },
  { name: 'submitted_for_trn_at', answer: { value: (t) => t.submitted_for_trn_at, schema: ninstant() } },
  { name: 'state', answer: { value: (t) => t.state, schema: { type: 'string', enum: [...TRAINEE_STATES] } } },
  ...LIFECYCLE_ROWS.deferral,
  { name: 'reinstate_date', answer: { value: (t) => t.reinstate_date, schema: ndate() } },
  {
    name: 'recommended_for_award_at',
    answer: {
      // Without a fraction of a second, as the reference answers it (docs/reference/API-FACTS.md §13.4).
      value: (t) => (t.recommended_for_award_at ? t.recommended_for_award_at.replace(/\.\d+Z$/, 'Z') : null),
      schema: ninstant('UTC, whole seconds.'),
    },
  },
  { name: 'awarded_at', answer: { value: (t) => t.awarded_at, schema: ninstant() } },
  { name: 'course_min_age', answer: { schema: { type: ['integer', 'null'] } } },
  { name: 'course_max_age', answer: { schema: { type: ['integer', 'null'] } } },
  {
    name: 'course_age_range',
    input: {
      person: says('Course age range', '13918'),
      kind: code('course_age_range'),
      required: true,
      messageRank: 16,
      description: 'Course age range (code).',
    },
    answer: { schema: nenum(codesOf('course_age_range')) },
  },
  { name: 'course_education_phase', answer: { schema: { type: 'string', enum: ['primary', 'secondary', 'early_years'] } } },
  { name: 'course_qualification', answer: { schema: { type: 'string', enum: ['QTS', 'EYTS'] } } },
  { name: 'course_title', answer: { schema: nstr() } },
  { name: 'course_level', answer: { schema: { type: 'string', enum: ['undergrad', 'postgrad'] } } },
  { name: 'course_uuid', answer: { value: () => null, schema: nstr(undefined, { format: 'uuid' }) } },
  {
    name: 'study_mode',
    input: {
      person: says('Study mode', '63'),
      kind: code('study_mode'),
      required: true,
      messageRank: 13,
      description: 'Study mode (code).',
    },
    answer: { schema: nenum(codesOf('study_mode')) },
  },
  {
    name: 'course_year',
    input: {
      person: says('Course year', '1', { hint: 'The year of the course the trainee is in: 1 for the first.' }),
      kind: { 'v2025.0': { kind: 'course_year', integer: false }, 'v2026.1': { kind: 'course_year', integer: true } },
      required: true,
      messageRank: 15,
      description: 'Year of the course.',
    },
    answer: {
      schema: {
        type: ['number', 'string', 'null'],
        description: 'An integer; a value v2025.0 accepted as text or as a fractional number is answered as sent.',
      },
    },
  },
  {
    name: 'training_initiative',
    input: {
      person: says('Training initiative', null),
      kind: code('training_initiative'),
      messageRank: 28,
      description: 'Training initiative (code).',
    },
    answer: { schema: nenum(codesOf('training_initiative')) },
  },
  {
    name: 'additional_training_initiative',
    input: {
      person: says('Additional training initiative', null),
      kind: { 'v2025.0': text(TEXT_MAX_CHARS), 'v2026.1': code('training_initiative') },
      messageRank: 29,
      description: 'Additional training initiative.',
    },
    answer: { schema: nstr() },
  },
  { name: 'applying_for_bursary', answer: { value: (t): boolean => fundingFlags(t.details.funding_method).bursary, schema: bool() } },
  {
    name: 'applying_for_scholarship',
    answer: { value: (t): boolean => fundingFlags(t.details.funding_method).scholarship, schema: bool() },
  },
  { name: 'applying_for_grant', answer: { value: (t): boolean => fundingFlags(t.details.funding_method).grant, schema: bool() } },
  {
    name: 'bursary_tier',
    answer: {
      value: (t): string | null => fundingFlags(t.details.funding_method).tier,
      schema: nenum(['tier_one', 'tier_two', 'tier_three']),
    },
  },
  { name: 'ebacc', answer: { value: () => false, schema: bool() } },
  { name: 'region', answer: { value: () => null, schema: nstr() } },
  {
    name: 'fund_code',
    input: {
      person: says('Fund code', '2'),
      kind: code('fund_code'),
      required: true,
      messageRank: 17,
      description: 'Fund code (code).',
    },
    answer: { schema: nenum(codesOf('fund_code')) },
  },
  {
    name: 'funding_method',
    input: {
      person: says('Funding method', '6'),
      kind: code('funding_method'),
      required: true,
      messageRank: 18,
      description: 'Funding method (code).',
    },
    answer: { schema: nenum(codesOf('funding_method')) },
  },
  {
    name: 'itt_aim',
    input: {
      person: says('ITT aim', '202'),
      kind: { kind: 'code', list: 'itt_aim', numberAsText: true },
      required: true,
      messageRank: 14,
      description: 'ITT aim (code); a JSON number is accepted.',
    },
    answer: { schema: nenum(codesOf('itt_aim')) },
  },
  {
    name: 'itt_qualification_aim',
    input: {
      person: says('ITT qualification aim', '001', { needed: 'Required if ITT aim is 202' }),
      kind: code('itt_qualification_aim'),
      messageRank: 19,
      description: 'ITT qualification aim (code); required when itt_aim is 202.',
    },
    answer: { schema: nenum(codesOf('itt_qualification_aim')) },
  },
  {
    name: 'ni_number',
    personal: true,
    input: {
      person: says('National Insurance number', 'QQ 12 34 56 C'),
      kind: { kind: 'ni_number' },
      messageRank: 30,
      description: 'National Insurance number: two letters, six digits and a letter A to D (`QQ 12 34 56 C`); spaces allowed.',
    },
    answer: { schema: nstr() },
  },
  { name: 'ukprn', answer: { value: (t) => t.ukprn, schema: str("The provider's UKPRN.") } },
  {
    name: 'employing_school_urn',
    input: {
      person: says('Employing school URN', null, { hint: 'Leave blank if the trainee has no employing school.' }),
      kind: text(TEXT_MAX_CHARS),
      messageRank: 34,
      description: 'URN of the employing school; empty or a not-applicable URN (900000, 900010, 900020, 900030) means none.',
    },
    answer: { schema: nstr() },
  },
  { name: 'employing_school_not_applicable', answer: { value: (t): boolean => t.details.employing_school_urn === null, schema: bool() } },
  { name: 'submission_ready', answer: { value: () => true, schema: bool() } },
  { name: 'commencement_status', answer: { value: () => null, schema: nstr() } },
  { name: 'discarded_at', answer: { value: () => null, schema: ninstant() } },
  { name: 'placement_detail', answer: { value: () => null, schema: nstr() } },
  // The spec's trainee table (docs/spec/trainee-records-api.md "Trainee object") lists iqts_country for
  // every version (v2025.0 answers null).
  {
    name: 'iqts_country',
    names: { 'v2025.0': null },
    input: {
      person: says('iQTS country', null, { needed: 'Required for the iQTS route (15); leave blank for any other route' }),
      kind: code('country'),
      messageRank: 21,
      description: 'Country of an iQTS trainee (country code): required for route 15, refused for any other.',
    },
    answer: { schema: nenum(codesOf('country')), asIs: true },
  },
  { name: 'record_source', answer: { value: (t) => t.record_source, schema: str(RECORD_SOURCE, { example: 'api' }) } },
  { name: 'created_from_legacy', answer: { value: () => false, schema: bool() } },
  { name: 'additional_legacy_data', answer: { value: () => null, schema: { type: 'null' } } },
  {
    name: 'statsagency_id',
    personal: true,
    input: {
      person: says('Statistics agency ID', '0310261553101'),
      kind: { kind: 'statsagency_id' },
      required: true,
      messageRank: 8,
      description: 'Statistics agency identifier: 13 or 17 characters.',
    },
    answer: { schema: nstr() },
  },
  { name: 'created_from_statsagency', answer: { value: () => false, schema: bool() } },
  { name: 'statsagency_updated_at', answer: { value: () => null, schema: ninstant() } },
  { name: 'statsagency_editable', answer: { value: () => false, schema: bool() } },
  ...LIFECYCLE_ROWS.withdrawal,
  {
    name: 'application_id',
    personal: true,
    // The reference stores null for anything that is not such an integer; this refuses it.
    input: {
      person: says('Application ID', '6916785'),
      kind: { kind: 'digits', max: 7 },
      messageRank: 33,
      description: 'Application identifier: a non-negative integer of at most 7 digits.',
    },
    answer: { schema: { type: ['integer', 'null'] } },
  },
  { name: 'slug_sent_to_registry_at', answer: { value: () => null, schema: ninstant() } },
  ...COURSE_SUBJECT_ROWS,
  ...LIFECYCLE_ROWS.withdrawalDate,
  {
    name: 'training_partner_not_applicable',
    names: { 'v2025.0': 'lead_partner_not_applicable' },
    // §6.8: no training partner is neither URN nor UKPRN.
    answer: {
      value: (t): boolean => t.details.training_partner_urn === null && t.details.training_partner_ukprn === null,
      schema: bool(),
    },
  },
  {
    name: 'training_partner_ukprn',
    names: { 'v2025.0': 'lead_partner_ukprn' },
    input: {
      person: says('Training partner UKPRN', null, { hint: 'Leave blank if there is no training partner.' }),
      kind: text(TEXT_MAX_CHARS),
      messageRank: 36,
      description: 'UKPRN of the training partner; empty means none.',
    },
    answer: { schema: nstr() },
  },
  {
    name: 'training_partner_urn',
    names: { 'v2025.0': 'lead_partner_urn' },
    input: {
      person: says('Training partner URN', null, { hint: 'Leave blank if there is no training partner.' }),
      kind: text(TEXT_MAX_CHARS),
      messageRank: 35,
      description: 'URN of the training partner; empty or a not-applicable URN means none. Takes precedence over the UKPRN.',
    },
    answer: { schema: nstr() },
  },
  ...LIFECYCLE_ROWS.withdrawalByVersion,
  { name: 'expected_end_date', answer: { value: (t): string => t.details.itt_end_date, schema: ndate(), only: ['v2025.0'] } },
  { name: 'bursary_level', answer: { value: (t): string | null => t.details.funding_method, schema: nstr(), only: ['v2025.0'] } },
  { name: 'course_study_mode', answer: { value: (t): string | null => t.details.study_mode, schema: nstr(), only: ['v2025.0'] } },
  {
    name: 'statsagency_disabilities',
    personal: true,
    answer: {
      value: (t): Record<string, string | null> => ({
        disability1: t.details.disabilities.disability1 ?? null,
        disability2: t.details.disabilities.disability2 ?? null,
      }),
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['disability1', 'disability2'],
        properties: { disability1: { type: ['string', 'null'] }, disability2: { type: ['string', 'null'] } },
      },
      only: ['v2025.0'],
    },
  },
  {
    name: 'degrees_attributes',
    input: {
      person: says('Degree', null, { needed: 'Required for a route that needs a degree' }),
      kind: { kind: 'items', of: 'degrees', max: DEGREES_ATTRIBUTES_MAX_ITEMS },
      messageRank: 20,
      description: `Degrees (create only): required for a route that needs a degree; at most ${DEGREES_ATTRIBUTES_MAX_ITEMS}.`,
    },
  },
  {
    name: 'placements_attributes',
    input: {
      person: says('Placement', null),
      kind: { kind: 'items', of: 'placements', max: PLACEMENTS_ATTRIBUTES_MAX_ITEMS },
      description: `Placements (create only), at most ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS}.`,
    },
  },
] as const satisfies readonly FieldRow<TraineeCore>[];

/** The trainee's stored record, keyed in the order of `TRAINEE_DETAILS_NAMES` (trainee.fields.ts). */
export type TraineeDetails = StoredFieldsOf<typeof TRAINEE_RECORD> & {
  /** `disabilityN` key → code, as sent (merged by key on update, docs/reference/API-FACTS.md §7.5). */
  disabilities: Record<string, string>;
};

/** A trainee as the table's answers read it; `Trainee` adds the lifecycle members (lifecycle.fields.ts). */
export interface TraineeCore extends TraineeBase {
  details: TraineeDetails;
}
