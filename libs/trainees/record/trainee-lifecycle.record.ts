/**
 * The trainee table's rows of the fields the lifecycle actions' bodies send (docs/spec/trainee-records-api.md "POST
 * /trainees/{trainee_id}/defer", "POST /trainees/{trainee_id}/withdraw", "POST /trainees/{trainee_id}/recommend-for-qts", "Limits";
 * docs/reference/API-FACTS.md §12.3–§12.5; docs/DESIGN.md rulings 7 and 14): as sent, as recorded and as answered.
 */
import { WITHDRAWAL_REASONS } from './codes/catalogue';
import { codesOf, date, ndate, nenum, nstr, recordedValue, text, type FieldRow } from './field-table';
import { REASON_TEXT_MAX_CHARS, WITHDRAWAL_REASONS_MAX_ITEMS } from './limits';

/** Most characters of a deferral's reason (docs/spec/trainee-records-api.md "Limits"; docs/reference/API-FACTS.md §12.3). */
const DEFER_REASON_MAX_CHARS = 500;

/** The withdrawal reasons as answered: every reason code, or null. */
const REASONS = { type: ['array', 'null'], items: { type: 'string', enum: [...new Set(WITHDRAWAL_REASONS.map((r) => r.code))] } };

/** A code list's one message when the value is not one of its codes, whether sent or not (§12.4). */
const NOT_IN_LIST = 'is not included in the list';

/** The rows, in groups that each sit at their place of the trainee table's answer order. */
export const LIFECYCLE_ROWS = {
  /** After `trainee_start_date`. */
  recommendation: [
    {
      name: 'outcome_date',
      lifecycle: {
        body: 'recommendation',
        key: 'qts_standards_met_date',
        stored: 'outcome_date',
        label: 'Date the QTS or EYTS standards were met',
        kind: date,
        required: true,
        rank: 1,
        blank: "can't be blank. Enter a date the trainee met the QTS or EYTS requirements.",
        description: 'When the trainee met the QTS or EYTS standards: not in the future, not before itt_start_date.',
        example: '2026-06-30',
      },
      answer: { schema: ndate('When the QTS/EYTS standards were met.') },
    },
  ],
  /** After `state`. */
  deferral: [
    {
      name: 'defer_date',
      lifecycle: {
        body: 'deferral',
        label: 'Date deferred',
        kind: date,
        required: true,
        rank: 1,
        description: 'When the trainee deferred (no range check).',
        example: '2026-01-15',
      },
      answer: { schema: ndate() },
    },
    {
      name: 'defer_reason',
      personal: true,
      lifecycle: {
        body: 'deferral',
        label: 'Reason for deferring',
        kind: text(DEFER_REASON_MAX_CHARS),
        rank: 2,
        description: `Why, at most ${DEFER_REASON_MAX_CHARS} characters.`,
        example: 'Health reasons',
      },
      answer: { schema: nstr(undefined, { maxLength: DEFER_REASON_MAX_CHARS }) },
    },
  ],
  /** After `statsagency_editable`; a withdrawal's record keeps the date first, then trigger, future interest and reasons. */
  withdrawal: [
    {
      name: 'withdrawal_future_interest',
      lifecycle: {
        body: 'withdrawal',
        key: 'future_interest',
        label: 'Might return to teacher training',
        kind: { kind: 'listed', list: 'withdrawal_future_interest' },
        required: true,
        rank: 4,
        storedRank: 3,
        invalid: NOT_IN_LIST,
        description: 'Whether the trainee might return to teacher training.',
        example: 'no',
      },
      answer: { schema: nenum(codesOf('withdrawal_future_interest')) },
    },
    {
      name: 'withdrawal_trigger',
      lifecycle: {
        body: 'withdrawal',
        key: 'trigger',
        label: 'Who decided to withdraw',
        kind: { kind: 'listed', list: 'withdrawal_trigger' },
        required: true,
        rank: 3,
        storedRank: 2,
        invalid: NOT_IN_LIST,
        description: 'Who decided: the provider or the trainee.',
        example: 'trainee',
      },
      answer: { schema: nenum(codesOf('withdrawal_trigger')) },
    },
    // The spec's trainee table lists withdrawal_reasons for every version; v2025.0 also answers them as withdraw_reasons.
    {
      name: 'withdrawal_reasons',
      lifecycle: {
        body: 'withdrawal',
        key: 'reasons',
        label: 'Reasons for withdrawing',
        kind: { kind: 'reasons', max: WITHDRAWAL_REASONS_MAX_ITEMS, noun: 'reasons', trigger: 'withdrawal_trigger' },
        required: true,
        rank: 2,
        storedRank: 4,
        blank: 'Choose one or more reasons why the trainee withdrew from the course',
        invalid: 'entered not valid for selected trigger eg unacceptable_behaviour for a trainee trigger',
        description: `Why the trainee withdrew: reasons allowed for the trigger (see GET /reference-data, withdrawal_reasons), at most ${WITHDRAWAL_REASONS_MAX_ITEMS}.`,
        example: ['unacceptable_behaviour'],
      },
      answer: { schema: REASONS, asIs: true },
    },
    {
      name: 'withdrawal_another_reason',
      personal: true,
      lifecycle: {
        body: 'withdrawal',
        key: 'another_reason',
        // Any reason whose code says so, as the reference reads it (`had_to_withdraw_trainee_another_reason`, …).
        label: 'Another reason for withdrawing',
        kind: { kind: 'reason_text', max: REASON_TEXT_MAX_CHARS, neededBy: (reason: string) => reason.includes('another_reason') },
        rank: 5,
        blank: 'Enter another reason',
        description: `Required when a reason is one of the "another reason" ones; at most ${REASON_TEXT_MAX_CHARS} characters.`,
        example: null,
      },
      answer: { schema: nstr() },
    },
  ],
  /** After `course_subject_3`. */
  withdrawalDate: [
    {
      name: 'withdrawal_date',
      names: { 'v2025.0': 'withdraw_date' },
      lifecycle: {
        body: 'withdrawal',
        stored: 'date',
        label: 'Date withdrawn',
        kind: { kind: 'date_or_date_time' },
        required: true,
        rank: 1,
        blank: 'Choose a withdrawal date',
        invalid: 'Choose a valid withdrawal date',
        description:
          'When the trainee withdrew: an ISO 8601 date or date-time (a date-time with a zone counts on its UTC date); not before itt_start_date.',
        example: '2026-01-15',
      },
      answer: { schema: ndate() },
    },
  ],
  /** After `training_partner_urn`: what one version alone answers. */
  withdrawalByVersion: [
    {
      name: 'withdrawal_safeguarding_concern_reasons',
      personal: true,
      lifecycle: {
        body: 'withdrawal',
        key: 'safeguarding_concern_reasons',
        // Where the version's rules make safeguarding_concerns a reason (docs/DESIGN.md ruling 7).
        label: 'Safeguarding concerns',
        kind: { kind: 'reason_text', max: REASON_TEXT_MAX_CHARS, neededBy: (reason: string) => reason === 'safeguarding_concerns' },
        rank: 6,
        blank: 'Enter the concerns',
        description: `Required when the reasons include safeguarding_concerns; at most ${REASON_TEXT_MAX_CHARS} characters.`,
        example: null,
      },
      answer: { schema: nstr(), only: ['v2026.1'] },
    },
    {
      name: 'withdrawal_reasons',
      names: { 'v2025.0': 'withdraw_reasons' },
      answer: { value: (t: object) => recordedValue(t, 'withdrawal', 'reasons'), schema: REASONS, only: ['v2025.0'] },
    },
  ],
} as const satisfies Record<string, readonly FieldRow<object>[]>;
