/**
 * The record rules of a trainee create and update (docs/reference/API-FACTS.md §6.3–§6.10, §7, §8), answered with the wire checks'
 * problems in {@link TRAINEE_MESSAGE_ORDER}. Pure and total: "today" arrives in the context; never throws on typed input.
 *
 * Where the facts leave room: no second pass of web-form validators (§5.5); each message once; a rule between fields skips when one
 * of them failed its own check, but the §8 funding rules follow the reference literally (funding.rules.ts). A choice about one field
 * sits beside its rule; the wire's are in libs/trainees/contract/wire/wire-fields.ts.
 */
import {
  TRAINEE_DETAILS_NAMES,
  TRAINEE_FIELD_MESSAGE_ORDER,
  TRAINEE_STORED_INPUTS,
  type DegreeInput,
  type PlacementInput,
  type TraineeDetails,
  type TraineeFields,
} from '@app/trainees/record';
import { checkCourse, courseDetailsOf, courseFactsOf, type CourseDetails } from './course.rules';
import { checkFundingFields, checkFundingRules, fundingDetailsOf, type FundingDetails } from './funding.rules';
import { checkDegreesRequired, checkNestedDegrees, checkNestedPlacements } from './nested-items.rules';
import { partnersOf, type PartnerDetails } from './partners.rules';
import { checkPersonalDetails, personalDetailsOf, type PersonalDetails } from './personal-details.rules';
import { MessageList, type InputProblem } from './request-data';
import { isBlank, TraineeRecord, type TraineeRuleContext, type TraineeWrite } from './trainee-record';
import { DEGREE_MESSAGE_ORDER } from './validate-degree';
import { PLACEMENT_MESSAGE_ORDER } from './validate-placement';
import { failedResult, type ValidationResult } from './validation-result';
import { TOO_MANY_DISABILITIES, TRAINEE_DISABILITIES_MAX } from '../trainee.limits';

export { squish } from './trainee-record';
export type { TraineeRuleContext } from './trainee-record';

/**
 * The order of a trainee's messages: the fields' (docs/reference/API-FACTS.md §6.3), then the rules between fields (`rule:`), the
 * nested items' (`…[]`) and the §8 funding rules.
 */
export const TRAINEE_MESSAGE_ORDER: readonly string[] = [
  ...TRAINEE_FIELD_MESSAGE_ORDER.filter((name) => name !== 'placements_attributes'),
  'rule:course_subjects',
  'rule:course_phase',
  'rule:disabilities',
  'degrees_attributes[]',
  'rule:degree_duplicates',
  'placements_attributes',
  'placements_attributes[]',
  'rule:fund_code',
  'rule:funding_method',
  'rule:training_initiative',
  'rule:additional_training_initiative',
];

const MESSAGE_ORDER: readonly (readonly string[])[] = [TRAINEE_MESSAGE_ORDER, [], [...DEGREE_MESSAGE_ORDER, ...PLACEMENT_MESSAGE_ORDER]];

/** Message when `data` is missing, empty or not an object (docs/reference/API-FACTS.md §5.1; docs/DESIGN.md ruling 4). */
export const MISSING_DATA_MESSAGE = 'Param is missing or the value is empty or invalid: data';

/** On update, an empty string for these behaves like absent (they are re-derived from codes; §7.4). */
const EMPTY_MEANS_ABSENT_ON_UPDATE: readonly (keyof TraineeFields)[] = [
  'training_route',
  'course_subject_1',
  'study_mode',
  'nationality',
  'training_initiative',
];

interface CoreOutput {
  details?: TraineeDetails;
  placements: PlacementInput[];
  degrees: DegreeInput[];
}

/**
 * Every record rule over `record` (on update, the merged record), the record to store when nothing failed. The concerns may run in
 * any order: messages are sorted by path, and each path is one concern's.
 */
function checkTrainee(record: TraineeFields, ctx: TraineeRuleContext, write: TraineeWrite, messages: MessageList): CoreOutput {
  const rec = new TraineeRecord(record, ctx, write, messages);
  const courseFacts = courseFactsOf(rec);
  const personal = checkPersonalDetails(rec);
  const checkedCourse = checkCourse(rec, courseFacts);
  const funding = checkFundingFields(rec);
  checkDegreesRequired(rec, courseFacts);
  const degrees = checkNestedDegrees(rec);
  const placements = checkNestedPlacements(rec);
  checkFundingRules(rec, courseFacts, checkedCourse.subject1, funding);
  if (!messages.isEmpty) return { placements: [], degrees: [] };
  const parts = [
    personalDetailsOf(rec, personal),
    courseDetailsOf(rec, courseFacts, checkedCourse),
    fundingDetailsOf(funding),
    partnersOf(rec),
  ] as const;
  return { details: traineeDetails(record, parts), placements, degrees };
}

/** A stored member no concern has given yet (see {@link traineeDetails}). */
const NOT_GIVEN = Symbol('not given');

/** A write's record starts as a copy, so every record is keyed in {@link TRAINEE_DETAILS_NAMES} order and has one shape. */
const DETAILS_TEMPLATE: Readonly<Record<string, unknown>> = Object.fromEntries(TRAINEE_DETAILS_NAMES.map((name) => [name, NOT_GIVEN]));

/** The stored record from the concerns' parts; a member none gives (only a wire check, say) is stored as sent, null when blank. */
function traineeDetails(
  record: TraineeFields,
  parts: readonly [PersonalDetails, CourseDetails, FundingDetails, PartnerDetails],
): TraineeDetails {
  const details: Record<string, unknown> = { ...DETAILS_TEMPLATE };
  for (const part of parts) Object.assign(details, part);
  const sent: Partial<Record<string, unknown>> = record;
  for (const name of TRAINEE_DETAILS_NAMES) if (details[name] === NOT_GIVEN) details[name] = isBlank(sent[name]) ? null : sent[name];
  return details as TraineeDetails;
}

/**
 * The record rules of a new trainee (docs/reference/API-FACTS.md §6.2–§6.10, §8): the canonical record with its nested placements
 * and degrees, codes as sent, texts squished and derived values computed (§6.7, §13.4); or every message, in order, each once.
 */
export function validateNewTrainee(
  fields: TraineeFields,
  problems: readonly InputProblem[],
  ctx: TraineeRuleContext,
): ValidationResult<{ details: TraineeDetails; placements: PlacementInput[]; degrees: DegreeInput[] }> {
  const messages = new MessageList(problems);
  const degreeCount = Array.isArray(fields.degrees_attributes) ? fields.degrees_attributes.length : 0;
  const out = checkTrainee(fields, ctx, { mode: 'create', request: fields, degreesForRequiredRule: degreeCount }, messages);
  if (!messages.isEmpty || !out.details) return failedResult(messages, MESSAGE_ORDER);
  return { ok: true, value: { details: out.details, placements: out.placements, degrees: out.degrees } };
}

/** The stored members a body may send, and the `disabilityN` map: made once, at module load (see {@link storedAsFields}). */
const STORED_FIELDS_TEMPLATE: Readonly<Record<string, unknown>> = Object.fromEntries(
  [...TRAINEE_STORED_INPUTS, 'disabilities'].map((name) => [name, undefined]),
);

/** The stored record as typed fields, so the merged record re-validates with the create rules. */
function storedAsFields(stored: TraineeDetails): TraineeFields {
  const fields: Record<string, unknown> = { ...STORED_FIELDS_TEMPLATE };
  for (const name of TRAINEE_STORED_INPUTS) fields[name] = stored[name];
  fields.disabilities = { ...(stored.disabilities ?? {}) };
  return fields as TraineeFields;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue(ra[k], rb[k]));
  }
  return false;
}

/**
 * The record rules of a PUT or PATCH (docs/reference/API-FACTS.md §7): the request merged into `stored` (§7.4's nulls and blanks),
 * then the create rules over the result. Returns the record and `changes`, the fields whose value differs; or every message.
 * `opts.hasDegrees` false applies the create's degree rule to the merged route. Where the facts leave room: a `disabilityN` sent
 * null or "" removes it (else none could ever go); every derived field is recomputed from the merged record (§7.9).
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
      if (tooManyDisabilities(next, stored.disabilities)) messages.add(['disabilities'], TOO_MANY_DISABILITIES);
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
  // A value the wire checks refused leaves the stored one, and that field's rules are skipped (its message is there).
  const write: TraineeWrite = { mode: 'update', request, stored, degreesForRequiredRule: opts.hasDegrees === false ? 0 : null };
  const out = checkTrainee(merged, ctx, write, messages);
  if (!messages.isEmpty || !out.details) return failedResult(messages, MESSAGE_ORDER);
  const details = out.details;
  const changes: Partial<TraineeDetails> = {};
  for (const key of Object.keys(details) as (keyof TraineeDetails)[]) {
    if (!sameValue(details[key], stored[key])) (changes as Record<string, unknown>)[key] = details[key];
  }
  return { ok: true, value: { details, changes } };
}

/** Past the maximum and more than stored: a trainee stored with more (before the bound) may lose disabilities but gain none. */
function tooManyDisabilities(merged: Record<string, unknown>, stored: Record<string, string> | undefined): boolean {
  const n = Object.keys(merged).length;
  return n > TRAINEE_DISABILITIES_MAX && n > Object.keys(stored ?? {}).length;
}
