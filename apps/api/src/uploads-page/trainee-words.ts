/**
 * A trainee's record in a person's words, for the uploads page's trainee pages: dates as GOV.UK writes them, a code with its meaning,
 * the status as the list's `status` values name it and the record's state as its code list does (`status_filter.json`,
 * `trainee_state.json`), and what each event of a trainee's history did.
 */
import type { TraineeEventType } from '@app/trainees/decider';
import { listStatusOf } from '@app/trainees/read';
import { catalogueEntry, type RefListName, type Trainee, type TraineeStatus } from '@app/trainees/record';
import { html, type Html } from './html';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** `2025-08-01` as `1 August 2025`; anything else as it is. */
export function personDate(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  return m && Number(m[2]) >= 1 && Number(m[2]) <= 12 ? `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]} ${m[1]}` : date;
}

/** An ISO 8601 instant in UTC (`2026-01-05T14:05:00.000Z`) as `5 January 2026 at 2:05pm UTC`; anything else as it is. */
export function personInstant(instant: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})/.exec(instant);
  if (!m || !instant.endsWith('Z')) return instant;
  const hour = Number(m[2]);
  const clock = `${hour % 12 === 0 ? 12 : hour % 12}:${m[3]}${hour < 12 ? 'am' : 'pm'}`;
  return `${personDate(m[1])} at ${clock} UTC`;
}

/** A code of `list` with its meaning (`Male (11)`), or the code alone when the list does not know it. */
export function codeWords(list: RefListName, code: string): string {
  const meaning = catalogueEntry(list, code)?.label;
  return meaning ? `${meaning} (${code})` : code;
}

/** The record's state in its code list's words (`Pending TRN`, `TRN received`…). */
export function stateWords(state: TraineeStatus): string {
  return catalogueEntry('trainee_state', state)?.label ?? state;
}

/** The GOV.UK tag colour of each list status; a trainee with none (a draft) is grey. */
const STATUS_COLOURS: Readonly<Record<string, string>> = {
  course_not_yet_started: 'govuk-tag--grey',
  in_training: '',
  deferred: 'govuk-tag--yellow',
  awarded: 'govuk-tag--green',
  withdrawn: 'govuk-tag--red',
};

/**
 * The trainee's status on `today` (`YYYY-MM-DD`, UTC) as a GOV.UK tag: the first of the list's `status` values it matches, in that
 * value's words (`status_filter.json`), so the tag says what the status filter finds it by; a trainee matching none, its state's words.
 */
export function traineeStatusTag(trainee: Trainee, today: string): Html {
  const status = listStatusOf(trainee, today);
  const words = status ? (catalogueEntry('status_filter', status)?.label ?? status) : stateWords(trainee.state);
  const colour = status ? STATUS_COLOURS[status] : 'govuk-tag--grey';
  return html`<strong class="govuk-tag${colour ? ` ${colour}` : ''}">${words}</strong>`;
}

/** The trainee's first names and last name. */
export function traineeName(trainee: Trainee): string {
  return `${trainee.details.first_names} ${trainee.details.last_name}`;
}

/** What each event of a trainee's stream did, in a person's words (an erased trainee's page is not found, so its erasure is never read). */
const EVENT_WORDS: Readonly<Record<TraineeEventType, string>> = {
  TraineeRegistered: 'Trainee added',
  TraineeSubmittedForTrn: 'Submitted for a TRN',
  TraineeUpdated: 'Details changed',
  PlacementAdded: 'Placement added',
  PlacementUpdated: 'Placement changed',
  PlacementRemoved: 'Placement removed',
  DegreeAdded: 'Degree added',
  DegreeUpdated: 'Degree changed',
  DegreeRemoved: 'Degree removed',
  TraineeDeferred: 'Deferred',
  TraineeWithdrawn: 'Withdrawn',
  TraineeRecommendedForAward: 'Recommended for QTS or EYTS',
  TrnIssued: 'TRN received',
  TraineeAwarded: 'QTS or EYTS awarded',
  TraineeErased: 'Erased',
};

/** An event type's words; an unknown type as it is. */
export function eventWords(type: string): string {
  return (EVENT_WORDS as Readonly<Record<string, string>>)[type] ?? type;
}
