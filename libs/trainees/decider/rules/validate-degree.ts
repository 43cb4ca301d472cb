/** The rules of a previous degree (docs/reference/API-FACTS.md §11, §9.2); the wire checks' problems arrive with the fields. Pure. */
import { yearOf } from '@app/calendar';
import { OTHER_UK_INSTITUTION_UUID, type DegreeInput, type DegreeFields } from '@app/trainees/record';
import type { TraineeRules } from '../trainee.rules';
import { BLANK, MessageList, unknownCode, type InputProblem, type MessagePath, type ProblemDetail } from './request-data';
import { recordResult, type ValidationResult } from './validation-result';

/** The six fields the degree duplicate rule compares (docs/reference/API-FACTS.md §9.2). */
export const DEGREE_DUPLICATE_FIELDS = ['subject', 'graduation_year', 'country', 'uk_degree', 'non_uk_degree', 'grade'] as const;

type DuplicateFields = Pick<DegreeInput, (typeof DEGREE_DUPLICATE_FIELDS)[number]>;

/** The order in which a degree's messages are answered (docs/reference/API-FACTS.md §11.3). */
export const DEGREE_MESSAGE_ORDER: readonly string[] = [
  'subject',
  'graduation_year',
  'uk_degree',
  'grade',
  'non_uk_degree',
  'country',
  'institution',
  'other_grade',
];

/** Messages of docs/reference/API-FACTS.md §11.3, byte for byte. */
export const DEGREE_MESSAGES = {
  subjectMissing: 'subject must be entered if specifying a previous UK degree or non-UK degree',
  graduationYearMissing: 'graduation_year must be entered if specifying a previous UK degree or non-UK degree',
  graduationYearFuture: 'graduation_year must be in the past, for example 2014',
  graduationYearInvalid: 'graduation_year is invalid',
  ukDegreeMissing: 'uk_degree must be entered if specifying a previous UK degree',
  gradeMissing: 'grade must be entered if specifying a previous UK degree or non-UK degree',
  nonUkDegreeMissing: 'non_uk_degree must be entered if specifying a previous non-UK degree',
} as const;

/** What the degree rules need: the version's rules and today (`YYYY-MM-DD`, UTC). */
export interface DegreeRuleContext {
  rules: TraineeRules;
  today: string;
}

function isBlank(value: unknown): value is undefined | null | '' {
  return value === undefined || value === null || value === '';
}

/** UK when `country` is blank or a UK code, or an `institution` is given (docs/reference/API-FACTS.md §11.2). */
export function isUkDegree(country: string | null | undefined, institution: string | null | undefined, rules: TraineeRules): boolean {
  if (isBlank(country) || !isBlank(institution)) return true;
  return rules.codes.lookup('country', country)?.uk === true;
}

/** graduation_year (§11.3): given, and in [next year − 60, next year]. */
function checkGraduationYear(
  year: DegreeFields['graduation_year'],
  today: string,
  add: (message: string, detail: ProblemDetail) => void,
): void {
  const nextYear = yearOf(today) + 1;
  if (isBlank(year)) return add(DEGREE_MESSAGES.graduationYearMissing, BLANK);
  const range: ProblemDetail = { kind: 'year_range', value: String(year), params: { min: String(nextYear - 60), max: String(nextYear) } };
  if (year > nextYear) {
    add(DEGREE_MESSAGES.graduationYearFuture, range);
    add(DEGREE_MESSAGES.graduationYearInvalid, range);
  } else if (year < nextYear - 60) add(DEGREE_MESSAGES.graduationYearInvalid, range);
}

/** Core of the degree rules on typed fields; `uk` forces the UK/non-UK decision. Adds messages under `at`. */
function checkDegree(data: DegreeFields, ctx: DegreeRuleContext, uk: boolean, messages: MessageList, at: MessagePath): DegreeInput | null {
  const { codes } = ctx.rules;
  const add = (field: string, message: string, detail: ProblemDetail = BLANK): void => messages.add([...at, field], message, detail);
  const wireRefused = (field: keyof DegreeFields): boolean => messages.has([...at, field]);

  // subject: missing or unknown code are the same error (§11.3); the wire checks refuse an unknown one.
  const subject = codes.lookup('degree_subject', data.subject);
  if (!subject && !wireRefused('subject')) add('subject', DEGREE_MESSAGES.subjectMissing);

  const year = data.graduation_year;
  if (!wireRefused('graduation_year')) checkGraduationYear(year, ctx.today, (message, detail) => add('graduation_year', message, detail));

  const ukDegree = codes.lookup('degree_type', data.uk_degree);
  const nonUkDegree = codes.lookup('degree_type', data.non_uk_degree);

  // grade: `09` is stored as `14` (§11.5); unknown counts as missing.
  const gradeInput = codes.lookup('degree_grade', data.grade);
  const grade = gradeInput?.stored_as_code ? codes.lookup('degree_grade', gradeInput.stored_as_code) : gradeInput;

  let country: string | null = null;
  if (uk) {
    if (!wireRefused('uk_degree')) {
      if (isBlank(data.uk_degree)) add('uk_degree', DEGREE_MESSAGES.ukDegreeMissing);
      else if (!ukDegree)
        add('uk_degree', codes.unknownCodeMessage('uk_degree', data.uk_degree, 'degree_type'), unknownCode(data.uk_degree, 'degree_type'));
    }
    if (!grade && !wireRefused('grade')) add('grade', DEGREE_MESSAGES.gradeMissing);
  } else {
    if (!wireRefused('non_uk_degree')) {
      if (isBlank(data.non_uk_degree)) add('non_uk_degree', DEGREE_MESSAGES.nonUkDegreeMissing);
      else if (!nonUkDegree)
        add(
          'non_uk_degree',
          codes.unknownCodeMessage('non_uk_degree', data.non_uk_degree, 'degree_type'),
          unknownCode(data.non_uk_degree, 'degree_type'),
        );
    }
    const countryEntry = codes.lookup('country', data.country);
    if (!countryEntry) {
      if (!wireRefused('country'))
        add('country', codes.unknownCodeMessage('country', data.country ?? '', 'country'), unknownCode(data.country ?? '', 'country'));
    } else country = countryEntry.code;
  }

  if (messages.has(at)) return null;

  // institution (UK only): `0133` is stored as `0149`; unknown or missing → "Other UK institution".
  let institution: string | null = null;
  let institutionUuid: string | null = null;
  if (uk) {
    const given = codes.lookup('degree_institution', data.institution);
    const stored = given?.stored_as_code ? codes.lookup('degree_institution', given.stored_as_code) : given;
    institution = stored?.code ?? null;
    institutionUuid = stored?.uuid ?? OTHER_UK_INSTITUTION_UUID;
  }

  return {
    uk_degree: ukDegree?.code ?? null,
    non_uk_degree: nonUkDegree?.code ?? null,
    subject: subject!.code,
    institution,
    grade: grade?.code ?? null,
    country,
    graduation_year: year as number,
    other_grade: null,
    institution_uuid: institutionUuid,
    uk_degree_uuid: uk ? (ukDegree?.uuid ?? null) : null,
    subject_uuid: subject!.uuid,
    grade_uuid: grade?.uuid ?? null,
  };
}

/** One `degrees_attributes` item (docs/reference/API-FACTS.md §6.6, §11.3): its messages under `at` (no prefix), the degree or null. */
export function checkNestedDegree(data: DegreeFields, ctx: DegreeRuleContext, messages: MessageList, at: MessagePath): DegreeInput | null {
  return checkDegree(data, ctx, isUkDegree(data.country, data.institution, ctx.rules), messages, at);
}

/**
 * The rules of a new degree (docs/reference/API-FACTS.md §11.1–§11.6): the degree to store, with uuids from the reference data, or
 * every message in {@link DEGREE_MESSAGE_ORDER}. A degree type in the field the UK/non-UK decision does not use is kept when known,
 * else dropped, never an error.
 */
export function validateDegree(
  data: DegreeFields,
  problems: readonly InputProblem[],
  ctx: DegreeRuleContext,
): ValidationResult<DegreeInput> {
  const messages = new MessageList(problems);
  const degree = checkDegree(data, ctx, isUkDegree(data.country, data.institution, ctx.rules), messages, []);
  return recordResult(degree, messages, DEGREE_MESSAGE_ORDER);
}

/**
 * The rules of a degree update (docs/reference/API-FACTS.md §11.7): the fields sent merged, then checked as new. Sending either degree
 * type re-decides UK/non-UK from the request alone (its types and country, absent = null). Unlike the reference, the `*_uuid`
 * fields always follow the stored codes.
 */
export function validateDegreeUpdate(
  data: DegreeFields,
  problems: readonly InputProblem[],
  stored: DegreeInput,
  ctx: DegreeRuleContext,
): ValidationResult<DegreeInput> {
  const messages = new MessageList(problems);
  const merged: DegreeFields = {
    uk_degree: stored.uk_degree,
    non_uk_degree: stored.non_uk_degree,
    subject: stored.subject,
    institution: stored.institution,
    grade: stored.grade,
    graduation_year: stored.graduation_year,
    country: stored.country,
  };
  const sent = (field: keyof DegreeFields): boolean => data[field] !== undefined;
  for (const field of Object.keys(data) as (keyof DegreeFields)[]) {
    if (sent(field)) (merged as Record<string, unknown>)[field] = data[field];
  }
  let degree: DegreeInput | null;
  if (sent('uk_degree') || sent('non_uk_degree') || messages.invalid.has('uk_degree') || messages.invalid.has('non_uk_degree')) {
    merged.uk_degree = data.uk_degree ?? null;
    merged.non_uk_degree = data.non_uk_degree ?? null;
    const uk = isUkDegree(data.country, data.institution, ctx.rules);
    merged.country = uk ? null : (data.country ?? null);
    if (!uk) merged.institution = null;
    degree = checkDegree(merged, ctx, uk, messages, []);
  } else {
    degree = checkDegree(merged, ctx, isUkDegree(merged.country, merged.institution, ctx.rules), messages, []);
  }
  return recordResult(degree, messages, DEGREE_MESSAGE_ORDER);
}

function isBlankDuplicateValue(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

/** Two degrees of one create are duplicates when these keys are equal and not `''` (docs/reference/API-FACTS.md §9.2, §6.6). */
export function degreeDuplicateKey(degree: DuplicateFields): string {
  const pairs: [string, string | number][] = [];
  for (const field of DEGREE_DUPLICATE_FIELDS) {
    const v = degree[field];
    if (!isBlankDuplicateValue(v)) pairs.push([field, v as string | number]);
  }
  return pairs.length === 0 ? '' : JSON.stringify(pairs);
}

/**
 * The degree duplicate rule (docs/reference/API-FACTS.md §9.2): equal on every non-blank field of `incoming`, so one with none matches
 * every degree, as the reference does.
 */
export function degreesEqualOnNonBlank(incoming: DuplicateFields, existing: DuplicateFields): boolean {
  return DEGREE_DUPLICATE_FIELDS.every((field) => isBlankDuplicateValue(incoming[field]) || incoming[field] === existing[field]);
}
