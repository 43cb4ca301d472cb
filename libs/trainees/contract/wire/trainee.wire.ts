/**
 * The wire checks of a trainee create or update body (POST /trainees, PUT/PATCH /trainees/{id};
 * docs/reference/API-FACTS.md §6.2, §6.4, §6.5, §6.9, §6.10): per version, the table of the fields
 * a trainee body carries — wire name, JSON type, length, format, code list — from which come the
 * `class-validator` DTO class, the typed fields the domain receives, and the request schema of the
 * OpenAPI document. Requiredness and every rule that needs another field, the stored trainee or
 * today are the domain's (libs/domain validate-trainee).
 *
 * Wire decisions taken where the facts leave room:
 * (c) The v2025.0 and v2026.1 POST /trainees request examples of the OpenAPI documents validate
 *     (the v2026.1 one without its `iqts_country`, which a non-iQTS route refuses, §6.3).
 * (e) Values of the wrong JSON type: free-text fields accept strings and numbers (as their decimal
 *     text); booleans, arrays and objects give `<field> is invalid`. Coded fields accept only
 *     strings (a number gets the unknown-code message), except itt_aim, which also takes a JSON
 *     number and stores it as a string (docs/DESIGN.md ruling 12).
 * (i) `application_id` must be a non-negative integer (JSON integer or digits): longer than 7
 *     characters → `application_id is too long (maximum is 7 characters)`, anything else non-blank
 *     → `application_id is invalid` (the reference silently stores null).
 * (j) `pg_apprenticeship_start_date` is not validated (§6.4): a real date is stored as
 *     `YYYY-MM-DD`, anything else as null (as a date column casts it).
 */
import { type InputProblem, type MessagePath } from '@app/trainees/decider';
import { parseIsoDate } from '@app/calendar';
import type { RefListName, TraineeFields } from '@app/trainees/record';
import { codeBookFor } from '../code-books';
import { versionFieldName } from '@app/trainees/record';
import { traineeRulesFor } from '../rules';
import type { ApiVersion } from '@app/trainees/record';
import {
  IsArray,
  IsCode,
  IsEmailAddress,
  IsIsoDate,
  IsText,
  LengthOneOf,
  MaxChars,
  MaxItems,
  Satisfies,
  isBlank,
  textOf,
} from './constraints';
import { degreeWire } from './degree.wire';
import { DEGREES_ATTRIBUTES_MAX_ITEMS, DISABILITY_KEYS_MAX, PLACEMENTS_ATTRIBUTES_MAX_ITEMS, TEXT_MAX_CHARS } from '@app/trainees/record';
import { NESTED_PLACEMENT_WIRE } from './placement.wire';
import { charLength } from './values';
import { WireObject, type JsonSchema, type WireField } from './wire-object';

/** `disability` followed by digits: every such key is stored and echoed (docs/reference/API-FACTS.md §6.7). */
export const DISABILITY_KEY = /^disability\d+$/;

/** Most digits of a `disabilityN` key's number (`disability99`; docs/DESIGN.md ruling 14). */
const DISABILITY_KEY_MAX_DIGITS = 2;

/**
 * A National Insurance number: two prefix letters, six digits, a suffix letter A to D, in either
 * case, one space allowed between the groups (the reference does not check it, docs/reference/API-FACTS.md
 * §6.4; ours bounds it, docs/DESIGN.md ruling 14). Otherwise `ni_number is invalid`.
 */
export const NI_NUMBER = /^[A-Za-z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-Da-d]$/;

/** Longest National Insurance number text the pattern admits. */
const NI_NUMBER_MAX_CHARS = 13;

const isNiNumber = (t: string | undefined): boolean => t !== undefined && t.length <= NI_NUMBER_MAX_CHARS && NI_NUMBER.test(t);

type Kind =
  | { kind: 'text'; max: number }
  | { kind: 'ni_number' }
  | { kind: 'email' }
  | { kind: 'statsagency_id' }
  | { kind: 'date' }
  | { kind: 'lenient_date' }
  | { kind: 'code'; list: RefListName; numberAsText?: boolean }
  | { kind: 'course_year' }
  | { kind: 'application_id' }
  | { kind: 'degrees' }
  | { kind: 'placements' };

interface TraineeFieldSpec {
  canonical: keyof TraineeFields;
  kind: Kind | ((version: ApiVersion) => Kind);
  /** Required on create (OpenAPI `required`; the domain reports a missing one). */
  required?: boolean;
  description: string;
}

const text = (max: number = TEXT_MAX_CHARS): Kind => ({ kind: 'text', max });
const code = (list: RefListName): Kind => ({ kind: 'code', list });
const date: Kind = { kind: 'date' };

/** The fields of a trainee body, in the order of docs/reference/API-FACTS.md §6.2. */
const TRAINEE_FIELD_SPECS: readonly TraineeFieldSpec[] = [
  { canonical: 'first_names', kind: text(60), required: true, description: 'First names, at most 60 characters.' },
  { canonical: 'middle_names', kind: text(60), description: 'Middle names, at most 60 characters.' },
  { canonical: 'last_name', kind: text(60), required: true, description: 'Last name, at most 60 characters.' },
  { canonical: 'previous_last_name', kind: text(), description: `A previous last name, at most ${TEXT_MAX_CHARS} characters.` },
  { canonical: 'date_of_birth', kind: date, required: true, description: 'Date of birth: at most 100 and at least 16 years ago.' },
  { canonical: 'email', kind: { kind: 'email' }, required: true, description: 'Email address, at most 255 characters.' },
  { canonical: 'sex', kind: code('sex'), required: true, description: 'Sex (code).' },
  { canonical: 'nationality', kind: code('nationality'), description: 'Nationality (ISO 3166 country code).' },
  { canonical: 'training_route', kind: code('training_route'), required: true, description: 'Training route (code).' },
  {
    canonical: 'itt_start_date',
    kind: date,
    required: true,
    description: 'Start of initial teacher training; its year at most next year.',
  },
  { canonical: 'itt_end_date', kind: date, required: true, description: 'Expected end of initial teacher training, after its start.' },
  { canonical: 'trainee_start_date', kind: date, description: 'When the trainee started; defaults to itt_start_date.' },
  { canonical: 'course_subject_1', kind: code('course_subject'), required: true, description: 'First course subject (HECOS code).' },
  { canonical: 'course_subject_2', kind: code('course_subject'), description: 'Second course subject (HECOS code).' },
  { canonical: 'course_subject_3', kind: code('course_subject'), description: 'Third course subject (HECOS code).' },
  { canonical: 'course_age_range', kind: code('course_age_range'), required: true, description: 'Course age range (code).' },
  { canonical: 'study_mode', kind: code('study_mode'), required: true, description: 'Study mode (code).' },
  { canonical: 'ethnicity', kind: code('ethnicity'), description: 'Ethnicity (code); ethnic group and background are derived from it.' },
  { canonical: 'training_initiative', kind: code('training_initiative'), description: 'Training initiative (code).' },
  {
    canonical: 'additional_training_initiative',
    kind: (v) => (versionRules(v).additionalCoded ? code('training_initiative') : text()),
    description: 'Additional training initiative.',
  },
  {
    canonical: 'itt_aim',
    kind: { kind: 'code', list: 'itt_aim', numberAsText: true },
    required: true,
    description: 'ITT aim (code); a JSON number is accepted.',
  },
  {
    canonical: 'itt_qualification_aim',
    kind: code('itt_qualification_aim'),
    description: 'ITT qualification aim (code); required when itt_aim is 202.',
  },
  { canonical: 'course_year', kind: { kind: 'course_year' }, required: true, description: 'Year of the course.' },
  { canonical: 'fund_code', kind: code('fund_code'), required: true, description: 'Fund code (code).' },
  { canonical: 'funding_method', kind: code('funding_method'), required: true, description: 'Funding method (code).' },
  {
    canonical: 'ni_number',
    kind: { kind: 'ni_number' },
    description: 'National Insurance number: two letters, six digits and a letter A to D (`QQ 12 34 56 C`); spaces allowed.',
  },
  {
    canonical: 'pg_apprenticeship_start_date',
    kind: { kind: 'lenient_date' },
    description: 'Postgraduate apprenticeship start date; anything that is not a date is stored as null.',
  },
  {
    canonical: 'statsagency_id',
    kind: { kind: 'statsagency_id' },
    required: true,
    description: 'Statistics agency identifier: 13 or 17 characters.',
  },
  { canonical: 'provider_trainee_id', kind: text(50), description: "The provider's own identifier of the trainee, at most 50 characters." },
  {
    canonical: 'application_id',
    kind: { kind: 'application_id' },
    description: 'Application identifier: a non-negative integer of at most 7 digits.',
  },
  {
    canonical: 'employing_school_urn',
    kind: text(),
    description: 'URN of the employing school; empty or a not-applicable URN (900000, 900010, 900020, 900030) means none.',
  },
  {
    canonical: 'training_partner_urn',
    kind: text(),
    description: 'URN of the training partner; empty or a not-applicable URN means none. Takes precedence over the UKPRN.',
  },
  { canonical: 'training_partner_ukprn', kind: text(), description: 'UKPRN of the training partner; empty means none.' },
  {
    canonical: 'iqts_country',
    kind: code('country'),
    description: 'Country of an iQTS trainee (country code): required for route 15, refused for any other.',
  },
  {
    canonical: 'degrees_attributes',
    kind: { kind: 'degrees' },
    description: `Degrees (create only): required for a route that needs a degree; at most ${DEGREES_ATTRIBUTES_MAX_ITEMS}.`,
  },
  {
    canonical: 'placements_attributes',
    kind: { kind: 'placements' },
    description: `Placements (create only), at most ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS}.`,
  },
];

/** The version's rules that decide a field's wire check (the same rules object the domain reads). */
function versionRules(version: ApiVersion): { additionalCoded: boolean; courseYearInteger: boolean } {
  const rules = traineeRulesFor(version);
  return { additionalCoded: rules.additionalTrainingInitiative === 'coded', courseYearInteger: rules.courseYear === 'integer' };
}

const nullable = (schema: JsonSchema): JsonSchema => {
  const type = schema.type;
  if (typeof type === 'string')
    return { ...schema, type: [type, 'null'], ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}) };
  if (Array.isArray(schema.oneOf)) return { ...schema, oneOf: [...schema.oneOf, { type: 'null' }] };
  return schema;
};

function fieldFor(spec: TraineeFieldSpec, version: ApiVersion): WireField | null {
  const wire = versionFieldName(spec.canonical, version);
  if (wire === null) return null;
  const codes = codeBookFor(version);
  const kind = typeof spec.kind === 'function' ? spec.kind(version) : spec.kind;
  const base = { wire, canonical: spec.canonical, required: spec.required };
  const describe = (schema: JsonSchema): JsonSchema => nullable({ ...schema, description: spec.description });
  switch (kind.kind) {
    case 'text':
      return {
        ...base,
        checks: [IsText(), MaxChars(kind.max)],
        convert: (v) => textOf(v),
        schema: describe({ type: 'string', maxLength: kind.max }),
      };
    case 'ni_number':
      return {
        ...base,
        checks: [
          Satisfies(
            'niNumber',
            (v) => isNiNumber(textOf(v)),
            (label) => `${label} is invalid`,
          ),
        ],
        convert: (v) => textOf(v),
        schema: describe({ type: 'string', maxLength: NI_NUMBER_MAX_CHARS, pattern: NI_NUMBER.source }),
      };
    case 'email':
      return {
        ...base,
        checks: [IsText(), MaxChars(255), IsEmailAddress()],
        convert: (v) => textOf(v),
        schema: describe({ type: 'string', format: 'email', maxLength: 255 }),
      };
    case 'statsagency_id':
      return {
        ...base,
        checks: [IsText(), LengthOneOf([13, 17])],
        convert: (v) => textOf(v),
        schema: describe({ type: 'string', minLength: 13, maxLength: 17, pattern: '^(.{13}|.{17})$' }),
      };
    case 'date':
      return { ...base, checks: [IsIsoDate()], convert: (v) => parseIsoDate(v), schema: describe({ type: 'string', format: 'date' }) };
    case 'lenient_date':
      return { ...base, checks: [], convert: (v) => parseIsoDate(v), schema: describe({ type: 'string', format: 'date' }) };
    case 'code': {
      const list = spec.canonical === 'training_route' ? codes.acceptedRoutes : codes.codesOf(kind.list);
      const schema: JsonSchema = kind.numberAsText
        ? { anyOf: [{ type: 'string', enum: [...list] }, { type: 'integer', enum: list.map(Number) }, { type: 'null' }] }
        : { type: 'string', enum: [...list] };
      return {
        ...base,
        checks: [IsCode(codes, kind.list, { numberAsText: kind.numberAsText })],
        convert: (v) => (typeof v === 'number' ? String(v) : v),
        schema: kind.numberAsText ? { ...schema, description: spec.description } : describe(schema),
      };
    }
    case 'course_year':
      return courseYearField(base, spec.description, versionRules(version).courseYearInteger);
    case 'application_id':
      return applicationIdField(base, spec.description);
    case 'degrees':
      return nestedField(base, spec.description, degreeWire(version), DEGREES_ATTRIBUTES_MAX_ITEMS, 'degrees', 'DegreeInput');
    case 'placements':
      return nestedField(base, spec.description, NESTED_PLACEMENT_WIRE, PLACEMENTS_ATTRIBUTES_MAX_ITEMS, 'placements', 'PlacementInput');
  }
}

/** What every field of the trainee wire has: its wire and canonical names and whether a create needs it. */
type FieldBase = Pick<WireField, 'wire' | 'canonical' | 'required'>;

/**
 * `course_year`: where the version wants an integer, an integer or a string of digits; elsewhere any
 * number or string (docs/reference/API-FACTS.md §6); a string of digits is stored as a number.
 */
function courseYearField(base: FieldBase, description: string, integer: boolean): WireField {
  const test = integer
    ? (v: unknown) =>
        (typeof v === 'number' && Number.isSafeInteger(v)) || (typeof v === 'string' && /^\d+$/.test(v) && Number.isSafeInteger(Number(v)))
    : (v: unknown) => (typeof v === 'number' && Number.isFinite(v)) || typeof v === 'string';
  return {
    ...base,
    checks: [Satisfies('courseYear', test, (label) => `${label} is not a valid course year`)],
    convert: (v) => {
      if (typeof v === 'number') return v;
      const t = String(v).trim();
      return /^\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : t;
    },
    schema: {
      description: `${description} ${integer ? 'An integer (or a string of digits).' : 'Any value is accepted; an integer (or a string of digits) is stored as a number.'}`,
      oneOf: integer
        ? [{ type: 'integer', minimum: 0 }, { type: 'string', pattern: '^\\d+$' }, { type: 'null' }]
        : [{ type: 'integer' }, { type: 'string' }, { type: 'null' }],
      example: '2026',
    },
  };
}

/** `application_id`: up to 7 digits, as a number or a string (docs/reference/API-FACTS.md §6). */
function applicationIdField(base: FieldBase, description: string): WireField {
  return {
    ...base,
    checks: [
      Satisfies(
        'applicationId',
        (v) => {
          const t = textOf(v);
          return t !== undefined && charLength(t) <= 7 && /^\d+$/.test(t.trim());
        },
        (label, v) => {
          const t = textOf(v);
          return t !== undefined && charLength(t) > 7 ? `${label} is too long (maximum is 7 characters)` : `${label} is invalid`;
        },
      ),
    ],
    convert: (v) => Number(textOf(v)!.trim()),
    schema: {
      description: description,
      oneOf: [{ type: 'integer', minimum: 0, maximum: 9999999 }, { type: 'string', pattern: '^\\s*\\d{1,7}\\s*$' }, { type: 'null' }],
    },
  };
}

/**
 * Nested `degrees_attributes` / `placements_attributes` (create only): an array of at most `max` items of `items` (docs/DESIGN.md ruling
 * 14).
 */
function nestedField(
  base: FieldBase,
  description: string,
  items: WireObject<unknown>,
  max: number,
  noun: string,
  itemSchema: string,
): WireField {
  return {
    ...base,
    checks: [IsArray(), MaxItems(max, noun)],
    convert: (v) => v,
    items,
    schema: { type: ['array', 'null'], description, maxItems: max, items: { $ref: `#/components/schemas/${itemSchema}` } },
  };
}

/**
 * `disabilityN` keys: text (a JSON number as its text), reported as `disabilityN is invalid`
 * otherwise; at most {@link DISABILITY_KEYS_MAX} keys, numbered with at most two digits, each value at
 * most {@link TEXT_MAX_CHARS} characters (docs/DESIGN.md ruling 14).
 */
const DISABILITIES = {
  into: 'disabilities',
  matches: (key: string) => DISABILITY_KEY.test(key),
  maxKeys: DISABILITY_KEYS_MAX,
  tooManyKeys: `disabilities is too long (maximum is ${DISABILITY_KEYS_MAX} disabilities)`,
  check(key: string, value: unknown, problems: InputProblem[], at: MessagePath): unknown {
    if (key.length > 'disability'.length + DISABILITY_KEY_MAX_DIGITS) {
      problems.push({ path: [...at, 'disabilities'], message: 'disabilities is invalid (keys are disability1 to disability99)' });
      return undefined;
    }
    if (value === null) return null;
    if (isBlank(value)) return '';
    const t = textOf(value);
    if (t === undefined || charLength(t) > TEXT_MAX_CHARS) {
      const message = t === undefined ? `${key} is invalid` : `${key} is too long (maximum is ${TEXT_MAX_CHARS} characters)`;
      problems.push({ path: [...at, 'disabilities', Number(key.slice('disability'.length))], message });
      return undefined;
    }
    return t;
  },
};

const BY_VERSION = new Map<string, WireObject<TraineeFields>>();

/**
 * The trainee wire object of `version`: a create body's `data`, or (`update`) an update body's,
 * which does not read the nested degrees and placements (docs/reference/API-FACTS.md §7.3).
 */
export function traineeWire(version: ApiVersion, mode: 'create' | 'update' = 'create'): WireObject<TraineeFields> {
  const key = `${version}|${mode}`;
  let wire = BY_VERSION.get(key);
  if (!wire) {
    const nested = new Set<string>(['degrees_attributes', 'placements_attributes']);
    // An update sends what changes: nothing is required on the wire (the merged record's rules decide).
    const specs =
      mode === 'create'
        ? TRAINEE_FIELD_SPECS
        : TRAINEE_FIELD_SPECS.filter((s) => !nested.has(s.canonical)).map((s) => ({ ...s, required: false }));
    const fields = specs.map((s) => fieldFor(s, version)).filter((f): f is WireField => f !== null);
    wire = new WireObject<TraineeFields>(mode === 'create' ? 'TraineeInput' : 'TraineeUpdateInput', fields, DISABILITIES);
    BY_VERSION.set(key, wire);
  }
  return wire;
}
