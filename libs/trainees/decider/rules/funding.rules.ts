/**
 * The funding rules of a trainee create or update (docs/reference/API-FACTS.md §6.3, §6.7, §8). The §8 rules follow the reference
 * literally: unlike the other rules between fields, they run when a field they compare failed its own check, quoting it as sent.
 */
import { academicCycleLabel, startCycleOf } from '../academic-cycle';
import {
  VETERANS_INITIATIVE,
  allocationSubjectsOf,
  fundingMethodExists,
  initiativesAvailableIn,
  routesWithFunding,
  type FundingType,
  type RefLists,
  type TraineeDetails,
} from '@app/trainees/record';
import type { CourseFacts } from './course.rules';
import { isBlank, type TraineeRecord } from './trainee-record';

const VETERANS_FUNDING_METHOD = 'C';
const ELIGIBLE_FUND_CODE = '7';
/** Allocation subjects of the fund-code exception (docs/reference/API-FACTS.md §8.2). */
const FUND_CODE_EXCEPTION_SUBJECTS = [
  'Ancient languages',
  'Modern languages',
  'French language',
  'German language',
  'Spanish language',
  'Physics',
];

/** The funding fields as checked: what the §8 rules and the stored record read. */
export interface CheckedFunding {
  fundCode: RefLists['fund_code'] | undefined;
  /** funding_method's entry, looked up whether or not the field passed its own check. */
  fundingMethod: RefLists['funding_method'] | undefined;
  trainingInitiative: string | null;
  /** The training initiative's internal name (`value`), which §8.3 checks against the cycle. */
  initiativeName: string | null;
  additionalInitiative: string | null;
  additionalInitiativeName: string | null;
}

export type FundingDetails = Pick<
  TraineeDetails,
  'fund_code' | 'funding_method' | 'training_initiative' | 'additional_training_initiative'
>;

/** The funding fields' own rules (docs/reference/API-FACTS.md §6.3, §6.7, §8.3); returns the checked values. */
export function checkFundingFields(rec: TraineeRecord): CheckedFunding {
  const fundCode = rec.code('fund_code', 'fund_code', true);
  rec.code('funding_method', 'funding_method', true);
  const fundingMethod = rec.lookup('funding_method', rec.fields.funding_method);

  // funding_method C means the veterans' bursary initiative (stored null); the one sent is not read (§6.7).
  let trainingInitiative: string | null = null;
  let initiativeName: string | null = null;
  if (fundingMethod?.code === VETERANS_FUNDING_METHOD) {
    initiativeName = VETERANS_INITIATIVE;
  } else {
    const entry = rec.code('training_initiative', 'training_initiative', false);
    trainingInitiative = entry?.code ?? null;
    initiativeName = entry?.value ?? null;
  }

  // additional_training_initiative: a code checked against the cycle, or free text (§8.3).
  let additionalInitiative: string | null = null;
  let additionalInitiativeName: string | null = null;
  if (rec.rules.additionalTrainingInitiative === 'coded') {
    const entry = rec.code('additional_training_initiative', 'training_initiative', false);
    additionalInitiative = entry?.code ?? null;
    additionalInitiativeName = entry?.value ?? null;
  } else {
    additionalInitiative = rec.text('additional_training_initiative');
  }
  return { fundCode, fundingMethod, trainingInitiative, initiativeName, additionalInitiative, additionalInitiativeName };
}

type InitiativeField = 'training_initiative' | 'additional_training_initiative';

/** What the §8 rules compare, for one record. */
interface FundingCase {
  course: CourseFacts;
  subject1: RefLists['course_subject'] | undefined;
  funding: CheckedFunding;
  /** The academic cycle (start year) of the trainee start date. */
  cycle: number;
}

/** The §8 funding rules (docs/reference/API-FACTS.md §8.1–§8.3), in message order. */
export function checkFundingRules(
  rec: TraineeRecord,
  course: CourseFacts,
  subject1: RefLists['course_subject'] | undefined,
  funding: CheckedFunding,
): void {
  const { fields } = rec;
  const cycle = startCycleOf({ trainee_start_date: course.effectiveTraineeStart, itt_start_date: fields.itt_start_date }, rec.today);
  // A route the wire checks refused still counts as given.
  const routeGiven = !isBlank(fields.training_route) || rec.invalid('training_route');
  const c: FundingCase = { course, subject1, funding, cycle };
  const { fundCode, fundingMethod, initiativeName, additionalInitiativeName } = funding;
  if (fundCode?.code === ELIGIBLE_FUND_CODE && routeGiven) {
    const funded = course.route !== undefined && routesWithFunding(cycle).has(course.route.value);
    if (!funded || !course.ageRange)
      rec.add(['rule:fund_code'], `${rec.label('fund_code')} is not valid for this trainee`, {
        kind: 'fund_code_not_valid',
        params: fundingParams(fields, cycle),
      });
  }
  if (fundingMethod && fundingMethod.funding_type !== 'none' && routeGiven) checkFundingMethodRule(rec, c, fundingMethod.funding_type);
  checkInitiativeCycle(rec, 'training_initiative', initiativeName, cycle);
  checkInitiativeCycle(rec, 'additional_training_initiative', additionalInitiativeName, cycle);
}

/**
 * §8.2: a funded method needs fund code 7 (unless the cycle's exception covers the first subject's
 * allocation subject), and a funding rule of the cycle for the route and subject.
 */
function checkFundingMethodRule(rec: TraineeRecord, c: FundingCase, type: Exclude<FundingType, 'none'>): void {
  const { fields, rules } = rec;
  const { route } = c.course;
  const { subject1 } = c;
  const rawSubject1 = c.course.subjectValues[0];
  const subjectName = subject1?.value ?? (isBlank(rawSubject1) ? '' : String(rawSubject1));
  const exception =
    rules.fundCodeExceptionCycles.includes(c.cycle) &&
    subject1 !== undefined &&
    allocationSubjectsOf(subject1.value).some((a) => FUND_CODE_EXCEPTION_SUBJECTS.includes(a));
  const method = rec.label('funding_method');
  const subjectLabel = rec.label('course_subject_1');
  if (c.funding.fundCode?.code !== ELIGIBLE_FUND_CODE && !exception) {
    const fundCode = isBlank(fields.fund_code) ? '' : fields.fund_code;
    rec.add(
      ['rule:funding_method'],
      `${method} '${type}' is not allowed when fund_code is '${fundCode}' and ${subjectLabel} is '${subjectName}'`,
      { kind: 'funding_method_needs_fund_code', params: fundingParams(fields, c.cycle) },
    );
  } else if (!(route && subject1 && fundingMethodExists(c.cycle, type, route.value, subject1.value))) {
    const routeName = route?.value ?? (isBlank(fields.training_route) ? '' : fields.training_route);
    rec.add(
      ['rule:funding_method'],
      `${method} '${type}' is not allowed when training_route is '${routeName}' and ${subjectLabel} is '${subjectName}' ` +
        `in academic cycle '${academicCycleLabel(c.cycle)}'`,
      { kind: 'funding_method_not_available', params: fundingParams(fields, c.cycle) },
    );
  }
}

/** The codes the funding rules compared, as sent (blank as ''), and the academic cycle's label. */
function fundingParams(fields: TraineeRecord['fields'], cycle: number): Record<string, string> {
  const sent = (v: unknown): string => (isBlank(v) ? '' : String(v));
  return {
    funding_method: sent(fields.funding_method),
    fund_code: sent(fields.fund_code),
    training_route: sent(fields.training_route),
    course_subject_1: sent(fields.course_subject_1),
    academic_cycle: academicCycleLabel(cycle),
  };
}

/** §8.3: an initiative (by internal name) must be available in the trainee's academic cycle. */
function checkInitiativeCycle(rec: TraineeRecord, field: InitiativeField, name: string | null, cycle: number): void {
  if (name === null || initiativesAvailableIn(cycle).has(name)) return;
  rec.add([`rule:${field}`], `${rec.label(field)} '${name}' is not available in academic cycle '${academicCycleLabel(cycle)}'`, {
    kind: 'initiative_not_available',
    value: String(rec.fields[field] ?? ''),
    params: { field, academic_cycle: academicCycleLabel(cycle) },
  });
}

/** The stored funding (docs/reference/API-FACTS.md §6.7): training_initiative null for the veterans' method. */
export function fundingDetailsOf(funding: CheckedFunding): FundingDetails {
  return {
    fund_code: funding.fundCode!.code,
    funding_method: funding.fundingMethod!.code,
    training_initiative: funding.trainingInitiative,
    additional_training_initiative: funding.additionalInitiative,
  };
}
