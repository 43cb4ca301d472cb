/**
 * The record rules of a trainee create and update (docs/reference/API-FACTS.md §6.3–§6.10, §7, §8):
 * what a trainee must hold (required fields), the date ranges relative to today, the rules between
 * fields (subjects, phases, disabilities, funding, initiatives, partners), the nested degrees and
 * placements, and the derived values. The single-field wire checks (JSON types, lengths, formats,
 * codes) are the contract's (libs/contract); their problems arrive with the fields and are reported
 * together with these rules' messages, in one stable order ({@link TRAINEE_MESSAGE_ORDER}). Pure and
 * total: no I/O, no clock ("today" arrives in the context), never throws on typed input.
 *
 * Decisions taken where the facts leave room:
 * (a) No school or training-partner register exists yet: `employing_school_urn`,
 *     `training_partner_urn` and `training_partner_ukprn` are accepted as sent (trimmed); the
 *     not-applicable URNs 900000/900010/900020/900030 and empty values are stored null. When the URN
 *     key is present the UKPRN is stored null (URN precedence, §6.8). A present key with null also
 *     means "not applicable" (as the reference implementation's key test does), on update too.
 * (b) `iqts_country` (where the rules have it): required for route 15 (iQTS) and a code of the
 *     countries; for any other route a non-blank value is refused with `iqts_country must be blank`
 *     (§6.3). Where the rules lack it the key is not read (create: null; update: the stored value is kept).
 * (d) The secondary web-form validation of §5.5 is not implemented.
 * (f) Messages are de-duplicated (two nested degrees missing a subject give one message).
 * (g) A rule that compares a field with another skips when one of them already failed its own
 *     check (no "course_subject_1 is invalid. It should be `100511`…" on top of an unknown code),
 *     except the §8 funding rules, which follow the reference implementation literally.
 * (h) A blank trainee_start_date takes itt_start_date's value; when that value is not a date only
 *     `itt_start_date is invalid` is reported (not a second `trainee_start_date is invalid`).
 * (k) Blank email gives only `email can't be blank` (not also the format message).
 * (l) §7.9: diversity_disclosure, course_education_phase and training_initiative are recomputed
 *     from the merged record on update (stored values are kept), not from the request alone.
 * (m) On update a `disabilityN` key sent as null or "" removes that key (otherwise there would be
 *     no way to remove one); other keys merge by key (§7.5).
 * The wire-check decisions ((c), (e), (i), (j)) are in libs/contract/src/wire/trainee.wire.ts.
 */
import { academicCycleLabel, addYears, parseIsoDate, startCycleOf, yearOf } from '../../academic-cycle';
import {
  VETERANS_INITIATIVE,
  allocationSubjectsOf,
  fundingMethodExists,
  initiativesAvailableIn,
  isNotApplicableUrn,
  routesWithFunding,
} from '../../reference-data';
import type { RefListName, RefLists } from '../../reference-data';
import type { DegreeInput, PlacementInput, School, TraineeDetails } from '../trainee.details';
import type { TraineeRules } from '../trainee.rules';
import type { DegreeFields, PlacementFields, TraineeFields } from './input-fields';
import { MessageList, type InputProblem, type MessagePath } from './request-data';
import { DEGREE_MESSAGE_ORDER, checkNestedDegree, degreeDuplicateKey } from './validate-degree';
import { PLACEMENT_MESSAGE_ORDER, checkPlacement } from './validate-placement';
import type { ValidationResult } from './validation-result';

/** What the trainee rules need from outside: the version's rules, today, the schools the placements name. */
export interface TraineeRuleContext {
  rules: TraineeRules;
  /** `YYYY-MM-DD`, the current date in UTC. */
  today: string;
  /** Schools of the directory for the URNs the nested placements name; none when absent. */
  schools?: ReadonlyMap<string, School>;
}

/**
 * The order in which a trainee's messages are answered: the fields in the order of
 * docs/reference/API-FACTS.md §6.3 (required fields first, then the optional ones), then the
 * cross-field rules, the nested degrees and placements, and the §8 funding rules. `rule:` names are
 * rules between fields; `…[]` names hold the nested items' messages.
 */
export const TRAINEE_MESSAGE_ORDER: readonly string[] = [
  'first_names', 'last_name', 'date_of_birth', 'sex', 'training_route', 'itt_start_date', 'itt_end_date',
  'statsagency_id', 'email', 'course_subject_1', 'course_subject_2', 'course_subject_3', 'study_mode', 'itt_aim',
  'course_year', 'course_age_range', 'fund_code', 'funding_method', 'itt_qualification_aim', 'degrees_attributes',
  'iqts_country', 'middle_names', 'previous_last_name', 'trainee_start_date', 'nationality', 'ethnicity',
  'disabilities', 'training_initiative', 'additional_training_initiative', 'ni_number', 'pg_apprenticeship_start_date',
  'provider_trainee_id', 'application_id', 'employing_school_urn', 'training_partner_urn', 'training_partner_ukprn',
  'rule:course_subjects', 'rule:course_phase', 'rule:disabilities', 'degrees_attributes[]', 'rule:degree_duplicates',
  'placements_attributes', 'placements_attributes[]', 'rule:fund_code', 'rule:funding_method',
  'rule:training_initiative', 'rule:additional_training_initiative',
];

const MESSAGE_ORDER: readonly (readonly string[])[] = [TRAINEE_MESSAGE_ORDER, [], [...DEGREE_MESSAGE_ORDER, ...PLACEMENT_MESSAGE_ORDER]];

/** Message when `data` is missing, empty or not an object (docs/reference/API-FACTS.md §5.1; docs/DESIGN.md ruling 4). */
export const MISSING_DATA_MESSAGE = 'Param is missing or the value is empty or invalid: data';

const PRIMARY_TEACHING = '100511';
const EARLY_YEARS_TEACHING = '100510';
const EARLY_YEARS_AGE_RANGE = '13920';
const IQTS_ROUTE = '15';
const VETERANS_FUNDING_METHOD = 'C';
const ELIGIBLE_FUND_CODE = '7';
/** Allocation subjects of the fund-code exception (docs/reference/API-FACTS.md §8.2). */
const FUND_CODE_EXCEPTION_SUBJECTS = ['Ancient languages', 'Modern languages', 'French language', 'German language', 'Spanish language', 'Physics'];
/** On update, an empty string for these behaves like absent (they are re-derived from codes; §7.4). */
const EMPTY_MEANS_ABSENT_ON_UPDATE: readonly (keyof TraineeFields)[] = ['training_route', 'course_subject_1', 'study_mode', 'nationality', 'training_initiative'];

/** Blank as the wire checks leave it: absent, null or `''`. */
function isBlank(value: unknown): value is undefined | null | '' {
  return value === undefined || value === null || value === '';
}

/** Ruby's `squish`: trimmed, inner runs of white space collapsed to one space. */
export function squish(s: string): string {
  return s.trim().replace(/\s+/g, ' ');
}

/** Trimmed URN/UKPRN as stored: null when blank, and for a URN also when not applicable (decision (a)). */
function partnerValue(value: string | null | undefined, isUrn: boolean): string | null {
  if (value === null || value === undefined) return null;
  const t = value.trim();
  return t === '' || (isUrn && isNotApplicableUrn(t)) ? null : t;
}

interface CoreOptions {
  mode: 'create' | 'update';
  /** The request's own fields (partner and school keys are read from here, §6.8). */
  request: TraineeFields;
  /** Update only: the stored record. */
  stored?: TraineeDetails;
  /** Whether to apply the "degrees required for this route" rule, and with how many degrees. */
  degreesForRequiredRule: number | null;
}

interface CoreOutput {
  details?: TraineeDetails;
  placements: PlacementInput[];
  degrees: DegreeInput[];
}

/**
 * One pass of every record rule over `record` (the request's fields on create; the stored record
 * with the request's fields merged on update), adding messages to `messages` (which already holds
 * the wire problems) and returning the record to store when nothing failed.
 */
function checkTrainee(record: TraineeFields, ctx: TraineeRuleContext, opts: CoreOptions, messages: MessageList): CoreOutput {
  const { rules, today } = ctx;
  const { codes } = rules;
  const label = (field: string): string => rules.label(field);
  const add = (path: MessagePath, message: string): void => messages.add(path, message);
  /** A field the wire checks refused: its rules are skipped and it is not "blank". */
  const invalid = (field: string): boolean => messages.invalid.has(field);

  /** Required presence: blank → "can't be blank" (unless the wire checks already refused the value). */
  const required = (field: keyof TraineeFields): boolean => {
    if (!isBlank(record[field]) || invalid(field)) return true;
    add([field], `${label(field)} can't be blank`);
    return false;
  };

  /** A coded field: blank → "can't be blank" when required; a value this version lacks → §6.9 message. */
  const code = <L extends RefListName>(field: keyof TraineeFields, list: L, isRequired: boolean, value: unknown = record[field]): RefLists[L] | undefined => {
    if (invalid(field)) return undefined;
    if (isBlank(value)) {
      if (isRequired) add([field], `${label(field)} can't be blank`);
      return undefined;
    }
    const entry = codes.lookup(list, value);
    if (!entry) add([field], codes.unknownCodeMessage(label(field), value, list));
    return entry;
  };

  /** A free-text value as stored (null when blank). */
  const text = (field: keyof TraineeFields): string | null => {
    const v = record[field];
    return typeof v === 'string' && v.trim() !== '' ? v : null;
  };

  // --- values needed by several rules, looked up silently first --------------------------------
  const rawRoute = record.training_route;
  const route = isBlank(rawRoute) ? undefined : codes.lookup('training_route', rawRoute);
  const ageRange = isBlank(record.course_age_range) ? undefined : codes.lookup('course_age_range', record.course_age_range);
  const fundingMethod = isBlank(record.funding_method) ? undefined : codes.lookup('funding_method', record.funding_method);
  const earlyYearsRoute = rules.earlyYearsRoutes && route?.early_years === true;

  // Course subjects; with `primaryCourseSubject: 'rewrite'` a primary age range puts primary
  // teaching first, then the other given subjects (at most two), when every given subject is known.
  let subjectValues: (string | null | undefined)[] = [record.course_subject_1, record.course_subject_2, record.course_subject_3];
  const subjectFields = ['course_subject_1', 'course_subject_2', 'course_subject_3'] as const;
  const subjectEntriesBefore = subjectValues.map((v) => (isBlank(v) ? undefined : codes.lookup('course_subject', v)));
  const allGivenSubjectsKnown = subjectFields.every((f, i) => !invalid(f) && (isBlank(subjectValues[i]) || subjectEntriesBefore[i] !== undefined));
  const primaryPhase = ageRange?.course_education_phase === 'primary';
  if (rules.primaryCourseSubject === 'rewrite' && primaryPhase && allGivenSubjectsKnown) {
    const others = subjectEntriesBefore.filter((e): e is RefLists['course_subject'] => e !== undefined && e.code !== PRIMARY_TEACHING).map((e) => e.code);
    subjectValues = [PRIMARY_TEACHING, others[0] ?? null, others[1] ?? null];
  }

  // --- §6.3 order -------------------------------------------------------------------------------
  required('first_names');
  required('last_name');

  // date_of_birth (§6.5)
  const dateOfBirth = required('date_of_birth') ? (record.date_of_birth ?? null) : null;
  if (dateOfBirth) {
    if (dateOfBirth < addYears(today, -100)) add(['date_of_birth'], `${label('date_of_birth')} is invalid`);
    else if (dateOfBirth > today) add(['date_of_birth'], `${label('date_of_birth')} must be in the past`);
    else if (dateOfBirth > addYears(today, -16)) add(['date_of_birth'], `${label('date_of_birth')} cannot be less than 16 years ago`);
  }

  const sex = code('sex', 'sex', true);

  // training_route (§6.6): a route this version does not accept, or route 12 before its first
  // cycle → the message quotes the route's internal name.
  const traineeStartDefaulted = isBlank(record.trainee_start_date) && !invalid('trainee_start_date');
  const effectiveTraineeStart = traineeStartDefaulted ? record.itt_start_date : record.trainee_start_date;
  if (code('training_route', 'training_route', true) && route) {
    if (!codes.routeAcceptedOnWrite(route.code)) {
      add(['training_route'], codes.unknownCodeMessage(label('training_route'), route.value, 'training_route'));
    } else if (route.earliest_start_cycle !== undefined) {
      const startForRoute = parseIsoDate(effectiveTraineeStart);
      if (startForRoute !== null && startCycleOf({ trainee_start_date: startForRoute }, today) < route.earliest_start_cycle) {
        add(['training_route'], codes.unknownCodeMessage(label('training_route'), route.value, 'training_route'));
      }
    }
  }

  // itt dates (§6.5)
  const ittStart = required('itt_start_date') ? (record.itt_start_date ?? null) : null;
  if (ittStart && yearOf(ittStart) > yearOf(today) + 1) {
    add(['itt_start_date'], `${label('itt_start_date')} must not be more than one year in the future`);
  }
  const ittEnd = required('itt_end_date') ? (record.itt_end_date ?? null) : null;
  if (ittStart && ittEnd) {
    const window = rules.ittEndDateWindow;
    if (window && yearOf(ittEnd) > yearOf(today) + window.yearsAhead) add(['itt_end_date'], `${label('itt_end_date')} must be within the next ${window.yearsAhead} years`);
    else if (window && ittEnd < addYears(today, -window.yearsAgo)) add(['itt_end_date'], `${label('itt_end_date')} must be within the last ${window.yearsAgo} years`);
    else if (ittEnd <= ittStart) add(['itt_end_date'], `${label('itt_end_date')} must be after itt_start_date`);
  }

  required('statsagency_id');
  required('email');

  // course subjects: 1 required; 2 and 3 optional
  const subject1 = code('course_subject_1', 'course_subject', true, subjectValues[0]);
  const subject2 = code('course_subject_2', 'course_subject', false, subjectValues[1]);
  const subject3 = code('course_subject_3', 'course_subject', false, subjectValues[2]);

  // study_mode: optional for the routes the rules name
  const studyModeRequired = !(route !== undefined && rules.studyModeOptionalForRoutes.includes(route.code));
  const studyMode = code('study_mode', 'study_mode', studyModeRequired);

  const ittAim = code('itt_aim', 'itt_aim', true);

  // course_year: required; an integer where the rules say so (a stored value is re-checked on update)
  const courseYear = record.course_year;
  if (required('course_year') && !isBlank(courseYear) && rules.courseYear === 'integer' && !(typeof courseYear === 'number' && Number.isSafeInteger(courseYear))) {
    add(['course_year'], `${label('course_year')} is not a valid course year`);
  }

  code('course_age_range', 'course_age_range', true);
  const fundCode = code('fund_code', 'fund_code', true);
  code('funding_method', 'funding_method', true);

  // itt_qualification_aim: required when itt_aim is 202 or blank
  let qualificationAim: RefLists['itt_qualification_aim'] | undefined;
  if (isBlank(record.itt_qualification_aim) && !invalid('itt_qualification_aim')) {
    if ((isBlank(record.itt_aim) && !invalid('itt_aim')) || record.itt_aim === '202') {
      add(['itt_qualification_aim'], `${label('itt_qualification_aim')} must be entered if 202 selected for itt_aim`);
    }
  } else {
    qualificationAim = code('itt_qualification_aim', 'itt_qualification_aim', false);
  }

  // degrees_attributes: required for routes that need a degree (create; update on request)
  const degreeItems: readonly DegreeFields[] = opts.mode === 'create' && Array.isArray(record.degrees_attributes) ? record.degrees_attributes : [];
  if (opts.degreesForRequiredRule !== null && route?.requires_degree && opts.degreesForRequiredRule === 0) {
    add(['degrees_attributes'], `${label('degrees_attributes')} must be entered if specifying a postgraduate training_route`);
  }

  // iqts_country (decision (b))
  let iqtsCountry: string | null = null;
  if (rules.iqtsCountry) {
    if (route?.code === IQTS_ROUTE) iqtsCountry = code('iqts_country', 'country', true)?.code ?? null;
    else if (route && !isBlank(opts.request.iqts_country) && !invalid('iqts_country')) add(['iqts_country'], `${label('iqts_country')} must be blank`);
  } else if (opts.mode === 'update') {
    iqtsCountry = opts.stored?.iqts_country ?? null;
  }

  // --- optional fields ----------------------------------------------------------------------------
  const middleNames = text('middle_names');
  const previousLastName = text('previous_last_name');

  // trainee_start_date (§6.5); defaults to itt_start_date (decision (h))
  let traineeStart: string | null = null;
  if (!invalid('trainee_start_date') && !isBlank(effectiveTraineeStart)) {
    traineeStart = parseIsoDate(effectiveTraineeStart);
    if (traineeStart !== null && traineeStart < addYears(today, -10)) {
      add(['trainee_start_date'], `${label('trainee_start_date')} Cannot be more than 10 years in the past`);
    } else if (traineeStart !== null && traineeStart > today && traineeStart !== ittStart) {
      add(['trainee_start_date'], `${label('trainee_start_date')} must be in the past`);
    }
  }

  const nationality = code('nationality', 'nationality', false);
  const ethnicity = code('ethnicity', 'ethnicity', false);

  // disabilities: every disabilityN key stored as sent; codes not checked (§6.6, §6.7)
  const disabilities: Record<string, string> = {};
  const disabilityKeys = Object.keys(record.disabilities ?? {}).sort(
    (a, b) => Number(a.slice(10)) - Number(b.slice(10)) || a.localeCompare(b),
  );
  for (const key of disabilityKeys) {
    const v = record.disabilities?.[key];
    if (typeof v === 'string' && v.trim() !== '') disabilities[key] = v;
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

  // additional_training_initiative: a code checked against the cycle, or free text (§8.3)
  let additionalInitiative: string | null = null;
  let additionalInitiativeName: string | null = null;
  if (rules.additionalTrainingInitiative === 'coded') {
    const entry = code('additional_training_initiative', 'training_initiative', false);
    additionalInitiative = entry?.code ?? null;
    additionalInitiativeName = entry?.value ?? null;
  } else {
    additionalInitiative = text('additional_training_initiative');
  }

  const niNumber = text('ni_number');
  const pgApprenticeshipStart = isBlank(record.pg_apprenticeship_start_date) ? null : record.pg_apprenticeship_start_date;
  const providerTraineeId = text('provider_trainee_id');
  const applicationId = typeof record.application_id === 'number' ? record.application_id : null;

  // employing school and training partner (decision (a); §6.8)
  const req = opts.request;
  const stored = opts.stored;
  const sent = (field: 'employing_school_urn' | 'training_partner_urn' | 'training_partner_ukprn'): boolean =>
    req[field] !== undefined || invalid(field);
  let employingSchoolUrn: string | null = stored?.employing_school_urn ?? null;
  if (sent('employing_school_urn')) employingSchoolUrn = partnerValue(req.employing_school_urn, true);
  let partnerUrn: string | null = stored?.training_partner_urn ?? null;
  let partnerUkprn: string | null = stored?.training_partner_ukprn ?? null;
  if (sent('training_partner_urn')) {
    partnerUrn = partnerValue(req.training_partner_urn, true);
    partnerUkprn = null;
  } else if (sent('training_partner_ukprn')) {
    partnerUkprn = partnerValue(req.training_partner_ukprn, false);
    partnerUrn = null;
  }

  // --- cross-field rules ----------------------------------------------------------------------
  // Duplicate subjects (skipped for early-years routes)
  if (!(route?.early_years === true)) {
    if (subject2 && subject1 && subject2.code === subject1.code) add(['rule:course_subjects'], `${label('course_subject_2')} might contain duplicate values`);
    if (subject3 && ((subject1 && subject3.code === subject1.code) || (subject2 && subject3.code === subject2.code))) {
      add(['rule:course_subjects'], `${label('course_subject_3')} might contain duplicate values`);
    }
  }
  if (rules.primaryCourseSubject === 'require' && primaryPhase && !earlyYearsRoute && subject1 && subject1.code !== PRIMARY_TEACHING) {
    add(['rule:course_phase'], `${label('course_subject_1')} is invalid. It should be \`${PRIMARY_TEACHING}\` for the course_age_range provided`);
  }
  if (rules.earlyYearsRoutes) {
    // Early-years routes: subject 1 early years teaching, age range 13920; 13920 only for them
    if (earlyYearsRoute) {
      if (subject1 && subject1.code !== EARLY_YEARS_TEACHING) {
        add(['rule:course_phase'], `${label('course_subject_1')} is invalid. It should be \`${EARLY_YEARS_TEACHING}\` for the training_route provided`);
      }
      if (ageRange && ageRange.code !== EARLY_YEARS_AGE_RANGE) {
        add(['rule:course_phase'], `${label('course_age_range')} is invalid. It should be \`${EARLY_YEARS_AGE_RANGE}\` for the training_route provided`);
      }
    } else if (route && ageRange?.code === EARLY_YEARS_AGE_RANGE) {
      add(['rule:course_phase'], `${label('course_age_range')} is invalid. It can only be used for early years training routes`);
    }
  }

  // The same disability code twice
  const disabilityCodes = Object.values(disabilities);
  if (new Set(disabilityCodes).size !== disabilityCodes.length) add(['rule:disabilities'], 'disabilities contain duplicate values');

  // Nested degrees (create only): each as §11.3, then duplicates within the payload (§6.6, §9.2)
  const degrees: DegreeInput[] = [];
  if (opts.mode === 'create') {
    const keys = new Set<string>();
    let duplicate = false;
    degreeItems.forEach((item, i) => {
      const degree = checkNestedDegree(item, { rules, today }, messages, ['degrees_attributes[]', i]);
      if (!degree) return;
      const key = degreeDuplicateKey(degree);
      if (key !== '' && keys.has(key)) duplicate = true;
      keys.add(key);
      degrees.push(degree);
    });
    if (duplicate) add(['rule:degree_duplicates'], `${label('degrees_attributes')} contains duplicate degrees`);
  }

  // Nested placements (create only; §6.10, docs/DESIGN.md ruling 13)
  const placements: PlacementInput[] = [];
  if (opts.mode === 'create' && Array.isArray(record.placements_attributes)) {
    record.placements_attributes.forEach((item: PlacementFields, i: number) => {
      const placement = checkPlacement(item, { schools: ctx.schools }, { nested: true }, messages, ['placements_attributes[]', i]);
      if (placement) placements.push(placement);
    });
  }

  // --- §8 funding, initiative and fund-code rules ---------------------------------------------
  const cycle = startCycleOf({ trainee_start_date: effectiveTraineeStart, itt_start_date: record.itt_start_date }, today);
  const cycleLabel = academicCycleLabel(cycle);
  const routeGiven = !isBlank(rawRoute) || invalid('training_route');
  const subjectName = subject1?.value ?? (isBlank(subjectValues[0]) ? '' : String(subjectValues[0]));
  if (fundCode?.code === ELIGIBLE_FUND_CODE && routeGiven) {
    const funded = route !== undefined && routesWithFunding(cycle).has(route.value);
    if (!funded || !ageRange) add(['rule:fund_code'], `${label('fund_code')} is not valid for this trainee`);
  }
  if (fundingMethod && fundingMethod.funding_type !== 'none' && routeGiven) {
    const type = fundingMethod.funding_type;
    const exception =
      rules.fundCodeExceptionCycles.includes(cycle) &&
      subject1 !== undefined &&
      allocationSubjectsOf(subject1.value).some((a) => FUND_CODE_EXCEPTION_SUBJECTS.includes(a));
    if (fundCode?.code !== ELIGIBLE_FUND_CODE && !exception) {
      add(
        ['rule:funding_method'],
        `${label('funding_method')} '${type}' is not allowed when fund_code is '${isBlank(record.fund_code) ? '' : record.fund_code}' and ${label('course_subject_1')} is '${subjectName}'`,
      );
    } else if (!(route && subject1 && fundingMethodExists(cycle, type, route.value, subject1.value))) {
      const routeName = route?.value ?? (isBlank(rawRoute) ? '' : rawRoute);
      add(
        ['rule:funding_method'],
        `${label('funding_method')} '${type}' is not allowed when training_route is '${routeName}' and ${label('course_subject_1')} is '${subjectName}' in academic cycle '${cycleLabel}'`,
      );
    }
  }
  if (initiativeName !== null && !initiativesAvailableIn(cycle).has(initiativeName)) {
    add(['rule:training_initiative'], `${label('training_initiative')} '${initiativeName}' is not available in academic cycle '${cycleLabel}'`);
  }
  if (additionalInitiativeName !== null && !initiativesAvailableIn(cycle).has(additionalInitiativeName)) {
    add(['rule:additional_training_initiative'], `${label('additional_training_initiative')} '${additionalInitiativeName}' is not available in academic cycle '${cycleLabel}'`);
  }

  if (!messages.isEmpty) return { placements: [], degrees: [] };

  // --- derived values (§6.7, §13.4) -----------------------------------------------------------
  const knownDisabilities = Object.entries(disabilities)
    .filter(([key]) => /^disability[1-9]$/.test(key))
    .map(([, c]) => codes.lookup('disability', c))
    .filter((e): e is RefLists['disability'] => e !== undefined);
  const disabilitySet = new Set(knownDisabilities.map((e) => (e.disclosure_when_only_code === 'disability_not_provided' ? 'not_provided' : e.code)));
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
    first_names: squish(record.first_names!),
    middle_names: middleNames === null ? null : squish(middleNames),
    last_name: squish(record.last_name!),
    previous_last_name: previousLastName,
    date_of_birth: dateOfBirth!,
    email: squish(record.email!),
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
    course_year: courseYear as number | string,
    itt_aim: ittAim!.code,
    itt_qualification_aim: qualificationAim?.code ?? null,
    fund_code: fundCode!.code,
    funding_method: fundingMethod!.code,
    training_initiative: trainingInitiative,
    additional_training_initiative: additionalInitiative,
    ni_number: niNumber,
    pg_apprenticeship_start_date: pgApprenticeshipStart ?? null,
    statsagency_id: squish(record.statsagency_id!),
    employing_school_urn: employingSchoolUrn,
    training_partner_urn: partnerUrn,
    training_partner_ukprn: partnerUkprn,
    iqts_country: iqtsCountry,
    application_id: applicationId,
  };
  return { details, placements, degrees };
}

/**
 * The record rules of a new trainee (POST /trainees; docs/reference/API-FACTS.md §6.2–§6.10, §8).
 * Takes the request's typed fields and the wire problems found in them, and the context (the
 * version's rules, `today`, the schools of the nested placements). Returns the canonical record
 * with the nested placements and degrees, or every message (the problems and the rules' own) in
 * the order of {@link TRAINEE_MESSAGE_ORDER}, each once. Never throws.
 *
 * Stored values: codes as sent (output codes where §13.4 says so: nationality, ethnicity);
 * first_names, middle_names, last_name, email, statsagency_id whitespace-squished; trainee_start_date
 * defaulting to itt_start_date; derived ethnic_group/ethnic_background, disability_disclosure,
 * diversity_disclosure, course_min_age/max_age, course_education_phase, course_qualification and
 * course_level (§6.7, §13.4). The decisions at the top of this file apply.
 */
export function validateNewTrainee(
  fields: TraineeFields,
  problems: readonly InputProblem[],
  ctx: TraineeRuleContext,
): ValidationResult<{ details: TraineeDetails; placements: PlacementInput[]; degrees: DegreeInput[] }> {
  const messages = new MessageList(problems);
  const degreeCount = Array.isArray(fields.degrees_attributes) ? fields.degrees_attributes.length : 0;
  const out = checkTrainee(fields, ctx, { mode: 'create', request: fields, degreesForRequiredRule: degreeCount }, messages);
  if (!messages.isEmpty || !out.details) return { ok: false, errors: messages.sorted(MESSAGE_ORDER) };
  return { ok: true, value: { details: out.details, placements: out.placements, degrees: out.degrees } };
}

/** The stored record as typed fields, so the merged record re-validates with the create rules. */
function storedAsFields(stored: TraineeDetails): TraineeFields {
  return {
    provider_trainee_id: stored.provider_trainee_id,
    first_names: stored.first_names,
    middle_names: stored.middle_names,
    last_name: stored.last_name,
    previous_last_name: stored.previous_last_name,
    date_of_birth: stored.date_of_birth,
    email: stored.email,
    sex: stored.sex,
    nationality: stored.nationality,
    ethnicity: stored.ethnicity,
    training_route: stored.training_route,
    itt_start_date: stored.itt_start_date,
    itt_end_date: stored.itt_end_date,
    trainee_start_date: stored.trainee_start_date,
    course_subject_1: stored.course_subject_1,
    course_subject_2: stored.course_subject_2,
    course_subject_3: stored.course_subject_3,
    course_age_range: stored.course_age_range,
    study_mode: stored.study_mode,
    training_initiative: stored.training_initiative,
    additional_training_initiative: stored.additional_training_initiative,
    itt_aim: stored.itt_aim,
    itt_qualification_aim: stored.itt_qualification_aim,
    course_year: stored.course_year,
    fund_code: stored.fund_code,
    funding_method: stored.funding_method,
    ni_number: stored.ni_number,
    pg_apprenticeship_start_date: stored.pg_apprenticeship_start_date,
    statsagency_id: stored.statsagency_id,
    application_id: stored.application_id,
    iqts_country: stored.iqts_country,
    disabilities: { ...(stored.disabilities ?? {}) },
  };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}

/**
 * The record rules of an update (PUT or PATCH /trainees/{id}, identical merge semantics;
 * docs/reference/API-FACTS.md §7). Takes the request's typed fields and wire problems, the stored
 * record and the context; `opts.hasDegrees`, when given as false, applies the create rule
 * "degrees_attributes must be entered…" to the merged route (the trainee has no degree); when
 * omitted that rule is skipped (degrees are managed through their own endpoints). Returns the whole
 * new record and `changes`, exactly the canonical fields whose value differs from `stored` (none
 * when the request holds nothing to change, §7.3), or every message in order.
 *
 * - §7.1: the fields present are applied, then the merged record is re-validated with the create
 *   rules (stored data can make an unrelated update fail).
 * - §7.3: nested degrees and placements (and read-only or unknown keys, which the wire checks drop)
 *   are ignored.
 * - §7.4: null leaves a field unchanged, except ethnicity (null/"" = not provided, 997) and course
 *   subjects 2 and 3 (null/"" clears). "" is applied to fields stored as sent (so a required one
 *   fails with "can't be blank"); for training_route, course subject 1, study_mode, nationality and
 *   training_initiative "" behaves like absent.
 * - §7.5: disabilities merge by key (null/"" removes the key — decision (m)); §7.6: nationality
 *   replaces; §7.7: iqts_country follows the merged route.
 * - §7.9 (decision (l)): derived fields are recomputed from the merged record.
 * - School and partner keys: absent = unchanged; present = as on create (decision (a)).
 */
export function validateTraineeUpdate(
  fields: TraineeFields,
  problems: readonly InputProblem[],
  stored: TraineeDetails,
  ctx: TraineeRuleContext,
  opts: { hasDegrees?: boolean } = {},
): ValidationResult<{ details: TraineeDetails; changes: Partial<TraineeDetails> }> {
  const messages = new MessageList(problems);
  const request: TraineeFields = { ...fields, degrees_attributes: undefined, placements_attributes: undefined };
  const merged: TraineeFields = storedAsFields(stored);
  for (const key of Object.keys(request) as (keyof TraineeFields)[]) {
    const value = request[key];
    if (value === undefined) continue;
    if (key === 'disabilities') {
      const next = { ...(merged.disabilities ?? {}) };
      for (const [k, v] of Object.entries(request.disabilities ?? {})) {
        if (v === null || v === '') delete next[k];
        else next[k] = v;
      }
      merged.disabilities = next;
      continue;
    }
    if (key === 'ethnicity' || key === 'course_subject_2' || key === 'course_subject_3') {
      merged[key] = value === '' ? null : (value as string | null);
      continue;
    }
    if (key === 'employing_school_urn' || key === 'training_partner_urn' || key === 'training_partner_ukprn') continue;
    if (value === null) continue;
    if (value === '' && EMPTY_MEANS_ABSENT_ON_UPDATE.includes(key)) continue;
    (merged as Record<string, unknown>)[key] = value;
  }
  // A request value the wire checks refused leaves the stored one in the merged record, and the
  // rules on that field are skipped (its message is already there).
  const out = checkTrainee(merged, ctx, { mode: 'update', request, stored, degreesForRequiredRule: opts.hasDegrees === false ? 0 : null }, messages);
  if (!messages.isEmpty || !out.details) return { ok: false, errors: messages.sorted(MESSAGE_ORDER) };
  const details = out.details;
  const changes: Partial<TraineeDetails> = {};
  for (const key of Object.keys(details) as (keyof TraineeDetails)[]) {
    if (!sameValue(details[key], stored[key])) (changes as Record<string, unknown>)[key] = details[key];
  }
  return { ok: true, value: { details, changes } };
}
