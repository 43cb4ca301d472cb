/**
 * Validation of the lifecycle actions: defer, withdraw and recommend for QTS/EYTS (docs/spec/trainee-records-api.md "POST
 * /trainees/{trainee_id}/defer", "…/withdraw", "…/recommend-for-qts", "Limits"; docs/reference/API-FACTS.md §12.3,
 * §12.4, §12.5; docs/DESIGN.md rulings 4, 7 and 8). Pure: no I/O, no clock ("today" arrives in
 * {@link ValidationContext}).
 *
 * The state rules of these actions (which states may defer, withdraw or be recommended, and the
 * "ITT not yet started" check of a withdrawal) are not here: the state machine decides them.
 */
import { parseIsoDate } from '../../academic-cycle';
import type { ApiVersion } from '../../api-version';
import { REFERENCE_LISTS, isKnownCode, withdrawalReasonsFor, type TrainingRouteEntry } from '../../reference-data';
import type { Trainee, Withdrawal } from '../trainee.state';
import { fieldLabel, versionFieldName } from './field-names';
import type { ValidationContext, ValidationResult } from './validation-result';
import { asText, charLength, getKey, isBlank, isJsonObject } from './values';

// ---------------------------------------------------------------------------------------------
// Messages (docs/reference/API-FACTS.md §12.3–§12.5, byte for byte)
// ---------------------------------------------------------------------------------------------

/** Maximum length of `defer_reason` in characters (docs/spec/trainee-records-api.md "Limits"; docs/reference/API-FACTS.md §12.3). */
export const DEFER_REASON_MAX_LENGTH = 500;

/** Messages of the defer action (docs/reference/API-FACTS.md §12.3). */
export const DEFERRAL_MESSAGES = {
  deferDateBlank: "defer_date can't be blank",
  deferDateInvalid: 'defer_date is invalid',
  deferReasonTooLong: `defer_reason is too long (maximum is ${DEFER_REASON_MAX_LENGTH} characters)`,
  /** A defer_reason that is neither a string nor a number (an array, an object, `true`). */
  deferReasonInvalid: 'defer_reason is invalid',
} as const;

/**
 * Messages of the withdraw action (docs/reference/API-FACTS.md §12.4). The date messages start with the date field's
 * name in the request's version (`withdraw_date` in v2025.0, `withdrawal_date` in v2026.1), so
 * they are functions of that label; see {@link withdrawalDateLabel}.
 */
export const WITHDRAWAL_MESSAGES = {
  dateBlank: (label: string): string => `${label} Choose a withdrawal date`,
  dateInvalid: (label: string): string => `${label} Choose a valid withdrawal date`,
  dateBeforeIttStart: (label: string): string => `${label} must be after itt_start_date`,
  reasonsBlank: 'reasons Choose one or more reasons why the trainee withdrew from the course',
  reasonsNotValidForTrigger: 'reasons entered not valid for selected trigger eg unacceptable_behaviour for a trainee trigger',
  triggerNotInList: 'trigger is not included in the list',
  futureInterestNotInList: 'future_interest is not included in the list',
  anotherReasonBlank: 'another_reason Enter another reason',
  safeguardingConcernReasonsBlank: 'safeguarding_concern_reasons Enter the concerns',
} as const;

/** Messages of the recommend-for-QTS/EYTS action (docs/reference/API-FACTS.md §12.5), the state rule excluded. */
export const RECOMMENDATION_MESSAGES = {
  dateBlank: "qts_standards_met_date can't be blank. Enter a date the trainee met the QTS or EYTS requirements.",
  dateInvalid: 'qts_standards_met_date is invalid',
  dateInFuture: 'qts_standards_met_date must not be in the future',
  dateBeforeIttStart: 'qts_standards_met_date must be after itt_start_date',
  degreeMissing: 'degree_id must be completed before qts_standards_met_date',
  /** `n` = the route's minimum, `routeValue` = its internal name (`training_route.json` `value`). */
  tooFewPlacements: (n: number, routeValue: string): string => `placements must be at least ${n} for the ${routeValue} training route`,
} as const;

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** `date` (`YYYY-MM-DD`) moved by -1, 0 or +1 day, by calendar arithmetic (no `Date`, no time zone). */
function shiftOneDay(date: string, delta: -1 | 0 | 1): string {
  let year = Number(date.slice(0, 4));
  let month = Number(date.slice(5, 7));
  let day = Number(date.slice(8, 10)) + delta;
  if (day < 1) {
    month -= 1;
    if (month < 1) {
      month = 12;
      year -= 1;
    }
    day = daysInMonth(year, month);
  } else if (day > daysInMonth(year, month)) {
    day = 1;
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  if (year < 0 || year > 9999) return date; // outside what YYYY can say; keep the local date
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Time of an ISO 8601 date-time: extended `hh`, `hh:mm`, `hh:mm:ss`, `hh:mm:ss.fff` (or `,fff`), or
 * the same in the basic form without colons (`hhmmss`; not mixed), then an optional zone `Z`,
 * `±hh`, `±hh:mm` or `±hhmm`.
 */
const ISO_TIME =
  /^(?:(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?|(\d{2})(?:(\d{2})(?:(\d{2})(?:[.,]\d+)?)?)?)(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/**
 * Parses an ISO 8601 date or date-time (the withdrawal date, docs/reference/API-FACTS.md §12.4) and returns its
 * calendar date as `YYYY-MM-DD`, or null when `value` is not a string holding one.
 *
 * - A date in any form {@link parseIsoDate} accepts (`YYYY-MM-DD`, basic `YYYYMMDD`, ordinal, week).
 * - A date-time: such a date, `T`, a time ({@link ISO_TIME}: hours 00–23, minutes and seconds 00–59,
 *   optional fraction) and an optional zone. With a zone the instant is converted to UTC and its UTC
 *   date is returned (`2025-09-01T23:30:00-01:00` → `2025-09-02`); without one the date part is
 *   returned as written.
 * White space around the value is ignored. JSON numbers and other types give null.
 */
export function parseIsoDateOrDateTime(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const s = value.trim();
  const t = s.search(/[Tt]/);
  if (t < 0) return parseIsoDate(s);
  const date = parseIsoDate(s.slice(0, t));
  if (date === null) return null;
  const m = ISO_TIME.exec(s.slice(t + 1));
  if (!m) return null;
  // Groups 1–3: extended time; 4–6: basic time; 7: `Z`; 8–10: offset sign, hours, minutes.
  const basic = m[1] === undefined;
  const hours = Number(basic ? m[4] : m[1]);
  const minutes = Number((basic ? m[5] : m[2]) ?? 0);
  const seconds = Number((basic ? m[6] : m[3]) ?? 0);
  if (hours > 23 || minutes > 59 || seconds > 59) return null;
  if (m[8] === undefined) return date; // `Z` or no zone: the written date is the UTC date
  const offsetHours = Number(m[9]);
  const offsetMinutes = Number(m[10] ?? 0);
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  const offset = (m[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  const utcMinutes = hours * 60 + minutes - offset;
  return shiftOneDay(date, utcMinutes < 0 ? -1 : utcMinutes >= 24 * 60 ? 1 : 0);
}

/** The trainee's itt_start_date as `YYYY-MM-DD`, or null when it does not parse. */
function ittStartOf(trainee: Trainee): string | null {
  return parseIsoDate(trainee.details?.itt_start_date);
}

/** The request body's object, or an empty one for any other JSON value. */
function dataOf(input: unknown): Record<string, unknown> {
  return isJsonObject(input) ? input : {};
}

// ---------------------------------------------------------------------------------------------
// Defer
// ---------------------------------------------------------------------------------------------

/** A validated deferral: what the defer action stores. */
export interface DeferralInput {
  /** `YYYY-MM-DD`. */
  defer_date: string;
  /** As sent (not trimmed); null when absent or blank. */
  defer_reason: string | null;
}

/**
 * Validates the body `data` of `POST /trainees/{id}/defer` (docs/spec/trainee-records-api.md "POST …/defer" and "Limits";
 * docs/reference/API-FACTS.md §12.3).
 *
 * Takes the `data` value (any JSON value; a non-object counts as `{}`), the trainee (unused: a
 * deferral's rules do not depend on it, the state rule is the state machine's) and the context.
 * Returns `{ defer_date, defer_reason }` or every failed rule's message, in this order:
 * - `defer_date`: required (`defer_date can't be blank`), an ISO 8601 date in a form
 *   {@link parseIsoDate} accepts, stored as `YYYY-MM-DD` (`defer_date is invalid`, also for a JSON
 *   number or any other non-string); no range check.
 * - `defer_reason`: optional; blank → null; at most 500 characters
 *   (`defer_reason is too long (maximum is 500 characters)`); a JSON number is read as its text, an
 *   array, object or `true` gives `defer_reason is invalid` (repository convention for wrong types).
 * Never throws.
 */
export function validateDeferral(input: unknown, _trainee: Trainee, _ctx: ValidationContext): ValidationResult<DeferralInput> {
  const data = dataOf(input);
  const errors: string[] = [];

  let deferDate: string | null = null;
  const rawDate = getKey(data, 'defer_date');
  if (isBlank(rawDate)) errors.push(DEFERRAL_MESSAGES.deferDateBlank);
  else {
    deferDate = parseIsoDate(rawDate);
    if (deferDate === null) errors.push(DEFERRAL_MESSAGES.deferDateInvalid);
  }

  let deferReason: string | null = null;
  const rawReason = getKey(data, 'defer_reason');
  if (!isBlank(rawReason)) {
    const text = asText(rawReason);
    if (text === undefined) errors.push(DEFERRAL_MESSAGES.deferReasonInvalid);
    else if (charLength(text) > DEFER_REASON_MAX_LENGTH) errors.push(DEFERRAL_MESSAGES.deferReasonTooLong);
    else deferReason = text;
  }

  if (errors.length > 0 || deferDate === null) return { ok: false, errors };
  return { ok: true, value: { defer_date: deferDate, defer_reason: deferReason } };
}

// ---------------------------------------------------------------------------------------------
// Withdraw
// ---------------------------------------------------------------------------------------------

/** The reason that needs `safeguarding_concern_reasons` and exists in v2026.1 only (ruling 7). */
export const SAFEGUARDING_CONCERNS_REASON = 'safeguarding_concerns';

/** Versions in which {@link SAFEGUARDING_CONCERNS_REASON} is a withdrawal reason (docs/DESIGN.md ruling 7; spec reason lists). */
const SAFEGUARDING_VERSIONS: readonly ApiVersion[] = ['v2026.1'];

/**
 * The withdrawal reason codes allowed for `trigger` in `version`, in file order
 * (`withdrawal_reason.json`, docs/spec/trainee-records-api.md "POST …/withdraw" lists). A trigger that is not `provider` or
 * `trainee` (unknown, absent, wrong type) uses the trainee list (docs/reference/API-FACTS.md §12.4).
 * `safeguarding_concerns` is left out in v2025.0: the spec lists it "in v2026.1" only and
 * docs/DESIGN.md ruling 7 confirms it, though the data file and docs/reference/API-FACTS.md carry it in both versions.
 */
export function allowedWithdrawalReasons(trigger: unknown, version: ApiVersion): readonly string[] {
  const t = typeof trigger === 'string' && isKnownCode('withdrawal_trigger', trigger, version) ? trigger : 'trainee';
  return ALLOWED_REASONS.get(`${version}|${t}`) ?? [];
}

const ALLOWED_REASONS: ReadonlyMap<string, readonly string[]> = new Map(
  (['v2025.0', 'v2026.1'] as const).flatMap((version) =>
    (['provider', 'trainee'] as const).map((trigger) => [
      `${version}|${trigger}`,
      Object.freeze(
        withdrawalReasonsFor(trigger, version)
          .map((r) => r.code)
          .filter((code) => code !== SAFEGUARDING_CONCERNS_REASON || SAFEGUARDING_VERSIONS.includes(version)),
      ),
    ]),
  ),
);

/** The name (and message label) of the withdrawal date field in `version`: `withdraw_date` or `withdrawal_date`. */
export function withdrawalDateLabel(version: ApiVersion): string {
  return fieldLabel('withdrawal_date', version);
}

/** A required free text: trimmed text, or null when blank or not text (a JSON number is read as its text). */
function requiredText(value: unknown): string | null {
  if (isBlank(value)) return null;
  const text = asText(value);
  if (text === undefined) return null;
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

/**
 * Validates the body `data` of `POST /trainees/{id}/withdraw` (docs/spec/trainee-records-api.md "POST …/withdraw" and
 * "Version-dependent fields"; docs/reference/API-FACTS.md §12.4; docs/DESIGN.md ruling 7).
 *
 * Takes the `data` value (any JSON value; a non-object counts as `{}`), the trainee (for its
 * itt_start_date) and the context (for the version). Returns the {@link Withdrawal} to store, or
 * every failed rule's message, in this order:
 * 1. The date, read from the version's key only: `withdraw_date` (v2025.0) or `withdrawal_date`
 *    (v2026.1); the other version's key is an unknown key, ignored, so sending it counts as missing.
 *    Required (`<date field> Choose a withdrawal date`); an ISO 8601 date or date-time
 *    (`<date field> Choose a valid withdrawal date`), stored as `YYYY-MM-DD` ({@link parseIsoDateOrDateTime}:
 *    the UTC date of a date-time with a zone); not before the trainee's itt_start_date, the same day
 *    allowed (`<date field> must be after itt_start_date`); no future check.
 * 2. `reasons`: a non-empty array (`reasons Choose one or more reasons why the trainee withdrew from
 *    the course`; a non-array, such as a string, counts as absent); every element must be a reason
 *    allowed for the trigger ({@link allowedWithdrawalReasons}), else `reasons entered not valid for
 *    selected trigger eg unacceptable_behaviour for a trainee trigger` (once).
 * 3. `trigger`: `provider` or `trainee` (`trigger is not included in the list`).
 * 4. `future_interest`: `yes`, `no` or `unknown` (`future_interest is not included in the list`).
 * 5. `another_reason`: required when any reason (a string element) contains `another_reason`
 *    (`another_reason Enter another reason`); stored trimmed, and only then (else null).
 * 6. `safeguarding_concern_reasons`: v2026.1 only, required when the reasons include
 *    `safeguarding_concerns` (`safeguarding_concern_reasons Enter the concerns`); stored trimmed, and
 *    only then (else null). In v2025.0 the key is ignored and `safeguarding_concerns` is not an
 *    allowed reason (ruling 7), so it gets the "not valid for selected trigger" message.
 * A free text that is an array, object or boolean counts as not entered. Stored reasons keep the
 * order sent, without repeats. Never throws.
 */
export function validateWithdrawal(input: unknown, trainee: Trainee, ctx: ValidationContext): ValidationResult<Withdrawal> {
  const data = dataOf(input);
  const { version } = ctx;
  const errors: string[] = [];

  // 1. Date.
  const label = withdrawalDateLabel(version);
  const rawDate = getKey(data, versionFieldName('withdrawal_date', version) ?? 'withdrawal_date');
  let date: string | null = null;
  if (isBlank(rawDate)) errors.push(WITHDRAWAL_MESSAGES.dateBlank(label));
  else {
    date = parseIsoDateOrDateTime(rawDate);
    if (date === null) errors.push(WITHDRAWAL_MESSAGES.dateInvalid(label));
    else {
      const ittStart = ittStartOf(trainee);
      if (ittStart !== null && date < ittStart) errors.push(WITHDRAWAL_MESSAGES.dateBeforeIttStart(label));
    }
  }

  // 2. Reasons.
  const rawTrigger = getKey(data, 'trigger');
  const rawReasons = getKey(data, 'reasons');
  const reasons: unknown[] = Array.isArray(rawReasons) ? rawReasons : [];
  if (reasons.length === 0) errors.push(WITHDRAWAL_MESSAGES.reasonsBlank);
  else {
    const allowed = allowedWithdrawalReasons(rawTrigger, version);
    if (!reasons.every((r) => typeof r === 'string' && allowed.includes(r))) errors.push(WITHDRAWAL_MESSAGES.reasonsNotValidForTrigger);
  }

  // 3. Trigger, 4. future interest.
  const triggerOk = typeof rawTrigger === 'string' && isKnownCode('withdrawal_trigger', rawTrigger, version);
  if (!triggerOk) errors.push(WITHDRAWAL_MESSAGES.triggerNotInList);
  const rawFutureInterest = getKey(data, 'future_interest');
  const futureInterestOk = typeof rawFutureInterest === 'string' && isKnownCode('withdrawal_future_interest', rawFutureInterest, version);
  if (!futureInterestOk) errors.push(WITHDRAWAL_MESSAGES.futureInterestNotInList);

  // 5. Another reason.
  const stringReasons = reasons.filter((r): r is string => typeof r === 'string');
  let anotherReason: string | null = null;
  if (stringReasons.some((r) => r.includes('another_reason'))) {
    anotherReason = requiredText(getKey(data, 'another_reason'));
    if (anotherReason === null) errors.push(WITHDRAWAL_MESSAGES.anotherReasonBlank);
  }

  // 6. Safeguarding concerns (v2026.1 only, ruling 7).
  let safeguarding: string | null = null;
  if (SAFEGUARDING_VERSIONS.includes(version) && stringReasons.includes(SAFEGUARDING_CONCERNS_REASON)) {
    safeguarding = requiredText(getKey(data, 'safeguarding_concern_reasons'));
    if (safeguarding === null) errors.push(WITHDRAWAL_MESSAGES.safeguardingConcernReasonsBlank);
  }

  if (errors.length > 0 || date === null) return { ok: false, errors };
  return {
    ok: true,
    value: {
      date,
      trigger: rawTrigger as string,
      future_interest: rawFutureInterest as string,
      reasons: [...new Set(stringReasons)],
      another_reason: anotherReason,
      safeguarding_concern_reasons: safeguarding,
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Recommend for QTS/EYTS
// ---------------------------------------------------------------------------------------------

/** A validated recommendation: the trainee's `outcome_date` (`YYYY-MM-DD`). */
export interface RecommendationInput {
  outcome_date: string;
}

/** The `training_route.json` entry of a route code, whatever the version (a stored route stays valid). */
function routeEntry(code: unknown): TrainingRouteEntry | undefined {
  return typeof code === 'string' ? REFERENCE_LISTS.training_route.find((r) => r.code === code) : undefined;
}

/**
 * Validates the body `data` of `POST /trainees/{id}/recommend-for-qts` (docs/spec/trainee-records-api.md "POST
 * …/recommend-for-qts"; docs/reference/API-FACTS.md §12.5; docs/DESIGN.md ruling 8 for the states, which are not checked
 * here: the state machine refuses other states, and the reference's `state must be selected as
 * trn_received` rule is deliberately left out).
 *
 * Takes the `data` value (any JSON value; a non-object counts as `{}`), the trainee (itt_start_date,
 * training route, degrees, placements) and the context (`today`). Returns `{ outcome_date }` or every
 * failed rule's message, all listed together, in this order:
 * 1. `qts_standards_met_date` required (`qts_standards_met_date can't be blank. Enter a date the
 *    trainee met the QTS or EYTS requirements.`), an ISO 8601 date in a form {@link parseIsoDate}
 *    accepts (`qts_standards_met_date is invalid`);
 * 2. not after `ctx.today` (`qts_standards_met_date must not be in the future`; today allowed);
 * 3. not before the trainee's itt_start_date (`qts_standards_met_date must be after itt_start_date`;
 *    the same day allowed);
 * 4. a route with `requires_degree` and a trainee with no degree →
 *    `degree_id must be completed before qts_standards_met_date`;
 * 5. fewer placements than the route's `minimum_placements_for_award` →
 *    `placements must be at least <n> for the <route value> training route`. The data encodes the
 *    exempt routes (assessment only 16, early-years assessment only 17, and every early-years route)
 *    as minimum 0, which never fails; iQTS needs 1, the others 2.
 * Rules 4 and 5 do not depend on the date and are checked whatever it is; an unknown route skips
 * them. Never throws.
 */
export function validateRecommendation(input: unknown, trainee: Trainee, ctx: ValidationContext): ValidationResult<RecommendationInput> {
  const data = dataOf(input);
  const errors: string[] = [];

  let date: string | null = null;
  const rawDate = getKey(data, 'qts_standards_met_date');
  if (isBlank(rawDate)) errors.push(RECOMMENDATION_MESSAGES.dateBlank);
  else {
    date = parseIsoDate(rawDate);
    if (date === null) errors.push(RECOMMENDATION_MESSAGES.dateInvalid);
    else {
      const today = parseIsoDate(ctx.today);
      if (today !== null && date > today) errors.push(RECOMMENDATION_MESSAGES.dateInFuture);
      const ittStart = ittStartOf(trainee);
      if (ittStart !== null && date < ittStart) errors.push(RECOMMENDATION_MESSAGES.dateBeforeIttStart);
    }
  }

  const route = routeEntry(trainee.details?.training_route);
  if (route) {
    const degrees = Array.isArray(trainee.degrees) ? trainee.degrees.length : 0;
    if (route.requires_degree && degrees === 0) errors.push(RECOMMENDATION_MESSAGES.degreeMissing);
    const placements = Array.isArray(trainee.placements) ? trainee.placements.length : 0;
    const minimum = route.minimum_placements_for_award;
    if (minimum > 0 && placements < minimum) errors.push(RECOMMENDATION_MESSAGES.tooFewPlacements(minimum, route.value));
  }

  if (errors.length > 0 || date === null) return { ok: false, errors };
  return { ok: true, value: { outcome_date: date } };
}
