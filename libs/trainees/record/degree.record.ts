/**
 * The degree record's table (docs/DESIGN.md "The record tables"), in answer order (docs/spec/trainee-records-api.md "Degree object";
 * docs/reference/API-FACTS.md §11.1–§11.6). A code that is not a JSON string answers as an unknown one would; grade, institution
 * and other_grade answer `<field> is invalid`.
 */
import {
  codesOf,
  instant,
  laterCode,
  nenum,
  nstr,
  str,
  type FieldRow,
  type FieldsOf,
  type Expect,
  type StoredAnswers,
  says,
} from './field-table';
import { TEXT_MAX_CHARS } from './limits';
import type { Degree } from './trainee.details';

export const DEGREE_RECORD = [
  { name: 'degree_id', answer: { schema: str('The degree id.', { example: 'Qw3Er5Ty7Ui9Op1As2Df4Gh6' }) } },
  {
    name: 'uk_degree',
    input: {
      person: says('UK degree type', '083', { needed: 'Required for a UK degree' }),
      kind: laterCode('degree_type'),
      description: 'Degree type of a UK degree. Required for a UK degree.',
      example: '083',
    },
    answer: { schema: nenum(codesOf('degree_type')) },
  },
  {
    name: 'non_uk_degree',
    input: {
      person: says('Non-UK degree type', null, { needed: 'Required for a non-UK degree' }),
      kind: laterCode('degree_type'),
      description: 'Degree type of a non-UK degree. Required for a non-UK degree.',
      example: null,
    },
    answer: { schema: nenum(codesOf('degree_type')) },
  },
  {
    name: 'subject',
    input: {
      person: says('Degree subject', '100425', { needed: 'Required if the trainee has a degree' }),
      kind: { kind: 'code', list: 'degree_subject' },
      description: 'Degree subject (HECOS code). Required.',
      example: '100425',
    },
    answer: { schema: nenum(codesOf('degree_subject')) },
  },
  {
    name: 'institution',
    input: {
      person: says('Degree institution', '0116', {
        codes: 'degree_institution',
        hint: 'Leave blank for a UK institution not in the list.',
      }),
      kind: { kind: 'string', max: TEXT_MAX_CHARS },
      description:
        'Awarding institution of a UK degree (a degree_institution code). An unknown code records "Other UK institution". Sending one makes the degree a UK degree.',
      example: '0116',
    },
    answer: { schema: nenum(codesOf('degree_institution'), 'null for "Other UK institution" and for non-UK degrees.') },
  },
  {
    name: 'grade',
    input: {
      person: says('Degree grade', '02', { codes: 'degree_grade', needed: 'Required for a UK degree' }),
      kind: { kind: 'string', max: TEXT_MAX_CHARS, documents: 'degree_grade' },
      description: 'Degree grade. Required for a UK degree; optional for a non-UK one.',
      example: '02',
    },
    answer: { schema: nenum(codesOf('degree_grade')) },
  },
  {
    name: 'country',
    input: {
      person: says('Degree country', null, { hint: 'Leave blank for a UK degree.' }),
      kind: laterCode('country'),
      description: 'Country of a non-UK degree. Blank or a UK code (XF, XG, XH, XI, XK) makes the degree a UK degree.',
      example: null,
    },
    answer: { schema: nenum(codesOf('country'), 'null for a UK degree.') },
  },
  {
    name: 'graduation_year',
    input: {
      person: says('Graduation year', '2003', { needed: 'Required if the trainee has a degree' }),
      kind: { kind: 'graduation_year' },
      description:
        'The year of graduation: a year (as a string or an integer) or a full date `YYYY-MM-DD` (its year is kept). Required; at most next year, at least 60 years before it.',
      example: '2003-06-01',
    },
    answer: { schema: { type: ['integer', 'null'], example: 2003 } },
  },
  {
    name: 'other_grade',
    personal: true,
    input: {
      person: says('Other degree grade', null, { hint: 'Not used: leave blank.' }),
      kind: { kind: 'string', max: TEXT_MAX_CHARS },
      description: 'Accepted and ignored: no grade code resolves to "Other".',
    },
    answer: { schema: nstr() },
  },
  { name: 'institution_uuid', answer: { schema: nstr(undefined, { format: 'uuid' }) } },
  { name: 'uk_degree_uuid', answer: { schema: nstr(undefined, { format: 'uuid' }) } },
  { name: 'subject_uuid', answer: { schema: nstr(undefined, { format: 'uuid' }) } },
  { name: 'grade_uuid', answer: { schema: nstr(undefined, { format: 'uuid' }) } },
  { name: 'created_at', answer: { schema: instant() } },
  { name: 'updated_at', answer: { schema: instant() } },
] as const satisfies readonly FieldRow<Degree>[];

/** A degree body, or one `degrees_attributes` item, as the decider receives it (typed as field-table.ts says). */
export type DegreeFields = FieldsOf<typeof DEGREE_RECORD>;

/** Every answered row without a value of its own names a field of the stored record (a compile-time check). */
export type _StoredAnswersExist = Expect<[StoredAnswers<typeof DEGREE_RECORD>] extends [keyof Degree] ? true : false>;
