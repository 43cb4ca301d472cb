/**
 * The wire checks of a degree body (POST/PUT/PATCH …/degrees) and of a nested `degrees_attributes`
 * item (docs/reference/API-FACTS.md §11.1–§11.4): JSON types, the graduation year's form, and the
 * subject's code (unknown = missing, §11.3). What depends on other fields (the UK/non-UK decision
 * and what each kind needs, the year's range) is the domain's (libs/domain validate-degree).
 *
 * Wire-type decisions: a code field that is not a JSON string answers the message its unknown
 * value would (subject: the "must be entered" message; uk_degree, non_uk_degree, country: the §6.9
 * message echoing the value); grade, institution and other_grade answer `<field> is invalid`, and
 * more than 255 characters `<field> is too long (maximum is 255 characters)` (docs/DESIGN.md ruling 14).
 */
import { DEGREE_MESSAGES } from '@app/trainees/decider';
import type { DegreeFields } from '@app/trainees/record';
import { codeBookFor } from '../code-books';
import type { ApiVersion } from '@app/trainees/record';
import { IsCode, IsString, MaxChars, Satisfies, echoOf, parseGraduationYear } from './constraints';
import { TEXT_MAX_CHARS } from '@app/trainees/record';
import { WireObject, type WireField } from './wire-object';

/** `graduation_year`: a year (string or integer) or a full date whose year is kept (docs/reference/API-FACTS.md §11.4). */
const GRADUATION_YEAR_FIELD: WireField = {
  wire: 'graduation_year',
  canonical: 'graduation_year',
  checks: [
    Satisfies(
      'graduationYear',
      (v) => parseGraduationYear(v) !== 'invalid',
      () => DEGREE_MESSAGES.graduationYearInvalid,
    ),
  ],
  convert: (v) => parseGraduationYear(v),
  schema: {
    description:
      'The year of graduation: a year (as a string or an integer) or a full date `YYYY-MM-DD` (its year is kept). Required; at most next year, at least 60 years before it.',
    oneOf: [
      { type: 'integer', minimum: 0, maximum: 999999999 },
      { type: 'string', pattern: '^(\\d{1,9}|\\d{4}-\\d{2}-\\d{2})$' },
      { type: 'null' },
    ],
    example: '2003-06-01',
  },
};

/** `institution`: a string; an unknown code is the domain's to record as "Other UK institution" (§11.2). */
const INSTITUTION_FIELD: WireField = {
  wire: 'institution',
  canonical: 'institution',
  checks: [IsString((label) => `${label} is invalid`), MaxChars(TEXT_MAX_CHARS)],
  convert: (v) => v,
  schema: {
    type: ['string', 'null'],
    maxLength: TEXT_MAX_CHARS,
    description:
      'Awarding institution of a UK degree (a degree_institution code). An unknown code records "Other UK institution". Sending one makes the degree a UK degree.',
    example: '0116',
  },
};

/** `other_grade`: accepted and ignored (no grade code resolves to "Other"). */
const OTHER_GRADE_FIELD: WireField = {
  wire: 'other_grade',
  canonical: 'other_grade',
  checks: [IsString((label) => `${label} is invalid`), MaxChars(TEXT_MAX_CHARS)],
  convert: (v) => v,
  schema: { type: ['string', 'null'], maxLength: TEXT_MAX_CHARS, description: 'Accepted and ignored: no grade code resolves to "Other".' },
};

function degreeFields(version: ApiVersion): WireField[] {
  const codes = codeBookFor(version);
  const codeSchema = (list: Parameters<typeof codes.codesOf>[0], description: string): Record<string, unknown> => ({
    type: ['string', 'null'],
    enum: [...codes.codesOf(list), null],
    maxLength: TEXT_MAX_CHARS,
    description,
  });
  const unknownCode = (list: 'degree_type' | 'country') => (label: string, value: unknown) =>
    codes.unknownCodeMessage(label, echoOf(value), list);
  return [
    {
      wire: 'subject',
      canonical: 'subject',
      checks: [IsCode(codes, 'degree_subject', { message: () => DEGREE_MESSAGES.subjectMissing })],
      convert: (v) => v,
      schema: { ...codeSchema('degree_subject', 'Degree subject (HECOS code). Required.'), example: '100425' },
    },
    GRADUATION_YEAR_FIELD,
    {
      wire: 'uk_degree',
      canonical: 'uk_degree',
      checks: [IsString(unknownCode('degree_type')), MaxChars(TEXT_MAX_CHARS)],
      convert: (v) => v,
      schema: { ...codeSchema('degree_type', 'Degree type of a UK degree. Required for a UK degree.'), example: '083' },
    },
    {
      wire: 'non_uk_degree',
      canonical: 'non_uk_degree',
      checks: [IsString(unknownCode('degree_type')), MaxChars(TEXT_MAX_CHARS)],
      convert: (v) => v,
      schema: { ...codeSchema('degree_type', 'Degree type of a non-UK degree. Required for a non-UK degree.'), example: null },
    },
    INSTITUTION_FIELD,
    {
      wire: 'grade',
      canonical: 'grade',
      checks: [IsString((label) => `${label} is invalid`), MaxChars(TEXT_MAX_CHARS)],
      convert: (v) => v,
      schema: {
        ...codeSchema('degree_grade', 'Degree grade. Required for a UK degree; optional for a non-UK one.'),
        maxLength: TEXT_MAX_CHARS,
        example: '02',
      },
    },
    {
      wire: 'country',
      canonical: 'country',
      checks: [IsString(unknownCode('country')), MaxChars(TEXT_MAX_CHARS)],
      convert: (v) => v,
      schema: {
        ...codeSchema('country', 'Country of a non-UK degree. Blank or a UK code (XF, XG, XH, XI, XK) makes the degree a UK degree.'),
        example: null,
      },
    },
    OTHER_GRADE_FIELD,
  ];
}

const BY_VERSION = new Map<ApiVersion, WireObject<DegreeFields>>();

/** The degree wire object of `version` (a degree body's `data`, or one nested item). */
export function degreeWire(version: ApiVersion): WireObject<DegreeFields> {
  let wire = BY_VERSION.get(version);
  if (!wire) {
    wire = new WireObject<DegreeFields>(`DegreeInput`, degreeFields(version));
    BY_VERSION.set(version, wire);
  }
  return wire;
}
