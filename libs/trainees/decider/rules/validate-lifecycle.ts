/**
 * The lifecycle actions' rules that need the trainee or today (docs/reference/API-FACTS.md §12.3–§12.5; docs/DESIGN.md rulings 4, 7
 * and 8). The bodies' own rules are the contract's wire checks, whose problems arrive with the fields; the states, the state machine's.
 */
import { parseIsoDate } from '@app/calendar';
import {
  LIFECYCLE_FIELDS,
  blankMessageOf,
  catalogueEntry,
  lifecycleStoredOf,
  withdrawalReasonsFor,
  type Deferral,
  type DeferralFields,
  type LifecycleBody,
  type LifecycleFields,
  type LifecycleStored,
  type Recommendation,
  type RecommendationFields,
  type Trainee,
  type Withdrawal,
  type WithdrawalFields,
} from '@app/trainees/record';
import { MessageList, type InputProblem } from './request-data';
import type { ValidationResult } from './validation-result';

// Dates.

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

/** An ISO 8601 time, extended (`hh:mm:ss.fff`) or basic (`hhmmss`), not mixed, then an optional zone `Z`, `±hh`, `±hh:mm` or `±hhmm`. */
const ISO_TIME =
  /^(?:(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?|(\d{2})(?:(\d{2})(?:(\d{2})(?:[.,]\d+)?)?)?)(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

/**
 * The calendar date (`YYYY-MM-DD`) of an ISO 8601 date or date-time string (docs/reference/API-FACTS.md §12.4), or null. With a zone,
 * the UTC date (`2025-09-01T23:30:00-01:00` → `2025-09-02`); without, the date as written.
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

/** What a lifecycle action's rules need from outside: today (`YYYY-MM-DD`, UTC) and a field's label in the request's version. */
export interface LifecycleRuleContext {
  today: string;
  label(field: string): string;
}

function ittStartOf(trainee: Trainee): string | null {
  return parseIsoDate(trainee.details?.itt_start_date);
}

// Every body.

/** The wire problems, and a guard for a required field handed over without a value or a problem. */
function bodyMessages<B extends LifecycleBody>(
  body: B,
  fields: LifecycleFields<B>,
  problems: readonly InputProblem[],
  ctx: LifecycleRuleContext,
): MessageList {
  const messages = new MessageList(problems);
  const sent = fields as Readonly<Record<string, unknown>>;
  for (const field of LIFECYCLE_FIELDS[body]) {
    const value = sent[field.key];
    const absent = value === undefined || (Array.isArray(value) && value.length === 0);
    if (field.input.required && absent && !messages.invalid.has(field.key))
      messages.add([field.key], `${ctx.label(field.key)} ${blankMessageOf(field.input)}`);
  }
  return messages;
}

/** The answer of a lifecycle body: every message in the order of its fields (then `after`), or what the action records. */
function answerOf<B extends LifecycleBody>(
  body: B,
  fields: LifecycleFields<B>,
  messages: MessageList,
  after: readonly string[] = [],
): ValidationResult<LifecycleStored<B>> {
  if (!messages.isEmpty) return { ok: false, errors: messages.sorted([[...LIFECYCLE_FIELDS[body].map((f) => f.key), ...after]]) };
  return { ok: true, value: lifecycleStoredOf(body, fields) };
}

// Defer.

/** A deferral (docs/reference/API-FACTS.md §12.3): every rule is a wire check, so this answers the problems or the deferral. */
export function validateDeferral(
  fields: DeferralFields,
  problems: readonly InputProblem[],
  ctx: LifecycleRuleContext,
): ValidationResult<Deferral> {
  return answerOf('deferral', fields, bodyMessages('deferral', fields, problems, ctx));
}

// Withdraw.

/** The withdrawal reason that the version's rules may leave out (docs/DESIGN.md ruling 7). */
const SAFEGUARDING_CONCERNS_REASON = 'safeguarding_concerns';

/**
 * The reasons allowed for `trigger`, in file order; any other trigger than `provider` uses the trainee's (docs/reference/API-FACTS.md
 * §12.4). `safeguarding_concerns` only with the rules' flag (docs/DESIGN.md ruling 7), though the data file has it for every version.
 */
export function allowedWithdrawalReasons(trigger: unknown, safeguardingConcernsReason: boolean): readonly string[] {
  const t = trigger === 'provider' || trigger === 'trainee' ? trigger : 'trainee';
  return ALLOWED_REASONS[`${t}|${safeguardingConcernsReason}`];
}

const ALLOWED_REASONS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  (['provider', 'trainee'] as const).flatMap((trigger) =>
    [true, false].map((safeguarding) => [
      `${trigger}|${safeguarding}`,
      Object.freeze(
        withdrawalReasonsFor(trigger)
          .map((r) => r.code)
          .filter((code) => code !== SAFEGUARDING_CONCERNS_REASON || safeguarding),
      ),
    ]),
  ),
);

/**
 * A withdrawal (docs/reference/API-FACTS.md §12.4): the wire problems and the date not before itt_start_date (the same day allowed,
 * no future check). Returns the {@link Withdrawal} or every message in the body's field order.
 */
export function validateWithdrawal(
  fields: WithdrawalFields,
  problems: readonly InputProblem[],
  trainee: Trainee,
  ctx: LifecycleRuleContext,
): ValidationResult<Withdrawal> {
  const messages = bodyMessages('withdrawal', fields, problems, ctx);
  const date = fields.withdrawal_date;
  const ittStart = ittStartOf(trainee);
  if (date !== undefined && ittStart !== null && date < ittStart)
    messages.add(['withdrawal_date'], `${ctx.label('withdrawal_date')} must be after itt_start_date`);
  return answerOf('withdrawal', fields, messages);
}

// Recommend for QTS/EYTS.

/** Messages of the recommendation's rules that need the trainee or today (docs/reference/API-FACTS.md §12.5). */
export const RECOMMENDATION_MESSAGES = {
  dateInFuture: 'qts_standards_met_date must not be in the future',
  dateBeforeIttStart: 'qts_standards_met_date must be after itt_start_date',
  degreeMissing: 'degree_id must be completed before qts_standards_met_date',
  /** `routeValue`: the route's internal name (`training_route.json` `value`). */
  tooFewPlacements: (n: number, routeValue: string): string => `placements must be at least ${n} for the ${routeValue} training route`,
} as const;

/**
 * A recommendation for QTS/EYTS (docs/reference/API-FACTS.md §12.5; states: docs/DESIGN.md ruling 8, the state machine's): the date
 * neither in the future nor before itt_start_date, the route's degree and `minimum_placements_for_award` (0 for the exempt routes),
 * these two whatever the date. Returns the recommendation or every message.
 */
export function validateRecommendation(
  fields: RecommendationFields,
  problems: readonly InputProblem[],
  trainee: Trainee,
  ctx: LifecycleRuleContext,
): ValidationResult<Recommendation> {
  const messages = bodyMessages('recommendation', fields, problems, ctx);
  const date = fields.qts_standards_met_date;
  if (date !== undefined) {
    if (date > ctx.today) messages.add(['qts_standards_met_date'], RECOMMENDATION_MESSAGES.dateInFuture);
    const ittStart = ittStartOf(trainee);
    if (ittStart !== null && date < ittStart) messages.add(['qts_standards_met_date'], RECOMMENDATION_MESSAGES.dateBeforeIttStart);
  }

  const route = catalogueEntry('training_route', trainee.details?.training_route);
  if (route) {
    if (route.requires_degree && trainee.degrees.length === 0) messages.add(['degree_id'], RECOMMENDATION_MESSAGES.degreeMissing);
    const minimum = route.minimum_placements_for_award;
    if (minimum > 0 && trainee.placements.length < minimum) {
      messages.add(['placements'], RECOMMENDATION_MESSAGES.tooFewPlacements(minimum, route.value));
    }
  }
  return answerOf('recommendation', fields, messages, ['degree_id', 'placements']);
}
