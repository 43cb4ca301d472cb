/**
 * The record rules of a trainee create and update (docs/reference/API-FACTS.md §6.3–§6.10, §7, §8):
 * what a trainee must hold (required fields), the date ranges relative to today, the rules between
 * fields (subjects, phases, disabilities, funding, initiatives, partners), the nested degrees and
 * placements, and the derived values. The single-field wire checks (JSON types, lengths, formats,
 * codes) are the contract's (libs/trainees/contract); their problems arrive with the fields and are
 * reported together with these rules' messages, in one stable order ({@link TRAINEE_MESSAGE_ORDER}).
 * Pure and total: no I/O, no clock ("today" arrives in the context), never throws on typed input.
 *
 * Where the facts leave room, these hold for every rule of the trainee:
 * - The reference's second pass with its web-form validators (§5.5, a 422 whose `errors` is keyed
 *   by section) is not implemented: every refusal is a list of messages.
 * - Each message is answered once: two nested degrees missing a subject give one message.
 * - A rule that compares a field with another skips when one of them already failed its own check,
 *   so no "course_subject_1 is invalid. It should be `100511`…" comes on top of an unknown code. The
 *   §8 funding rules are the exception: they follow the reference implementation literally
 *   (funding.rules.ts).
 * The choices that concern one field are beside the rule that makes them: the school and partner
 * keys in partners.rules.ts, iqts_country and the defaulted trainee_start_date in course.rules.ts, a
 * blank email in personal-details.rules.ts, the merge of an update in {@link validateTraineeUpdate}.
 * Those of the wire checks (values of the wrong JSON type, application_id,
 * pg_apprenticeship_start_date) are in libs/trainees/contract/wire/wire-fields.ts.
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
import type { ValidationResult } from './validation-result';
import { TOO_MANY_DISABILITIES, TRAINEE_DISABILITIES_MAX } from '../trainee.limits';

export { squish } from './trainee-record';
export type { TraineeRuleContext } from './trainee-record';

/**
 * The order in which a trainee's messages are answered: the fields in the order of
 * docs/reference/API-FACTS.md §6.3 (required fields first, then the optional ones: the trainee
 * table's `messageRank`s, libs/trainees/record/trainee.record.ts), then the cross-field rules, the
 * nested degrees and placements, and the §8 funding rules. `rule:` names are rules between fields;
 * `…[]` names hold the nested items' messages.
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
 * One pass of every record rule over `record` (the request's fields on create; the stored record
 * with the request's fields merged on update), adding messages to `messages` (which already holds
 * the wire problems) and returning the record to store when nothing failed. The concerns may run
 * in any order: messages are answered by path in {@link TRAINEE_MESSAGE_ORDER}, and each path is
 * one concern's, which adds its messages in the order they are answered.
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

/**
 * Every member of the stored record, in the order of {@link TRAINEE_DETAILS_NAMES}, not given yet:
 * made once, at module load; a write's record starts as a copy of it, so every record is keyed in
 * that order and has one shape, and filling it changes no shape.
 */
const DETAILS_TEMPLATE: Readonly<Record<string, unknown>> = Object.fromEntries(TRAINEE_DETAILS_NAMES.map((name) => [name, NOT_GIVEN]));

/**
 * The stored record from the concerns' parts, its keys in the order of {@link TRAINEE_DETAILS_NAMES}
 * (events and `changes` keep it). A member no concern gives (a field whose only rule is its wire
 * check, a code of its list say) is stored as `record` holds it: as sent, null when blank.
 */
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
 * course_level (§6.7, §13.4). The choices listed at the top of this file apply.
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
 * - §7.5: disabilities merge by key; a `disabilityN` key sent as null or "" removes that key (the
 *   facts leave this open; without it no disability could ever be removed). The merged record holds
 *   at most {@link TRAINEE_DISABILITIES_MAX} (docs/DESIGN.md ruling 14). §7.6: nationality
 *   replaces; §7.7: iqts_country follows the merged route.
 * - §7.9 leaves open whether to copy the reference, which re-derives diversity_disclosure,
 *   training_initiative and course_education_phase from the request alone: here every derived field
 *   is recomputed from the merged record, so an update that does not touch their sources keeps the
 *   stored values.
 * - School and partner keys: absent = unchanged; present = applied as on create (partners.rules.ts).
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
  // A request value the wire checks refused leaves the stored one in the merged record, and the
  // rules on that field are skipped (its message is already there).
  const write: TraineeWrite = { mode: 'update', request, stored, degreesForRequiredRule: opts.hasDegrees === false ? 0 : null };
  const out = checkTrainee(merged, ctx, write, messages);
  if (!messages.isEmpty || !out.details) return { ok: false, errors: messages.sorted(MESSAGE_ORDER) };
  const details = out.details;
  const changes: Partial<TraineeDetails> = {};
  for (const key of Object.keys(details) as (keyof TraineeDetails)[]) {
    if (!sameValue(details[key], stored[key])) (changes as Record<string, unknown>)[key] = details[key];
  }
  return { ok: true, value: { details, changes } };
}

/**
 * True when an update's merged disabilities pass {@link TRAINEE_DISABILITIES_MAX} and hold more
 * than the stored ones: a trainee stored with more (before the bound) can still be updated, and
 * can lose disabilities, but gain none.
 */
function tooManyDisabilities(merged: Record<string, unknown>, stored: Record<string, string> | undefined): boolean {
  const n = Object.keys(merged).length;
  return n > TRAINEE_DISABILITIES_MAX && n > Object.keys(stored ?? {}).length;
}
