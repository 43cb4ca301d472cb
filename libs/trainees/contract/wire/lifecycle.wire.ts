/**
 * The wire checks of the lifecycle actions' bodies (docs/spec/trainee-records-api.md
 * "POST /trainees/{trainee_id}/defer", "POST /trainees/{trainee_id}/withdraw",
 * "POST /trainees/{trainee_id}/recommend-for-qts" and "Limits"; docs/reference/API-FACTS.md
 * §12.3–§12.5; docs/DESIGN.md ruling 7): every rule of a body that needs neither the trainee nor
 * today. The rest (a withdrawal date before itt_start_date; a recommendation date in the future or
 * before it, the degree and placements a route needs) is the decider's
 * (libs/trainees/decider/rules/validate-lifecycle.ts).
 *
 * Where the facts leave room on the wire:
 * - a free text that is an array, object or boolean counts as not entered (another reason,
 *   safeguarding concerns) or is `<field> is invalid` (defer_reason);
 * - a non-array `reasons` counts as absent;
 * - the other version's withdrawal date key is an unknown key, ignored, so sending it counts as
 *   missing (the reference answers 500 there, docs/reference/API-FACTS.md §5.6).
 */
import {
  DEFERRAL_MESSAGES,
  DEFER_REASON_MAX_LENGTH,
  RECOMMENDATION_MESSAGES,
  SAFEGUARDING_CONCERNS_REASON,
  WITHDRAWAL_MESSAGES,
  allowedWithdrawalReasons,
  parseIsoDateOrDateTime,
} from '@app/trainees/decider';
import { parseIsoDate } from '@app/calendar';
import {
  REFERENCE_LISTS,
  type DeferralFields,
  type RecommendationFields,
  type WithdrawalFields,
  versionFieldName,
  type ApiVersion,
  REASON_TEXT_MAX_CHARS,
  WITHDRAWAL_REASONS_MAX_ITEMS,
} from '@app/trainees/record';
import { traineeRulesFor } from '../rules';
import {
  Holds,
  ISO_DATE_OR_DATE_TIME_MAX_CHARS,
  IsIsoDate,
  IsIsoDateOrDateTime,
  IsText,
  MaxChars,
  MaxItems,
  NonScalar,
  Required,
  textOf,
} from './constraints';
import { isBlank } from './values';
import { WireObject, wrap, type WireField } from './wire-object';

/** The withdrawal trigger and future-interest values (`withdrawal_trigger.json`, `withdrawal_future_interest.json`). */
const TRIGGERS: readonly string[] = REFERENCE_LISTS.withdrawal_trigger.map((e) => e.code);
const FUTURE_INTERESTS: readonly string[] = REFERENCE_LISTS.withdrawal_future_interest.map((e) => e.code);

/** A required free text: trimmed text, or null when blank or not text (a JSON number is read as its text). */
function requiredText(value: unknown): string | null {
  if (value instanceof NonScalar) return null;
  if (isBlank(value)) return null;
  const text = textOf(value);
  if (text === undefined) return null;
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}

/** The reasons sent: the array's elements, or none (a non-array counts as absent). */
function reasonsOf(object: Record<string, unknown>): unknown[] {
  const raw = object.reasons;
  return Array.isArray(raw) ? raw : [];
}

/** The string reasons sent. */
function stringReasons(object: Record<string, unknown>): string[] {
  return reasonsOf(object).filter((r): r is string => typeof r === 'string');
}

/** The body of POST …/defer (§12.3): `defer_date` required, a date, no range; `defer_reason` at most 500 characters. */
export const DEFERRAL_WIRE = new WireObject<DeferralFields>('DeferralInput', [
  {
    wire: 'defer_date',
    canonical: 'defer_date',
    checks: [
      Required({ message: () => DEFERRAL_MESSAGES.deferDateBlank }),
      IsIsoDate({ message: () => DEFERRAL_MESSAGES.deferDateInvalid }),
    ],
    convert: (v) => parseIsoDate(v),
    required: true,
    schema: {
      type: 'string',
      format: 'date',
      maxLength: ISO_DATE_OR_DATE_TIME_MAX_CHARS,
      description: 'When the trainee deferred (no range check).',
      example: '2026-01-15',
    },
  },
  {
    wire: 'defer_reason',
    canonical: 'defer_reason',
    checks: [IsText(), MaxChars(DEFER_REASON_MAX_LENGTH)],
    convert: (v) => textOf(v),
    schema: {
      type: ['string', 'null'],
      maxLength: DEFER_REASON_MAX_LENGTH,
      description: 'Why, at most 500 characters.',
      example: 'Health reasons',
    },
  },
]);

/** The body of POST …/recommend-for-qts (§12.5): `qts_standards_met_date` required and a date. */
export const RECOMMENDATION_WIRE = new WireObject<RecommendationFields>('RecommendationInput', [
  {
    wire: 'qts_standards_met_date',
    canonical: 'qts_standards_met_date',
    checks: [
      Required({ message: () => RECOMMENDATION_MESSAGES.dateBlank }),
      IsIsoDate({ message: () => RECOMMENDATION_MESSAGES.dateInvalid }),
    ],
    convert: (v) => parseIsoDate(v),
    required: true,
    schema: {
      type: 'string',
      format: 'date',
      maxLength: ISO_DATE_OR_DATE_TIME_MAX_CHARS,
      description: 'When the trainee met the QTS or EYTS standards: not in the future, not before itt_start_date.',
      example: '2026-06-30',
    },
  },
]);

/**
 * `reasons` of a withdrawal (docs/reference/API-FACTS.md §12.4; docs/DESIGN.md rulings 7 and 14):
 * at least one, each allowed for the trigger (the version's list, with or without
 * safeguarding_concerns), at most WITHDRAWAL_REASONS_MAX_ITEMS.
 */
function reasonsField(safeguarding: boolean): WireField {
  const allowed = (object: Record<string, unknown>): readonly string[] => {
    const trigger = object.trigger;
    return allowedWithdrawalReasons(typeof trigger === 'string' && TRIGGERS.includes(trigger) ? trigger : undefined, safeguarding);
  };
  const reasonEnum = [
    ...new Set([...allowedWithdrawalReasons('provider', safeguarding), ...allowedWithdrawalReasons('trainee', safeguarding)]),
  ];
  return {
    wire: 'reasons',
    canonical: 'reasons',
    checks: [
      Holds(
        'reasonsGiven',
        (_v, o) => reasonsOf(o).length > 0,
        () => WITHDRAWAL_MESSAGES.reasonsBlank,
      ),
      Holds(
        'reasonsForTrigger',
        (_v, o) => {
          const reasons = reasonsOf(o);
          const ok = allowed(o);
          return reasons.length === 0 || reasons.every((r) => typeof r === 'string' && ok.includes(r));
        },
        () => WITHDRAWAL_MESSAGES.reasonsNotValidForTrigger,
      ),
      MaxItems(WITHDRAWAL_REASONS_MAX_ITEMS, 'reasons'),
    ],
    prepare: (v) => (Array.isArray(v) ? v.map(wrap) : wrap(v)),
    convert: () => undefined,
    required: true,
    schema: {
      type: 'array',
      minItems: 1,
      maxItems: WITHDRAWAL_REASONS_MAX_ITEMS,
      items: { type: 'string', enum: reasonEnum },
      description: `Why the trainee withdrew: reasons allowed for the trigger (see GET /reference-data, withdrawal_reasons), at most ${WITHDRAWAL_REASONS_MAX_ITEMS}.`,
      example: ['unacceptable_behaviour'],
    },
  };
}

/** `safeguarding_concern_reasons`, where the version has it: required when the reasons include safeguarding_concerns. */
const SAFEGUARDING_CONCERN_REASONS_FIELD: WireField = {
  wire: 'safeguarding_concern_reasons',
  canonical: 'safeguarding_concern_reasons',
  checks: [
    Holds(
      'safeguardingGiven',
      (v: unknown, o: Record<string, unknown>) => !stringReasons(o).includes(SAFEGUARDING_CONCERNS_REASON) || requiredText(v) !== null,
      () => WITHDRAWAL_MESSAGES.safeguardingConcernReasonsBlank,
    ),
    MaxChars(REASON_TEXT_MAX_CHARS),
  ],
  convert: (v: unknown) => requiredText(v),
  schema: {
    type: ['string', 'null'],
    maxLength: REASON_TEXT_MAX_CHARS,
    description: `Required when the reasons include safeguarding_concerns; at most ${REASON_TEXT_MAX_CHARS} characters.`,
    example: null,
  },
};

function withdrawalWire(version: ApiVersion): WireObject<WithdrawalFields> {
  const dateField = versionFieldName('withdrawal_date', version) ?? 'withdrawal_date';
  const safeguarding = traineeRulesFor(version).safeguardingConcernsReason;
  return new WireObject<WithdrawalFields>('WithdrawalInput', [
    {
      wire: dateField,
      canonical: 'withdrawal_date',
      checks: [Required({ message: WITHDRAWAL_MESSAGES.dateBlank }), IsIsoDateOrDateTime(WITHDRAWAL_MESSAGES.dateInvalid)],
      convert: (v) => parseIsoDateOrDateTime(v),
      required: true,
      schema: {
        type: 'string',
        maxLength: ISO_DATE_OR_DATE_TIME_MAX_CHARS,
        description:
          'When the trainee withdrew: an ISO 8601 date or date-time (a date-time with a zone counts on its UTC date); not before itt_start_date.',
        example: '2026-01-15',
      },
    },
    reasonsField(safeguarding),
    {
      wire: 'trigger',
      canonical: 'trigger',
      checks: [
        Holds(
          'triggerInList',
          (v) => typeof v === 'string' && TRIGGERS.includes(v),
          () => WITHDRAWAL_MESSAGES.triggerNotInList,
        ),
      ],
      convert: (v) => v,
      required: true,
      schema: { type: 'string', enum: [...TRIGGERS], description: 'Who decided: the provider or the trainee.', example: 'trainee' },
    },
    {
      wire: 'future_interest',
      canonical: 'future_interest',
      checks: [
        Holds(
          'futureInterestInList',
          (v) => typeof v === 'string' && FUTURE_INTERESTS.includes(v),
          () => WITHDRAWAL_MESSAGES.futureInterestNotInList,
        ),
      ],
      convert: (v) => v,
      required: true,
      schema: {
        type: 'string',
        enum: [...FUTURE_INTERESTS],
        description: 'Whether the trainee might return to teacher training.',
        example: 'no',
      },
    },
    {
      wire: 'another_reason',
      canonical: 'another_reason',
      checks: [
        Holds(
          'anotherReasonGiven',
          (v, o) => !stringReasons(o).some((r) => r.includes('another_reason')) || requiredText(v) !== null,
          () => WITHDRAWAL_MESSAGES.anotherReasonBlank,
        ),
        MaxChars(REASON_TEXT_MAX_CHARS),
      ],
      convert: (v) => requiredText(v),
      schema: {
        type: ['string', 'null'],
        maxLength: REASON_TEXT_MAX_CHARS,
        description: `Required when a reason is one of the "another reason" ones; at most ${REASON_TEXT_MAX_CHARS} characters.`,
        example: null,
      },
    },
    ...(safeguarding ? [SAFEGUARDING_CONCERN_REASONS_FIELD] : []),
  ]);
}

const WITHDRAWAL_BY_VERSION = new Map<ApiVersion, WireObject<WithdrawalFields>>();

/** The withdrawal wire object of `version` (its date key is `withdraw_date` or `withdrawal_date`). */
export function withdrawalWireFor(version: ApiVersion): WireObject<WithdrawalFields> {
  let wire = WITHDRAWAL_BY_VERSION.get(version);
  if (!wire) {
    wire = withdrawalWire(version);
    WITHDRAWAL_BY_VERSION.set(version, wire);
  }
  return wire;
}

/**
 * The typed withdrawal fields from a checked body: the date, trigger, future interest, the string
 * reasons in the order sent without repeats, and the two texts only when a reason needs them.
 */
export function withdrawalFields(checked: WithdrawalFields, data: Record<string, unknown>): WithdrawalFields {
  const reasons = [...new Set(stringReasons(data))];
  const anotherNeeded = reasons.some((r) => r.includes('another_reason'));
  const safeguardingNeeded = reasons.includes(SAFEGUARDING_CONCERNS_REASON);
  return {
    ...checked,
    reasons,
    another_reason: anotherNeeded ? (checked.another_reason ?? null) : null,
    safeguarding_concern_reasons: safeguardingNeeded ? (checked.safeguarding_concern_reasons ?? null) : null,
  };
}
