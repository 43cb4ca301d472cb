import { parseIsoDate, yearOf } from '../../academic-cycle';
import { OTHER_UK_INSTITUTION_UUID, lookupCode, unknownCodeMessage } from '../../reference-data';
import type { DegreeInput } from '../trainee.details';
import type { ValidationContext, ValidationResult } from './validation-result';
import { getKey, hasKey, isBlank, isJsonObject } from './values';

/** Input keys of a degree (docs/reference/API-FACTS.md §11.1); `other_grade` is accepted but never kept (§11.5). */
export const DEGREE_INPUT_KEYS = ['uk_degree', 'non_uk_degree', 'subject', 'institution', 'grade', 'graduation_year', 'country', 'other_grade'] as const;

/** The six fields the degree duplicate rule compares (docs/reference/API-FACTS.md §9.2). */
export const DEGREE_DUPLICATE_FIELDS = ['subject', 'graduation_year', 'country', 'uk_degree', 'non_uk_degree', 'grade'] as const;

type DuplicateFields = Pick<DegreeInput, (typeof DEGREE_DUPLICATE_FIELDS)[number]>;

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

const FULL_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Reads graduation_year (docs/reference/API-FACTS.md §11.4): a year as a JSON integer or a string of digits, or a full
 * date `YYYY-MM-DD` (only that exact pattern, and only a real date, is converted to its year).
 * Returns the year, `null` when blank, or `'invalid'`.
 */
export function parseGraduationYear(value: unknown): number | null | 'invalid' {
  if (isBlank(value)) return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : 'invalid';
  if (typeof value !== 'string') return 'invalid';
  const s = value.trim();
  if (FULL_DATE.test(s)) {
    const date = parseIsoDate(s);
    return date === null ? 'invalid' : yearOf(date);
  }
  if (/^\d{1,9}$/.test(s)) return Number(s);
  return 'invalid';
}

/**
 * The UK/non-UK decision (docs/reference/API-FACTS.md §11.2): UK when `country` is blank, is a UK code (XF, XG, XH,
 * XI, XK), or an `institution` value is given; otherwise non-UK.
 */
export function isUkDegree(country: unknown, institution: unknown, ctx: ValidationContext): boolean {
  if (isBlank(country) || !isBlank(institution)) return true;
  return lookupCode('country', country, ctx.version)?.uk === true;
}

/** Core of degree validation on canonical raw values; `uk` forces the UK/non-UK decision. */
function checkDegree(data: Record<string, unknown>, ctx: ValidationContext, uk: boolean): ValidationResult<DegreeInput> {
  const { version } = ctx;
  const errors: string[] = [];

  // subject: missing or unknown code are the same error (§11.3).
  const subject = lookupCode('degree_subject', getKey(data, 'subject'), version);
  if (!subject) errors.push(DEGREE_MESSAGES.subjectMissing);

  // graduation_year (§11.3, §11.4): range [next year − 60, next year].
  const nextYear = yearOf(ctx.today) + 1;
  const year = parseGraduationYear(getKey(data, 'graduation_year'));
  if (year === null) errors.push(DEGREE_MESSAGES.graduationYearMissing);
  else if (year === 'invalid') errors.push(DEGREE_MESSAGES.graduationYearInvalid);
  else if (year > nextYear) errors.push(DEGREE_MESSAGES.graduationYearFuture, DEGREE_MESSAGES.graduationYearInvalid);
  else if (year < nextYear - 60) errors.push(DEGREE_MESSAGES.graduationYearInvalid);

  const rawUkDegree = getKey(data, 'uk_degree');
  const rawNonUkDegree = getKey(data, 'non_uk_degree');
  const ukDegree = lookupCode('degree_type', rawUkDegree, version);
  const nonUkDegree = lookupCode('degree_type', rawNonUkDegree, version);

  // grade: `09` is stored as `14` (§11.5); unknown counts as missing.
  const rawGrade = getKey(data, 'grade');
  const gradeInput = lookupCode('degree_grade', rawGrade, version);
  const grade = gradeInput?.stored_as_code ? lookupCode('degree_grade', gradeInput.stored_as_code, version) : gradeInput;

  const rawCountry = getKey(data, 'country');
  let country: string | null = null;
  if (uk) {
    if (isBlank(rawUkDegree)) errors.push(DEGREE_MESSAGES.ukDegreeMissing);
    else if (!ukDegree) errors.push(unknownCodeMessage('uk_degree', rawUkDegree, 'degree_type', version));
    if (!grade) errors.push(DEGREE_MESSAGES.gradeMissing);
  } else {
    if (isBlank(rawNonUkDegree)) errors.push(DEGREE_MESSAGES.nonUkDegreeMissing);
    else if (!nonUkDegree) errors.push(unknownCodeMessage('non_uk_degree', rawNonUkDegree, 'degree_type', version));
    const countryEntry = lookupCode('country', rawCountry, version);
    if (!countryEntry) errors.push(unknownCodeMessage('country', rawCountry, 'country', version));
    else country = countryEntry.code;
  }

  if (errors.length > 0) return { ok: false, errors };

  // institution (UK only): `0133` is stored as `0149`; unknown or missing → "Other UK institution".
  let institution: string | null = null;
  let institutionUuid: string | null = null;
  if (uk) {
    const given = lookupCode('degree_institution', getKey(data, 'institution'), version);
    const stored = given?.stored_as_code ? lookupCode('degree_institution', given.stored_as_code, version) : given;
    institution = stored?.code ?? null;
    institutionUuid = stored?.uuid ?? OTHER_UK_INSTITUTION_UUID;
  }

  return {
    ok: true,
    value: {
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
    },
  };
}

/**
 * Validates a new degree (POST …/degrees, or one item of a create's `degrees_attributes`;
 * docs/reference/API-FACTS.md §11.1–§11.6). Takes the degree object as sent (any JSON value; a non-object counts as
 * `{}`) and the context (`today` bounds graduation_year). Returns the degree to store — codes,
 * integer graduation_year, uuids from the reference files — or the messages, which carry no prefix
 * (§5.2).
 *
 * - UK or non-UK by {@link isUkDegree}; a UK degree stores country null, a non-UK one no institution.
 * - subject (unknown = missing), graduation_year (year, number or `YYYY-MM-DD`; within
 *   [next year − 60, next year]); UK: uk_degree and grade (unknown grade = missing); non-UK:
 *   non_uk_degree, and an unknown country is an unknown-code error (§6.9 lists).
 * - grade `09` → `14`, institution `0133` → `0149`; an unknown or missing institution of a UK degree
 *   becomes "Other UK institution": institution null, institution_uuid
 *   {@link OTHER_UK_INSTITUTION_UUID}. other_grade is always null (§11.5).
 * - A degree type in the field the decision does not use (uk_degree of a non-UK degree and vice
 *   versa) is kept when it is a known code and dropped (null) when not; it is never an error.
 */
export function validateDegree(input: unknown, ctx: ValidationContext): ValidationResult<DegreeInput> {
  const data = isJsonObject(input) ? input : {};
  return checkDegree(data, ctx, isUkDegree(getKey(data, 'country'), getKey(data, 'institution'), ctx));
}

/**
 * Validates a degree update (PUT/PATCH …/degrees/{id}; docs/reference/API-FACTS.md §11.7). Partial: only the keys
 * present in `input` change the stored degree; then the merged degree is validated as new.
 * Sending `uk_degree` or `non_uk_degree` re-decides UK/non-UK from this request alone: both degree
 * types and the country come from the request (absent = null, so switching to `uk_degree` without
 * `country` makes the degree UK), and the decision looks only at the request's country and
 * institution (a stored institution is kept for a UK result unless the request sends one).
 * Deliberate difference from the reference implementation: the `*_uuid` fields always follow the
 * stored codes (its quirk of not refreshing them is not copied). A JSON null for a sent key clears it.
 */
export function validateDegreeUpdate(input: unknown, stored: DegreeInput, ctx: ValidationContext): ValidationResult<DegreeInput> {
  const req = isJsonObject(input) ? input : {};
  const merged: Record<string, unknown> = {
    uk_degree: stored.uk_degree,
    non_uk_degree: stored.non_uk_degree,
    subject: stored.subject,
    institution: stored.institution,
    grade: stored.grade,
    graduation_year: stored.graduation_year,
    country: stored.country,
  };
  for (const key of DEGREE_INPUT_KEYS) if (hasKey(req, key)) merged[key] = req[key];

  if (hasKey(req, 'uk_degree') || hasKey(req, 'non_uk_degree')) {
    merged.uk_degree = getKey(req, 'uk_degree') ?? null;
    merged.non_uk_degree = getKey(req, 'non_uk_degree') ?? null;
    const uk = isUkDegree(getKey(req, 'country'), getKey(req, 'institution'), ctx);
    merged.country = uk ? null : (getKey(req, 'country') ?? null);
    if (!uk) merged.institution = null;
    return checkDegree(merged, ctx, uk);
  }
  return checkDegree(merged, ctx, isUkDegree(merged.country, merged.institution, ctx));
}

function isBlankDuplicateValue(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === 'string' && v.trim() === '');
}

/**
 * The duplicate-comparison key of a validated degree (docs/reference/API-FACTS.md §9.2, §6.6): its non-blank values
 * among subject, graduation_year, country, uk_degree, non_uk_degree, grade, as a string. Two degrees
 * of one create payload are duplicates when their keys are equal and not empty (`''` = no values).
 */
export function degreeDuplicateKey(degree: DuplicateFields): string {
  const pairs: [string, string | number][] = [];
  for (const field of DEGREE_DUPLICATE_FIELDS) {
    const v = degree[field];
    if (!isBlankDuplicateValue(v)) pairs.push([field, v as string | number]);
  }
  return pairs.length === 0 ? '' : JSON.stringify(pairs);
}

/**
 * The degree duplicate rule against an existing degree (docs/reference/API-FACTS.md §9.2): true when `existing`
 * equals `incoming` on every field among subject, graduation_year, country, uk_degree,
 * non_uk_degree, grade where `incoming` is non-blank. (So an incoming degree with none of the six
 * matches every existing degree — the reference implementation's documented quirk.)
 */
export function degreesEqualOnNonBlank(incoming: DuplicateFields, existing: DuplicateFields): boolean {
  return DEGREE_DUPLICATE_FIELDS.every((field) => isBlankDuplicateValue(incoming[field]) || incoming[field] === existing[field]);
}
