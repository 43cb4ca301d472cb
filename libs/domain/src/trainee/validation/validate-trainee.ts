/**
 * Trainee create and update validation (docs/reference/API-FACTS.md §6.2–§6.10, §7, §8). Pure functions over parsed
 * JSON: they never throw on any input, and return every failed rule's message together.
 *
 * Decisions taken where the facts leave room (also listed in the functions' docs):
 * (a) No school or training-partner register exists yet: `employing_school_urn`,
 *     `training_partner_urn`/`lead_partner_urn` and `training_partner_ukprn`/`lead_partner_ukprn`
 *     are accepted as sent (strings or numbers, trimmed); the not-applicable URNs
 *     900000/900010/900020/900030 and empty values are stored null. When the URN key is present
 *     the UKPRN is stored null (URN precedence, §6.8). A present key with null also means "not
 *     applicable" (as the reference implementation's key test does), on update too.
 * (b) `iqts_country`: v2026.1 requires it for route 15 (iQTS) and checks it against the country
 *     codes; for any other route a sent iqts_country is ignored and stored null (not the
 *     reference's "must be blank": the shipped v2026.1 request example sends one with route 11).
 *     v2025.0 ignores the key (create: null; update: the stored value is kept).
 * (c) The v2025.0 and v2026.1 POST /trainees request examples of the OpenAPI documents validate.
 * (d) The secondary web-form validation of §5.5 is not implemented.
 * (e) Values of the wrong JSON type: free-text fields accept strings and numbers (as their decimal
 *     text); booleans, arrays and objects give `<field> is invalid`. Coded fields accept only
 *     strings (a number gets the unknown-code message), except itt_aim, which also takes a JSON
 *     number and stores it as a string (docs/DESIGN.md ruling 12).
 * (f) Messages are de-duplicated (two nested degrees missing a subject give one message).
 * (g) A rule that compares a field with another skips when one of them already failed its own
 *     check (no "course_subject_1 is invalid. It should be `100511`…" on top of an unknown code),
 *     except the §8 funding rules, which follow the reference implementation literally.
 * (h) A blank trainee_start_date takes itt_start_date's value; when that value is not a date only
 *     `itt_start_date is invalid` is reported (not a second `trainee_start_date is invalid`).
 * (i) `application_id` must be a non-negative integer (JSON integer or digits): longer than 7
 *     characters → `application_id is too long (maximum is 7 characters)`, anything else non-blank
 *     → `application_id is invalid` (the reference silently stores null).
 * (j) `pg_apprenticeship_start_date` is not validated (§6.4): a real date is stored as
 *     `YYYY-MM-DD`, anything else as null (as a date column casts it).
 * (k) Blank email gives only `email can't be blank` (not also the format message); an upper-case
 *     top-level domain is accepted.
 * (l) §7.9: diversity_disclosure, course_education_phase and training_initiative are recomputed
 *     from the merged record on update (stored values are kept), not from the request alone.
 * (m) On update a `disabilityN` key sent as null or "" removes that key (otherwise there would be
 *     no way to remove one); other keys merge by key (§7.5).
 */
import {
  academicCycleLabel,
  addYears,
  parseIsoDate,
  startCycleOf,
  yearOf,
} from '../../academic-cycle';
import type { ApiVersion } from '../../api-version';
import {
  VETERANS_INITIATIVE,
  allocationSubjectsOf,
  echoValue,
  fundingMethodExists,
  initiativesAvailableIn,
  isNotApplicableUrn,
  isTrainingRouteAcceptedOnWrite,
  lookupCode,
  routesWithFunding,
  unknownCodeMessage,
} from '../../reference-data';
import type { RefListName, RefLists } from '../../reference-data';
import type { DegreeInput, PlacementInput, TraineeDetails } from '../trainee.details';
import { fieldLabel, toCanonicalInput } from './field-names';
import { degreeDuplicateKey, validateDegree } from './validate-degree';
import { validatePlacement } from './validate-placement';
import type { ValidationContext, ValidationResult } from './validation-result';
import { asText, charLength, getKey, hasKey, isBlank, isJsonObject, squish, uniqueMessages } from './values';

/** Canonical keys a trainee create/update reads (docs/reference/API-FACTS.md §6.2), besides `disabilityN`. */
export const TRAINEE_INPUT_KEYS = [
  'first_names',
  'middle_names',
  'last_name',
  'previous_last_name',
  'date_of_birth',
  'email',
  'sex',
  'nationality',
  'training_route',
  'itt_start_date',
  'itt_end_date',
  'trainee_start_date',
  'course_subject_1',
  'course_subject_2',
  'course_subject_3',
  'course_age_range',
  'study_mode',
  'ethnicity',
  'training_initiative',
  'additional_training_initiative',
  'itt_aim',
  'itt_qualification_aim',
  'course_year',
  'fund_code',
  'funding_method',
  'ni_number',
  'pg_apprenticeship_start_date',
  'statsagency_id',
  'provider_trainee_id',
  'application_id',
  'employing_school_urn',
  'training_partner_urn',
  'training_partner_ukprn',
  'iqts_country',
  'placements_attributes',
  'degrees_attributes',
] as const;

/** `disability` followed by digits: every such key is stored and echoed (docs/reference/API-FACTS.md §6.7). */
export const DISABILITY_KEY = /^disability\d+$/;

/** Message when `data` is missing, empty or not an object (docs/reference/API-FACTS.md §5.1; docs/DESIGN.md ruling 4). */
export const MISSING_DATA_MESSAGE = 'Param is missing or the value is empty or invalid: data';

const PRIMARY_TEACHING = '100511';
const EARLY_YEARS_TEACHING = '100510';
const EARLY_YEARS_AGE_RANGE = '13920';
const IQTS_ROUTE = '15';
/** Routes for which study_mode is optional in v2026.1: assessment only, early-years assessment only. */
const STUDY_MODE_OPTIONAL_ROUTES = ['16', '17'];
const VETERANS_FUNDING_METHOD = 'C';
const ELIGIBLE_FUND_CODE = '7';
/** Allocation subjects of the fund-code exception (docs/reference/API-FACTS.md §8.2). */
const FUND_CODE_EXCEPTION_SUBJECTS = ['Ancient languages', 'Modern languages', 'French language', 'German language', 'Spanish language', 'Physics'];
/** Cycles (start years) in which the fund-code exception applies, per version (docs/reference/API-FACTS.md §8.2, §18). */
const FUND_CODE_EXCEPTION_CYCLES: Record<ApiVersion, readonly number[]> = { 'v2025.0': [2025], 'v2026.1': [2025, 2026] };
/** On update, an empty string for these behaves like absent (they are re-derived from codes; §7.4). */
const EMPTY_MEANS_ABSENT_ON_UPDATE = ['training_route', 'course_subject_1', 'study_mode', 'nationality', 'training_initiative'];

// ---------------------------------------------------------------------------------------------
// Email format (docs/reference/API-FACTS.md §6.4)
// ---------------------------------------------------------------------------------------------

const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@([^.@][^@\s]+)$/;
const EMAIL_PART = /^(xn-|[a-z0-9]+)(-[a-z0-9]+)*$/i;
const EMAIL_TLD = /^([a-z]{2,63}|xn--([a-z0-9]+-)*[a-z0-9]+)$/i;

/**
 * The email format rule (docs/reference/API-FACTS.md §6.4): local part of letters, digits and
 * ``.!#$%&'*+/=?^_`{|}~-``; one `@`; a domain of at least two dot-separated labels of at most 63
 * characters, each letters/digits with single inner hyphens (or an `xn-` start); a top-level label
 * of 2–63 letters (or `xn--…`); no `..`; at most 320 characters in all and 253 in the domain.
 */
export function isValidEmailFormat(email: string): boolean {
  const m = EMAIL.exec(email);
  if (!m || email.length > 320 || email.includes('..')) return false;
  const host = m[1];
  if (host.length > 253) return false;
  const parts = host.split('.');
  if (parts.length < 2 || parts.some((p) => p.length > 63)) return false;
  return parts.every((p) => EMAIL_PART.test(p)) && EMAIL_TLD.test(parts[parts.length - 1]);
}

// ---------------------------------------------------------------------------------------------
// The shared core: one pass over a canonical raw record
// ---------------------------------------------------------------------------------------------

type Raw = Record<string, unknown>;

interface CoreOptions {
  mode: 'create' | 'update';
  /** The request's own canonical keys (partner/school keys are read from here, §6.8). */
  request: Raw;
  /** Update only: the stored record. */
  stored?: TraineeDetails;
  /** Whether to apply the "degrees required for this route" rule, and with how many degrees. */
  degreesForRequiredRule: number | null;
}

interface CoreOutput {
  errors: string[];
  details?: TraineeDetails;
  placements: PlacementInput[];
  degrees: DegreeInput[];
}

function nullableText(s: string | null): string | null {
  return s === null || s.trim() === '' ? null : s;
}

/** Trimmed URN/UKPRN as stored: null when blank, and for a URN also when not applicable (decision (a)). */
function partnerValue(value: string | null, isUrn: boolean): string | null {
  if (value === null) return null;
  const t = value.trim();
  return t === '' || (isUrn && isNotApplicableUrn(t)) ? null : t;
}

function checkTrainee(raw: Raw, ctx: ValidationContext, opts: CoreOptions): CoreOutput {
  const { version, today } = ctx;
  const errors: string[] = [];
  const label = (field: string): string => fieldLabel(field, version);
  const get = (field: string): unknown => getKey(raw, field);

  /** Free text: blank → null (+ "can't be blank" when required); wrong type → "is invalid". */
  const text = (field: string, required: boolean, max?: number): string | null => {
    const v = get(field);
    if (isBlank(v)) {
      if (required) errors.push(`${label(field)} can't be blank`);
      return null;
    }
    const t = asText(v);
    if (t === undefined) {
      errors.push(`${label(field)} is invalid`);
      return null;
    }
    if (max !== undefined && charLength(t) > max) errors.push(`${label(field)} is too long (maximum is ${max} characters)`);
    return t;
  };

  /** A date field: blank → null (+ "can't be blank" when required); not a date → "is invalid". */
  const date = (field: string, required: boolean): string | null => {
    const v = get(field);
    if (isBlank(v)) {
      if (required) errors.push(`${label(field)} can't be blank`);
      return null;
    }
    const d = parseIsoDate(v);
    if (d === null) errors.push(`${label(field)} is invalid`);
    return d;
  };

  /** Silent code lookup of a field (no message). */
  const find = <L extends RefListName>(field: string, list: L, value: unknown = get(field)): RefLists[L] | undefined =>
    isBlank(value) ? undefined : lookupCode(list, value, version);

  /** A coded field: blank → "can't be blank" when required; unknown → §6.9 message. */
  const code = <L extends RefListName>(field: string, list: L, required: boolean, value: unknown = get(field)): RefLists[L] | undefined => {
    if (isBlank(value)) {
      if (required) errors.push(`${label(field)} can't be blank`);
      return undefined;
    }
    const entry = lookupCode(list, value, version);
    if (!entry) errors.push(unknownCodeMessage(label(field), value, list, version));
    return entry;
  };

  // --- values needed by several rules, looked up silently first --------------------------------
  const rawRoute = get('training_route');
  const route = find('training_route', 'training_route');
  const ageRange = find('course_age_range', 'course_age_range');
  const fundingMethod = find('funding_method', 'funding_method');
  const earlyYearsRoute = version === 'v2026.1' && route?.early_years === true;

  // Course subjects; v2025.0 rewrites them for a primary age range (§6.6): primary teaching first,
  // then the other given subjects (at most two), when every given subject is a known code.
  let subjectValues: unknown[] = [get('course_subject_1'), get('course_subject_2'), get('course_subject_3')];
  const subjectEntriesBefore = subjectValues.map((v) => (isBlank(v) ? undefined : lookupCode('course_subject', v, version)));
  const allGivenSubjectsKnown = subjectValues.every((v, i) => isBlank(v) || subjectEntriesBefore[i] !== undefined);
  const primaryPhase = ageRange?.course_education_phase === 'primary';
  if (version === 'v2025.0' && primaryPhase && allGivenSubjectsKnown) {
    const others = subjectEntriesBefore.filter((e): e is RefLists['course_subject'] => e !== undefined && e.code !== PRIMARY_TEACHING).map((e) => e.code);
    subjectValues = [PRIMARY_TEACHING, others[0] ?? null, others[1] ?? null];
  }

  // --- §6.3 order -------------------------------------------------------------------------------
  const firstNames = text('first_names', true, 60);
  const lastName = text('last_name', true, 60);

  // date_of_birth (§6.5)
  const dateOfBirth = date('date_of_birth', true);
  if (dateOfBirth !== null) {
    if (dateOfBirth < addYears(today, -100)) errors.push(`${label('date_of_birth')} is invalid`);
    else if (dateOfBirth > today) errors.push(`${label('date_of_birth')} must be in the past`);
    else if (dateOfBirth > addYears(today, -16)) errors.push(`${label('date_of_birth')} cannot be less than 16 years ago`);
  }

  const sex = code('sex', 'sex', true);

  // training_route (§6.6): unknown code → value as sent; known but refused in this version, or
  // route 12 before its first cycle → the route's internal name.
  const rawTraineeStart = get('trainee_start_date');
  const traineeStartDefaulted = isBlank(rawTraineeStart);
  const effectiveTraineeStart = traineeStartDefaulted ? get('itt_start_date') : rawTraineeStart;
  if (isBlank(rawRoute)) {
    errors.push(`${label('training_route')} can't be blank`);
  } else if (!route) {
    errors.push(unknownCodeMessage(label('training_route'), rawRoute, 'training_route', version));
  } else if (!isTrainingRouteAcceptedOnWrite(route.code, version)) {
    errors.push(unknownCodeMessage(label('training_route'), route.value, 'training_route', version));
  } else if (route.earliest_start_cycle !== undefined) {
    const startForRoute = traineeStartDefaulted ? parseIsoDate(get('itt_start_date')) : parseIsoDate(rawTraineeStart);
    if (startForRoute !== null && startCycleOf({ trainee_start_date: startForRoute }, today) < route.earliest_start_cycle) {
      errors.push(unknownCodeMessage(label('training_route'), route.value, 'training_route', version));
    }
  }

  // itt dates (§6.5)
  const ittStart = date('itt_start_date', true);
  if (ittStart !== null && yearOf(ittStart) > yearOf(today) + 1) {
    errors.push(`${label('itt_start_date')} must not be more than one year in the future`);
  }
  const ittEnd = date('itt_end_date', true);
  if (ittStart !== null && ittEnd !== null) {
    if (version === 'v2026.1' && yearOf(ittEnd) > yearOf(today) + 5) errors.push(`${label('itt_end_date')} must be within the next 5 years`);
    else if (version === 'v2026.1' && ittEnd < addYears(today, -10)) errors.push(`${label('itt_end_date')} must be within the last 10 years`);
    else if (ittEnd <= ittStart) errors.push(`${label('itt_end_date')} must be after itt_start_date`);
  }

  // statsagency_id (§6.4): exactly 13 or 17 characters
  const statsagencyId = text('statsagency_id', true);
  if (statsagencyId !== null && ![13, 17].includes(charLength(statsagencyId))) {
    errors.push(`${label('statsagency_id')} must be 13 or 17 characters`);
  }

  // email (§6.4)
  const email = text('email', true);
  if (email !== null) {
    if (charLength(email) > 255) errors.push(`${label('email')} is too long (maximum is 255 characters)`);
    if (!isValidEmailFormat(email)) errors.push(`${label('email')} Enter an email address in the correct format, like name@example.com`);
  }

  // course subjects: 1 required; 2 and 3 optional
  const subject1 = code('course_subject_1', 'course_subject', true, subjectValues[0]);
  const subject2 = code('course_subject_2', 'course_subject', false, subjectValues[1]);
  const subject3 = code('course_subject_3', 'course_subject', false, subjectValues[2]);

  // study_mode: optional in v2026.1 for routes 16 and 17
  const studyModeRequired = !(version === 'v2026.1' && route !== undefined && STUDY_MODE_OPTIONAL_ROUTES.includes(route.code));
  const studyMode = code('study_mode', 'study_mode', studyModeRequired);

  // itt_aim: a JSON number is accepted and kept as a string (docs/DESIGN.md ruling 12)
  const rawIttAim = get('itt_aim');
  const ittAimValue = typeof rawIttAim === 'number' && Number.isFinite(rawIttAim) ? String(rawIttAim) : rawIttAim;
  const ittAim = code('itt_aim', 'itt_aim', true, ittAimValue);

  // course_year: required; v2026.1 an integer (JSON integer or digits); v2025.0 presence only
  let courseYear: number | string | null = null;
  const rawCourseYear = get('course_year');
  if (isBlank(rawCourseYear)) {
    errors.push(`${label('course_year')} can't be blank`);
  } else if (typeof rawCourseYear === 'number' && Number.isSafeInteger(rawCourseYear)) {
    courseYear = rawCourseYear;
  } else if (typeof rawCourseYear === 'string' && /^\d+$/.test(rawCourseYear) && Number.isSafeInteger(Number(rawCourseYear))) {
    courseYear = Number(rawCourseYear);
  } else if (version === 'v2025.0' && typeof rawCourseYear === 'number' && Number.isFinite(rawCourseYear)) {
    courseYear = rawCourseYear;
  } else if (version === 'v2025.0' && typeof rawCourseYear === 'string') {
    const t = rawCourseYear.trim();
    courseYear = /^\d+$/.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : t;
  } else {
    errors.push(`${label('course_year')} is not a valid course year`);
  }

  code('course_age_range', 'course_age_range', true);
  const rawFundCode = get('fund_code');
  const fundCode = code('fund_code', 'fund_code', true);
  code('funding_method', 'funding_method', true);

  // itt_qualification_aim: required when itt_aim is 202 or blank
  const rawQualificationAim = get('itt_qualification_aim');
  let qualificationAim: RefLists['itt_qualification_aim'] | undefined;
  if (isBlank(rawQualificationAim)) {
    if (isBlank(ittAimValue) || ittAimValue === '202') {
      errors.push(`${label('itt_qualification_aim')} must be entered if 202 selected for itt_aim`);
    }
  } else {
    qualificationAim = code('itt_qualification_aim', 'itt_qualification_aim', false);
  }

  // degrees_attributes: required for routes that need a degree (create; update on request)
  const degrees: DegreeInput[] = [];
  let degreeItems: unknown[] = [];
  if (opts.mode === 'create') {
    const rawDegrees = get('degrees_attributes');
    if (Array.isArray(rawDegrees)) degreeItems = rawDegrees;
    else if (rawDegrees !== undefined && rawDegrees !== null) errors.push(`${label('degrees_attributes')} is invalid`);
  }
  if (opts.degreesForRequiredRule !== null && route?.requires_degree && opts.degreesForRequiredRule === 0) {
    errors.push(`${label('degrees_attributes')} must be entered if specifying a postgraduate training_route`);
  }

  // iqts_country (decision (b))
  let iqtsCountry: string | null = null;
  if (version === 'v2026.1') {
    if (route?.code === IQTS_ROUTE) iqtsCountry = code('iqts_country', 'country', true)?.code ?? null;
  } else if (opts.mode === 'update') {
    iqtsCountry = opts.stored?.iqts_country ?? null;
  }

  // --- optional fields ----------------------------------------------------------------------------
  const middleNames = text('middle_names', false, 60);
  const previousLastName = text('previous_last_name', false);

  // trainee_start_date (§6.5); defaults to itt_start_date (decision (h))
  let traineeStart: string | null = null;
  if (!isBlank(effectiveTraineeStart)) {
    traineeStart = parseIsoDate(effectiveTraineeStart);
    if (traineeStart === null) {
      if (!traineeStartDefaulted) errors.push(`${label('trainee_start_date')} is invalid`);
    } else if (traineeStart < addYears(today, -10)) {
      errors.push(`${label('trainee_start_date')} Cannot be more than 10 years in the past`);
    } else if (traineeStart > today && traineeStart !== ittStart) {
      errors.push(`${label('trainee_start_date')} must be in the past`);
    }
  }

  const nationality = code('nationality', 'nationality', false);
  const ethnicity = code('ethnicity', 'ethnicity', false);

  // disabilities: every disabilityN key stored as sent; codes not checked (§6.6, §6.7)
  const disabilities: Record<string, string> = {};
  const disabilityKeys = Object.keys(raw)
    .filter((k) => DISABILITY_KEY.test(k))
    .sort((a, b) => Number(a.slice(10)) - Number(b.slice(10)) || a.localeCompare(b));
  for (const key of disabilityKeys) {
    const v = raw[key];
    if (isBlank(v)) continue;
    const t = asText(v);
    if (t === undefined) errors.push(`${key} is invalid`);
    else disabilities[key] = t;
  }

  // training_initiative: funding_method C means the veterans' bursary initiative (output null) and
  // the sent initiative is not read (§6.7)
  let trainingInitiative: string | null = null;
  let initiativeName: string | null = null;
  if (fundingMethod?.code === VETERANS_FUNDING_METHOD) {
    initiativeName = VETERANS_INITIATIVE;
  } else {
    const entry = code('training_initiative', 'training_initiative', false);
    trainingInitiative = entry?.code ?? null;
    initiativeName = entry?.value ?? null;
  }

  // additional_training_initiative: v2026.1 code + cycle; v2025.0 stored as sent (§8.3)
  let additionalInitiative: string | null = null;
  let additionalInitiativeName: string | null = null;
  if (version === 'v2026.1') {
    const entry = code('additional_training_initiative', 'training_initiative', false);
    additionalInitiative = entry?.code ?? null;
    additionalInitiativeName = entry?.value ?? null;
  } else {
    additionalInitiative = nullableText(text('additional_training_initiative', false));
  }

  const niNumber = text('ni_number', false);
  const pgApprenticeshipStart = parseIsoDate(get('pg_apprenticeship_start_date'));
  const providerTraineeId = text('provider_trainee_id', false, 50);

  // application_id: ≤ 7 characters; a non-negative integer (decision (i))
  let applicationId: number | null = null;
  const rawApplicationId = get('application_id');
  if (!isBlank(rawApplicationId)) {
    const t = asText(rawApplicationId);
    if (t !== undefined && charLength(t) > 7) errors.push(`${label('application_id')} is too long (maximum is 7 characters)`);
    else if (t !== undefined && /^\d+$/.test(t.trim())) applicationId = Number(t.trim());
    else errors.push(`${label('application_id')} is invalid`);
  }

  // employing school and training partner (decision (a); §6.8)
  const req = opts.request;
  const stored = opts.stored;
  const urnText = (field: string): string | null => {
    const v = getKey(req, field);
    if (isBlank(v)) return null;
    const t = asText(v);
    if (t === undefined) {
      errors.push(`${label(field)} is invalid`);
      return null;
    }
    return partnerValue(t, field !== 'training_partner_ukprn');
  };
  let employingSchoolUrn: string | null = stored?.employing_school_urn ?? null;
  if (hasKey(req, 'employing_school_urn')) employingSchoolUrn = urnText('employing_school_urn');
  let partnerUrn: string | null = stored?.training_partner_urn ?? null;
  let partnerUkprn: string | null = stored?.training_partner_ukprn ?? null;
  if (hasKey(req, 'training_partner_urn')) {
    partnerUrn = urnText('training_partner_urn');
    partnerUkprn = null;
  } else if (hasKey(req, 'training_partner_ukprn')) {
    partnerUkprn = urnText('training_partner_ukprn');
    partnerUrn = null;
  }

  // --- cross-field rules ----------------------------------------------------------------------
  // Duplicate subjects (skipped for early-years routes)
  if (!(route?.early_years === true)) {
    if (subject2 && subject1 && subject2.code === subject1.code) errors.push(`${label('course_subject_2')} might contain duplicate values`);
    if (subject3 && ((subject1 && subject3.code === subject1.code) || (subject2 && subject3.code === subject2.code))) {
      errors.push(`${label('course_subject_3')} might contain duplicate values`);
    }
  }
  if (version === 'v2026.1') {
    // Primary phase: subject 1 must be primary teaching (v2026.1)
    if (primaryPhase && !earlyYearsRoute && subject1 && subject1.code !== PRIMARY_TEACHING) {
      errors.push(`${label('course_subject_1')} is invalid. It should be \`${PRIMARY_TEACHING}\` for the course_age_range provided`);
    }
    // Early-years routes: subject 1 early years teaching, age range 13920; 13920 only for them
    if (earlyYearsRoute) {
      if (subject1 && subject1.code !== EARLY_YEARS_TEACHING) {
        errors.push(`${label('course_subject_1')} is invalid. It should be \`${EARLY_YEARS_TEACHING}\` for the training_route provided`);
      }
      if (ageRange && ageRange.code !== EARLY_YEARS_AGE_RANGE) {
        errors.push(`${label('course_age_range')} is invalid. It should be \`${EARLY_YEARS_AGE_RANGE}\` for the training_route provided`);
      }
    } else if (route && ageRange?.code === EARLY_YEARS_AGE_RANGE) {
      errors.push(`${label('course_age_range')} is invalid. It can only be used for early years training routes`);
    }
  }

  // The same disability code twice
  const disabilityCodes = Object.values(disabilities);
  if (new Set(disabilityCodes).size !== disabilityCodes.length) errors.push('disabilities contain duplicate values');

  // Nested degrees (create only): each as §11.3, then duplicates within the payload (§6.6, §9.2)
  if (opts.mode === 'create') {
    const keys = new Set<string>();
    let duplicate = false;
    for (const item of degreeItems) {
      const result = validateDegree(item, ctx);
      if (!result.ok) {
        errors.push(...result.errors);
        continue;
      }
      const key = degreeDuplicateKey(result.value);
      if (key !== '' && keys.has(key)) duplicate = true;
      keys.add(key);
      degrees.push(result.value);
    }
    if (duplicate) errors.push(`${label('degrees_attributes')} contains duplicate degrees`);
  }

  // Nested placements (create only; §6.10)
  const placements: PlacementInput[] = [];
  if (opts.mode === 'create') {
    const rawPlacements = get('placements_attributes');
    if (Array.isArray(rawPlacements)) {
      for (const item of rawPlacements) {
        const result = validatePlacement(item, ctx, { nested: true });
        if (result.ok) placements.push(result.value);
        else errors.push(...result.errors);
      }
    } else if (rawPlacements !== undefined && rawPlacements !== null) {
      errors.push(`${label('placements_attributes')} is invalid`);
    }
  }

  // --- §8 funding, initiative and fund-code rules ---------------------------------------------
  const cycle = startCycleOf({ trainee_start_date: effectiveTraineeStart, itt_start_date: get('itt_start_date') }, today);
  const cycleLabel = academicCycleLabel(cycle);
  const routeGiven = !isBlank(rawRoute);
  const subjectName = subject1?.value ?? (isBlank(subjectValues[0]) ? '' : echoValue(subjectValues[0]));
  if (fundCode?.code === ELIGIBLE_FUND_CODE && routeGiven) {
    const funded = route !== undefined && routesWithFunding(cycle).has(route.value);
    if (!funded || !ageRange) errors.push(`${label('fund_code')} is not valid for this trainee`);
  }
  if (fundingMethod && fundingMethod.funding_type !== 'none' && routeGiven) {
    const type = fundingMethod.funding_type;
    const exception =
      FUND_CODE_EXCEPTION_CYCLES[version].includes(cycle) &&
      subject1 !== undefined &&
      allocationSubjectsOf(subject1.value).some((a) => FUND_CODE_EXCEPTION_SUBJECTS.includes(a));
    if (fundCode?.code !== ELIGIBLE_FUND_CODE && !exception) {
      errors.push(
        `${label('funding_method')} '${type}' is not allowed when fund_code is '${isBlank(rawFundCode) ? '' : echoValue(rawFundCode)}' and ${label('course_subject_1')} is '${subjectName}'`,
      );
    } else if (!(route && subject1 && fundingMethodExists(cycle, type, route.value, subject1.value))) {
      const routeName = route?.value ?? echoValue(rawRoute);
      errors.push(
        `${label('funding_method')} '${type}' is not allowed when training_route is '${routeName}' and ${label('course_subject_1')} is '${subjectName}' in academic cycle '${cycleLabel}'`,
      );
    }
  }
  if (initiativeName !== null && !initiativesAvailableIn(cycle).has(initiativeName)) {
    errors.push(`${label('training_initiative')} '${initiativeName}' is not available in academic cycle '${cycleLabel}'`);
  }
  if (additionalInitiativeName !== null && !initiativesAvailableIn(cycle).has(additionalInitiativeName)) {
    errors.push(`${label('additional_training_initiative')} '${additionalInitiativeName}' is not available in academic cycle '${cycleLabel}'`);
  }

  if (errors.length > 0) return { errors: uniqueMessages(errors), placements: [], degrees: [] };

  // --- derived values (§6.7, §13.4) -----------------------------------------------------------
  const knownDisabilities = Object.entries(disabilities)
    .filter(([key]) => /^disability[1-9]$/.test(key))
    .map(([, c]) => lookupCode('disability', c, version))
    .filter((e): e is RefLists['disability'] => e !== undefined);
  const disabilitySet = new Set(knownDisabilities.map((e) => e.disclosure_when_only_code === 'disability_not_provided' ? 'not_provided' : e.code));
  const disabilityDisclosed = disabilitySet.size > 0 && !(disabilitySet.size === 1 && disabilitySet.has('not_provided'));
  const disabilityDisclosure = !disabilityDisclosed
    ? 'disability_not_provided'
    : disabilitySet.size === 1 && knownDisabilities.every((e) => e.disclosure_when_only_code === 'no_disability')
      ? 'no_disability'
      : 'disabled';
  const ethnicBackground = ethnicity?.ethnic_background ?? 'Not provided';
  const ethnicityDisclosed = ethnicBackground !== 'Not provided' && ethnicBackground !== 'Information refused';
  const educationPhase = earlyYearsRoute ? 'early_years' : primaryPhase ? 'primary' : 'secondary';
  const r = route!;

  const details: TraineeDetails = {
    provider_trainee_id: providerTraineeId,
    first_names: squish(firstNames!),
    middle_names: middleNames === null ? null : nullableText(squish(middleNames)),
    last_name: squish(lastName!),
    previous_last_name: previousLastName,
    date_of_birth: dateOfBirth!,
    email: squish(email!),
    sex: sex!.code,
    nationality: nationality?.output_code ?? null,
    ethnicity: ethnicity?.output_code ?? '997',
    ethnic_group: ethnicity?.ethnic_group ?? 'not_provided_ethnic_group',
    ethnic_background: ethnicBackground,
    additional_ethnic_background: stored?.additional_ethnic_background ?? null,
    diversity_disclosure: disabilityDisclosed || ethnicityDisclosed ? 'diversity_disclosed' : 'diversity_not_disclosed',
    disability_disclosure: disabilityDisclosure,
    disabilities,
    training_route: r.code,
    course_qualification: r.award_type,
    course_level: r.undergrad ? 'undergrad' : 'postgrad',
    course_education_phase: educationPhase,
    course_title: stored?.course_title ?? null,
    course_subject_1: subject1!.code,
    course_subject_2: subject2?.code ?? null,
    course_subject_3: subject3?.code ?? null,
    course_age_range: ageRange!.code,
    course_min_age: ageRange!.min_age,
    course_max_age: ageRange!.max_age,
    itt_start_date: ittStart!,
    itt_end_date: ittEnd!,
    trainee_start_date: traineeStart ?? ittStart!,
    study_mode: studyMode?.code ?? null,
    course_year: courseYear,
    itt_aim: ittAim!.code,
    itt_qualification_aim: qualificationAim?.code ?? null,
    fund_code: fundCode!.code,
    funding_method: fundingMethod!.code,
    training_initiative: trainingInitiative,
    additional_training_initiative: additionalInitiative,
    ni_number: niNumber,
    pg_apprenticeship_start_date: pgApprenticeshipStart,
    statsagency_id: squish(statsagencyId!),
    employing_school_urn: employingSchoolUrn,
    training_partner_urn: partnerUrn,
    training_partner_ukprn: partnerUkprn,
    iqts_country: iqtsCountry,
    application_id: applicationId,
  };
  return { errors: [], details, placements, degrees };
}

/** A fresh prototype-less record holding the canonical keys a trainee write reads. */
function pickTraineeKeys(canonical: Raw): Raw {
  const out: Raw = Object.create(null) as Raw;
  for (const key of TRAINEE_INPUT_KEYS) if (hasKey(canonical, key)) out[key] = canonical[key];
  for (const key of Object.keys(canonical)) if (DISABILITY_KEY.test(key)) out[key] = canonical[key];
  return out;
}

/**
 * Validates a new trainee (POST /trainees; docs/reference/API-FACTS.md §6.2–§6.10, §8). Takes the request's `data`
 * object with the VERSION's field names, as parsed JSON (any value types), and the context
 * (`today` for the date rules, `version` for names, lists and rules). Returns the canonical record
 * with the nested placements and degrees, or every failed rule's message in a stable order: the
 * fields in the order of §6.3 (required fields first, then the optional ones), then the cross-field
 * rules (subjects, age range, disabilities, nested degrees, nested placements, §8). Never throws.
 *
 * Stored values: codes as sent (output codes where §13.4 says so: nationality, ethnicity);
 * first_names, middle_names, last_name, email, statsagency_id whitespace-squished after validation;
 * trainee_start_date defaulting to itt_start_date; derived ethnic_group/ethnic_background,
 * disability_disclosure, diversity_disclosure, course_min_age/max_age, course_education_phase,
 * course_qualification and course_level (§6.7, §13.4); course_year a number when numeric;
 * application_id an integer. The decisions (a)–(m) at the top of this file apply.
 */
export function validateNewTrainee(
  input: Record<string, unknown>,
  ctx: ValidationContext,
): ValidationResult<{ details: TraineeDetails; placements: PlacementInput[]; degrees: DegreeInput[] }> {
  try {
    if (!isJsonObject(input) || Object.keys(input).length === 0) return { ok: false, errors: [MISSING_DATA_MESSAGE] };
    const raw = pickTraineeKeys(toCanonicalInput(input, ctx.version));
    const rawDegrees = getKey(raw, 'degrees_attributes');
    const out = checkTrainee(raw, ctx, {
      mode: 'create',
      request: raw,
      degreesForRequiredRule: Array.isArray(rawDegrees) ? rawDegrees.length : 0,
    });
    if (out.errors.length > 0 || !out.details) return { ok: false, errors: out.errors };
    return { ok: true, value: { details: out.details, placements: out.placements, degrees: out.degrees } };
  } catch (e) {
    // Defensive only: validation must never surface as a 5xx (docs/DESIGN.md property 7).
    return { ok: false, errors: [`data is invalid (${e instanceof Error ? e.message : 'unexpected input'})`] };
  }
}

/** The stored record as canonical raw input, so the merged record re-validates with the create rules. */
function storedAsRaw(stored: TraineeDetails): Raw {
  const raw: Raw = Object.create(null) as Raw;
  const copy: (keyof TraineeDetails)[] = [
    'provider_trainee_id', 'first_names', 'middle_names', 'last_name', 'previous_last_name', 'date_of_birth', 'email', 'sex',
    'nationality', 'ethnicity', 'training_route', 'itt_start_date', 'itt_end_date', 'trainee_start_date', 'course_subject_1',
    'course_subject_2', 'course_subject_3', 'course_age_range', 'study_mode', 'training_initiative', 'additional_training_initiative',
    'itt_aim', 'itt_qualification_aim', 'course_year', 'fund_code', 'funding_method', 'ni_number', 'pg_apprenticeship_start_date',
    'statsagency_id', 'application_id', 'iqts_country',
  ];
  for (const key of copy) raw[key] = stored[key];
  for (const [key, value] of Object.entries(stored.disabilities ?? {})) raw[key] = value;
  return raw;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isJsonObject(a) && isJsonObject(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => hasKey(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}

/**
 * Validates an update (PUT or PATCH /trainees/{id}, identical merge semantics; docs/reference/API-FACTS.md §7).
 * Takes the request's `data` with the version's field names, the stored record and the context;
 * `opts.hasDegrees`, when given as false, applies the create rule "degrees_attributes must be
 * entered…" to the merged route (the trainee has no degree); when omitted that rule is skipped
 * (degrees are managed through their own endpoints). Returns the whole new record and `changes`,
 * exactly the canonical fields whose value differs from `stored`, or the messages.
 *
 * - §7.1: the fields present are applied (same mapping as create), then the merged record is
 *   re-validated with the create rules (stored data can make an unrelated update fail).
 * - §7.3: degrees_attributes, placements_attributes, trn, state, ethnic_group, ethnic_background
 *   (and every unknown key) are ignored.
 * - §7.4: JSON null leaves a field unchanged, except ethnicity (null/"" = not provided, 997) and
 *   course subjects 2 and 3 (null/"" clears). "" is applied to fields stored as sent (so a required
 *   one fails with "can't be blank"); for training_route, course subject 1, study_mode,
 *   nationality and training_initiative "" behaves like absent.
 * - §7.5: disabilities merge by key (null/"" removes the key — decision (m)); §7.6: nationality
 *   replaces; §7.7: iqts_country follows the merged route (v2026.1).
 * - §7.9 (decision (l)): derived fields are recomputed from the merged record.
 * - School and partner keys: absent = unchanged; present = as on create (decision (a)).
 */
export function validateTraineeUpdate(
  input: Record<string, unknown>,
  stored: TraineeDetails,
  ctx: ValidationContext,
  opts: { hasDegrees?: boolean } = {},
): ValidationResult<{ details: TraineeDetails; changes: Partial<TraineeDetails> }> {
  try {
    if (!isJsonObject(input) || Object.keys(input).length === 0) return { ok: false, errors: [MISSING_DATA_MESSAGE] };
    const request = pickTraineeKeys(toCanonicalInput(input, ctx.version));
    delete request.degrees_attributes;
    delete request.placements_attributes;

    const raw = storedAsRaw(stored);
    for (const key of Object.keys(request)) {
      const value = request[key];
      if (DISABILITY_KEY.test(key)) {
        if (value === null || value === '' || value === undefined) delete raw[key];
        else raw[key] = value;
        continue;
      }
      if (key === 'ethnicity' || key === 'course_subject_2' || key === 'course_subject_3') {
        raw[key] = value === '' ? null : value;
        continue;
      }
      if (key === 'employing_school_urn' || key === 'training_partner_urn' || key === 'training_partner_ukprn') continue;
      if (value === null) continue;
      if (value === '' && EMPTY_MEANS_ABSENT_ON_UPDATE.includes(key)) continue;
      raw[key] = value;
    }

    const out = checkTrainee(raw, ctx, {
      mode: 'update',
      request,
      stored,
      degreesForRequiredRule: opts.hasDegrees === false ? 0 : null,
    });
    if (out.errors.length > 0 || !out.details) return { ok: false, errors: out.errors };
    const details = out.details;
    const changes: Partial<TraineeDetails> = {};
    for (const key of Object.keys(details) as (keyof TraineeDetails)[]) {
      if (!sameValue(details[key], stored[key])) (changes as Record<string, unknown>)[key] = details[key];
    }
    return { ok: true, value: { details, changes } };
  } catch (e) {
    return { ok: false, errors: [`data is invalid (${e instanceof Error ? e.message : 'unexpected input'})`] };
  }
}
