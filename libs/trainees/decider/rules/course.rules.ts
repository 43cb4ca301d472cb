/** The course rules of a trainee create or update, and the derived course values (docs/reference/API-FACTS.md §6.3–§6.7). */
import { startCycleOf } from '../academic-cycle';
import { addYears, parseIsoDate, yearOf } from '@app/calendar';
import type { RefLists, TraineeDetails } from '@app/trainees/record';
import { isBlank, type TraineeRecord } from './trainee-record';

const PRIMARY_TEACHING = '100511';
const EARLY_YEARS_TEACHING = '100510';
const EARLY_YEARS_AGE_RANGE = '13920';
const IQTS_ROUTE = '15';
const SUBJECT_FIELDS = ['course_subject_1', 'course_subject_2', 'course_subject_3'] as const;

type Subject = RefLists['course_subject'];

/** What several course and funding rules read, looked up without a message before any rule runs (phases: §6.6). */
export interface CourseFacts {
  route: RefLists['training_route'] | undefined;
  ageRange: RefLists['course_age_range'] | undefined;
  /** A route of the early-years kind, where the version's rules have such routes. */
  earlyYearsRoute: boolean;
  /** The age range is of the primary phase. */
  primaryPhase: boolean;
  /** course_subject_1..3 as the rules read them, after the primary rewrite where the version does it. */
  subjectValues: readonly (string | null | undefined)[];
  /** trainee_start_date, or itt_start_date when it is blank (see {@link checkTraineeStartDate}). */
  effectiveTraineeStart: string | null | undefined;
}

/** The course as checked: what the stored record is built from once no rule failed. */
export interface CheckedCourse {
  ittStart: string | null;
  ittEnd: string | null;
  traineeStart: string | null;
  subject1: Subject | undefined;
  subject2: Subject | undefined;
  subject3: Subject | undefined;
  studyMode: RefLists['study_mode'] | undefined;
  ittAim: RefLists['itt_aim'] | undefined;
  qualificationAim: RefLists['itt_qualification_aim'] | undefined;
  iqtsCountry: string | null;
}

export type CourseDetails = Pick<
  TraineeDetails,
  | 'training_route'
  | 'course_qualification'
  | 'course_level'
  | 'course_education_phase'
  | 'course_title'
  | 'course_subject_1'
  | 'course_subject_2'
  | 'course_subject_3'
  | 'course_age_range'
  | 'course_min_age'
  | 'course_max_age'
  | 'itt_start_date'
  | 'itt_end_date'
  | 'trainee_start_date'
  | 'study_mode'
  | 'course_year'
  | 'itt_aim'
  | 'itt_qualification_aim'
  | 'pg_apprenticeship_start_date'
  | 'iqts_country'
>;

/** The course values several rules share (docs/reference/API-FACTS.md §6.5, §6.6); adds no message. */
export function courseFactsOf(rec: TraineeRecord): CourseFacts {
  const { fields } = rec;
  const route = rec.lookup('training_route', fields.training_route);
  const ageRange = rec.lookup('course_age_range', fields.course_age_range);
  const primaryPhase = ageRange?.course_education_phase === 'primary';
  const traineeStartDefaulted = isBlank(fields.trainee_start_date) && !rec.invalid('trainee_start_date');
  return {
    route,
    ageRange,
    earlyYearsRoute: rec.rules.earlyYearsRoutes && route?.early_years === true,
    primaryPhase,
    subjectValues: courseSubjectValues(rec, primaryPhase),
    effectiveTraineeStart: traineeStartDefaulted ? fields.itt_start_date : fields.trainee_start_date,
  };
}

/** With `rewrite`, a primary age range puts primary teaching first, then at most two others, if every subject is known (§6.6). */
function courseSubjectValues(rec: TraineeRecord, primaryPhase: boolean): (string | null | undefined)[] {
  const { fields } = rec;
  const values = [fields.course_subject_1, fields.course_subject_2, fields.course_subject_3];
  const entries = values.map((v) => rec.lookup('course_subject', v));
  const allGivenKnown = SUBJECT_FIELDS.every((f, i) => !rec.invalid(f) && (isBlank(values[i]) || entries[i] !== undefined));
  if (rec.rules.primaryCourseSubject !== 'rewrite' || !primaryPhase || !allGivenKnown) return values;
  const others = entries.filter((e): e is Subject => e !== undefined && e.code !== PRIMARY_TEACHING).map((e) => e.code);
  return [PRIMARY_TEACHING, others[0] ?? null, others[1] ?? null];
}

/** The course fields' rules and those between them (docs/reference/API-FACTS.md §6.3–§6.6); returns the checked values. */
export function checkCourse(rec: TraineeRecord, facts: CourseFacts): CheckedCourse {
  checkTrainingRoute(rec, facts);
  const { ittStart, ittEnd } = checkIttDates(rec);
  const [subject1, subject2, subject3] = SUBJECT_FIELDS.map((field, i) =>
    rec.code(field, 'course_subject', i === 0, facts.subjectValues[i]),
  );
  const studyModeRequired = !(facts.route !== undefined && rec.rules.studyModeOptionalForRoutes.includes(facts.route.code));
  const studyMode = rec.code('study_mode', 'study_mode', studyModeRequired);
  const ittAim = rec.code('itt_aim', 'itt_aim', true);
  checkCourseYear(rec);
  rec.code('course_age_range', 'course_age_range', true);
  const qualificationAim = checkQualificationAim(rec);
  const iqtsCountry = checkIqtsCountry(rec, facts);
  const traineeStart = checkTraineeStartDate(rec, facts, ittStart);
  checkSubjectsAndPhase(rec, facts, subject1, subject2, subject3);
  return { ittStart, ittEnd, traineeStart, subject1, subject2, subject3, studyMode, ittAim, qualificationAim, iqtsCountry };
}

/** training_route (§6.6): a route not accepted on write, or route 12 before its first cycle, gets the unknown-code message. */
function checkTrainingRoute(rec: TraineeRecord, { route, effectiveTraineeStart }: CourseFacts): void {
  if (!rec.code('training_route', 'training_route', true) || !route) return;
  const refuse = (): void =>
    rec.add(['training_route'], rec.codes.unknownCodeMessage(rec.label('training_route'), route.value, 'training_route'));
  if (!rec.codes.routeAcceptedOnWrite(route.code)) {
    refuse();
  } else if (route.earliest_start_cycle !== undefined) {
    const startForRoute = parseIsoDate(effectiveTraineeStart);
    if (startForRoute !== null && startCycleOf({ trainee_start_date: startForRoute }, rec.today) < route.earliest_start_cycle) refuse();
  }
}

/** itt_start_date and itt_end_date (§6.5): required, start at most next year, end within the version's window and after start. */
function checkIttDates(rec: TraineeRecord): { ittStart: string | null; ittEnd: string | null } {
  const { fields, today } = rec;
  const ittStart = rec.required('itt_start_date') ? (fields.itt_start_date ?? null) : null;
  if (ittStart && yearOf(ittStart) > yearOf(today) + 1) {
    rec.add(['itt_start_date'], `${rec.label('itt_start_date')} must not be more than one year in the future`);
  }
  const ittEnd = rec.required('itt_end_date') ? (fields.itt_end_date ?? null) : null;
  if (ittStart && ittEnd) {
    const window = rec.rules.ittEndDateWindow;
    const label = rec.label('itt_end_date');
    if (window && yearOf(ittEnd) > yearOf(today) + window.yearsAhead) {
      rec.add(['itt_end_date'], `${label} must be within the next ${window.yearsAhead} years`);
    } else if (window && ittEnd < addYears(today, -window.yearsAgo)) {
      rec.add(['itt_end_date'], `${label} must be within the last ${window.yearsAgo} years`);
    } else if (ittEnd <= ittStart) {
      rec.add(['itt_end_date'], `${label} must be after itt_start_date`, {
        kind: 'date_not_after',
        value: ittEnd,
        params: { after: 'itt_start_date' },
      });
    }
  }
  return { ittStart, ittEnd };
}

/** course_year (§6.4): required; an integer where the rules say so (a stored value is re-checked on update). */
function checkCourseYear(rec: TraineeRecord): void {
  const courseYear = rec.fields.course_year;
  if (!rec.required('course_year') || isBlank(courseYear) || rec.rules.courseYear !== 'integer') return;
  if (!(typeof courseYear === 'number' && Number.isSafeInteger(courseYear))) {
    rec.add(['course_year'], `${rec.label('course_year')} is not a valid course year`);
  }
}

/** itt_qualification_aim (§6.3): required when itt_aim is 202 or blank, else an optional code. */
function checkQualificationAim(rec: TraineeRecord): RefLists['itt_qualification_aim'] | undefined {
  const { fields } = rec;
  if (isBlank(fields.itt_qualification_aim) && !rec.invalid('itt_qualification_aim')) {
    if ((isBlank(fields.itt_aim) && !rec.invalid('itt_aim')) || fields.itt_aim === '202') {
      rec.add(['itt_qualification_aim'], `${rec.label('itt_qualification_aim')} must be entered if 202 selected for itt_aim`, {
        kind: 'blank_when',
        params: { field: 'itt_aim', code: '202' },
      });
    }
    return undefined;
  }
  return rec.code('itt_qualification_aim', 'itt_qualification_aim', false);
}

/**
 * iqts_country (§6.3, §7.7), where the rules have it: required for route 15 (iQTS), refused for any other. Where they lack it, the
 * key is not read (null on create, kept on update).
 */
function checkIqtsCountry(rec: TraineeRecord, { route }: CourseFacts): string | null {
  const { write } = rec;
  if (rec.rules.iqtsCountry) {
    if (route?.code === IQTS_ROUTE) return rec.code('iqts_country', 'country', true)?.code ?? null;
    if (route && !isBlank(write.request.iqts_country) && !rec.invalid('iqts_country')) {
      rec.add(['iqts_country'], `${rec.label('iqts_country')} must be blank`);
    }
    return null;
  }
  return write.mode === 'update' ? (write.stored?.iqts_country ?? null) : null;
}

/**
 * trainee_start_date (§6.5); a blank one takes itt_start_date's value, which, when not a date, is reported once, as itt_start_date's.
 * Returns the date, or null.
 */
function checkTraineeStartDate(rec: TraineeRecord, { effectiveTraineeStart }: CourseFacts, ittStart: string | null): string | null {
  if (rec.invalid('trainee_start_date') || isBlank(effectiveTraineeStart)) return null;
  const traineeStart = parseIsoDate(effectiveTraineeStart);
  const label = rec.label('trainee_start_date');
  if (traineeStart !== null && traineeStart < addYears(rec.today, -10)) {
    rec.add(['trainee_start_date'], `${label} Cannot be more than 10 years in the past`);
  } else if (traineeStart !== null && traineeStart > rec.today && traineeStart !== ittStart) {
    rec.add(['trainee_start_date'], `${label} must be in the past`);
  }
  return traineeStart;
}

/** The rules between course fields (§6.6), in message order; skipped for a subject or age range that failed its own check. */
function checkSubjectsAndPhase(rec: TraineeRecord, facts: CourseFacts, subject1?: Subject, subject2?: Subject, subject3?: Subject): void {
  const { route, ageRange, earlyYearsRoute } = facts;
  const { rules } = rec;
  if (!(route?.early_years === true)) {
    if (subject2 && subject1 && subject2.code === subject1.code) {
      rec.add(['rule:course_subjects'], `${rec.label('course_subject_2')} might contain duplicate values`);
    }
    if (subject3 && ((subject1 && subject3.code === subject1.code) || (subject2 && subject3.code === subject2.code))) {
      rec.add(['rule:course_subjects'], `${rec.label('course_subject_3')} might contain duplicate values`);
    }
  }
  const phase = (message: string): void => rec.add(['rule:course_phase'], message);
  const primaryRequired = rules.primaryCourseSubject === 'require' && facts.primaryPhase && !earlyYearsRoute;
  if (primaryRequired && subject1 && subject1.code !== PRIMARY_TEACHING) {
    phase(`${rec.label('course_subject_1')} is invalid. It should be \`${PRIMARY_TEACHING}\` for the course_age_range provided`);
  }
  if (!rules.earlyYearsRoutes) return;
  // Early-years routes need early years teaching and age range 13920; 13920 is for them alone.
  if (earlyYearsRoute) {
    if (subject1 && subject1.code !== EARLY_YEARS_TEACHING) {
      phase(`${rec.label('course_subject_1')} is invalid. It should be \`${EARLY_YEARS_TEACHING}\` for the training_route provided`);
    }
    if (ageRange && ageRange.code !== EARLY_YEARS_AGE_RANGE) {
      phase(`${rec.label('course_age_range')} is invalid. It should be \`${EARLY_YEARS_AGE_RANGE}\` for the training_route provided`);
    }
  } else if (route && ageRange?.code === EARLY_YEARS_AGE_RANGE) {
    phase(`${rec.label('course_age_range')} is invalid. It can only be used for early years training routes`);
  }
}

/** The stored course: codes and the derived qualification, level, phase and ages (docs/reference/API-FACTS.md §6.3, §6.7, §13.4). */
export function courseDetailsOf(rec: TraineeRecord, facts: CourseFacts, checked: CheckedCourse): CourseDetails {
  const route = facts.route!;
  const ageRange = facts.ageRange!;
  const pgApprenticeshipStart = rec.fields.pg_apprenticeship_start_date;
  return {
    training_route: route.code,
    course_qualification: route.award_type,
    course_level: route.undergrad ? 'undergrad' : 'postgrad',
    course_education_phase: facts.earlyYearsRoute ? 'early_years' : facts.primaryPhase ? 'primary' : 'secondary',
    course_title: rec.write.stored?.course_title ?? null,
    course_subject_1: checked.subject1!.code,
    course_subject_2: checked.subject2?.code ?? null,
    course_subject_3: checked.subject3?.code ?? null,
    course_age_range: ageRange.code,
    course_min_age: ageRange.min_age,
    course_max_age: ageRange.max_age,
    itt_start_date: checked.ittStart!,
    itt_end_date: checked.ittEnd!,
    trainee_start_date: checked.traineeStart ?? checked.ittStart!,
    study_mode: checked.studyMode?.code ?? null,
    course_year: rec.fields.course_year as number | string,
    itt_aim: checked.ittAim!.code,
    itt_qualification_aim: checked.qualificationAim?.code ?? null,
    pg_apprenticeship_start_date: isBlank(pgApprenticeshipStart) ? null : pgApprenticeshipStart,
    iqts_country: checked.iqtsCountry,
  };
}
