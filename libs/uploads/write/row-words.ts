/**
 * A row's error in a person's words, for the uploads page and its errors file: what is wrong and how to fix it, with the column's
 * label, the format wanted and an example, a code's meaning beside the code (GOV.UK Design System "Error message"). Made from what the
 * error is about (`RowError.about`) and the column's facts (column-facts.ts); the API's message is the fallback, never changed.
 */
import { catalogueEntry, type ApiVersion, type RefListName } from '@app/trainees/record';
import type { RowMessage, UploadKind } from '@app/uploads/decider';
import { columnFactsOf, uploadColumnFactsOf, type ColumnCode, type ColumnFacts } from './column-facts';
import { codeWithoutZeros, dayFirstDate } from './spreadsheet-values';

/** Codes listed in full in a message; a longer list is pointed to in the column guide. */
const CODES_LISTED = 6;

/** A label inside a sentence: "date of birth", but "ITT start date", "iQTS country", "UK degree type". */
function inSentence(label: string): string {
  return /^[A-Z][a-z]/.test(label) ? `${label[0].toLowerCase()}${label.slice(1)}` : label;
}

/** A format's words inside a sentence: "a year in the format YYYY", but "UK postcode". */
function formatInSentence(format: string): string {
  return /^[A-Z](?:[a-z]| )/.test(format) ? `${format[0].toLowerCase()}${format.slice(1)}` : format;
}

/** `11 (Male)`. */
function withMeaning(code: ColumnCode): string {
  return code.meaning ? `${code.code} (${code.meaning})` : code.code;
}

/** `code (meaning)` of `code` in `list`, or the code alone; `''` as "blank". */
function codeOf(list: RefListName, code: string | undefined): string {
  if (!code) return 'blank';
  const meaning = catalogueEntry(list, code)?.label;
  return meaning ? `${code} (${meaning})` : code;
}

/** "a, b or c". */
function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** A value that is not a code of the column: a name typed for its code, a code a spreadsheet shortened, or another value. */
function notACode(facts: ColumnFacts, value: string): string {
  const label = inSentence(facts.label);
  const byName = facts.codes.find((c) => c.meaning.toLowerCase() === value.trim().toLowerCase());
  if (byName) return `Enter ${label} as a code, not its name: ${byName.code} for ${byName.meaning}`;
  const shortened = codeWithoutZeros(value, facts.codes);
  if (shortened) {
    return (
      `${facts.label} ${value} is not a code: a spreadsheet may have removed its leading zeros. ` +
      `Enter ${withMeaning(shortened)} and format the column as text so the zeros stay`
    );
  }
  if (facts.codes.length <= CODES_LISTED) return `Enter ${label} as one of the codes ${orList(facts.codes.map(withMeaning))}`;
  const example = facts.codes.find((c) => c.code === facts.sample) ?? facts.codes[0];
  return `Enter ${label} as a code from the column guide, for example ${withMeaning(example)}: ${value} is not one`;
}

/** A date not in the format wanted; one a spreadsheet wrote day first is named as such. */
function notADate(facts: ColumnFacts, value: string): string {
  const wanted = `Enter ${inSentence(facts.label)} in the format YYYY-MM-DD, for example ${facts.sample}`;
  const dayFirst = dayFirstDate(value);
  return dayFirst ? `${wanted}: a spreadsheet may have changed ${dayFirst} to ${value}` : wanted;
}

/** The funding rules' sentences, the codes as typed with their meanings. */
function fundingWords(kind: string, p: Readonly<Record<string, string>>): string | null {
  const year = `academic year ${p.academic_cycle}`;
  const subject = `course subject 1 ${codeOf('course_subject', p.course_subject_1)}`;
  switch (kind) {
    case 'funding_method_needs_fund_code':
      return (
        `Funding method ${codeOf('funding_method', p.funding_method)} needs fund code ${codeOf('fund_code', '7')} ` +
        `for ${subject}: fund code is ${codeOf('fund_code', p.fund_code)}. Check the funding method and the fund code`
      );
    case 'funding_method_not_available':
      return (
        `Funding method ${codeOf('funding_method', p.funding_method)} is not available for training route ` +
        `${codeOf('training_route', p.training_route)} and ${subject} in ${year}. Check the funding method, training route and course subject 1`
      );
    case 'fund_code_not_valid':
      return (
        `Fund code ${codeOf('fund_code', p.fund_code)} is not available for training route ${codeOf('training_route', p.training_route)} ` +
        `in ${year}, or without a course age range. Check the fund code, training route and course age range`
      );
    default:
      return null;
  }
}

/** The label of the column `name` in `version`, else the name. */
function columnLabel(version: ApiVersion, name: string | undefined): string {
  return (name && columnFactsOf(version, name)?.label) || (name ?? '');
}

/** The sentence of a problem `about` a column of known `facts` in `version`; null where the kind has none. */
function sentence(facts: ColumnFacts, about: NonNullable<RowMessage['about']>, version: ApiVersion): string | null {
  const label = inSentence(facts.label);
  const value = about.value ?? '';
  const p = about.params ?? {};
  if (about.kind.startsWith('isCode:') || about.kind === 'unknown_code' || about.kind === 'leading_zeros_dropped') {
    return notACode(facts, value);
  }
  switch (about.kind) {
    case 'blank':
    case 'required':
      return facts.list ? `Enter ${label}: a code from the column guide, for example ${facts.sample}` : `Enter ${label}`;
    case 'blank_when':
      return `Enter ${label}: it is needed when ${inSentence(columnLabel(version, p.field))} is ${p.code}`;
    case 'isIsoDate':
      return notADate(facts, value);
    case 'isEmailAddress':
      return `Enter ${label} in the correct format, like name@example.com`;
    case 'maxChars':
      return `${facts.label} must be ${facts.max ?? ''} characters or fewer`;
    case 'lengthOneOf':
      return /^\d+$/.test(value) && value.length < 13
        ? `${facts.label} ${value} is too short: a spreadsheet may have removed its leading zeros. ` +
            'Enter all 13 or 17 characters and format the column as text so the zeros stay'
        : `${facts.label} must be 13 or 17 characters`;
    case 'isString':
      return facts.list ? notACode(facts, value) : `Enter ${label} as text`;
    case 'graduationYear': {
      const dayFirst = dayFirstDate(value);
      if (dayFirst)
        return `Enter ${label} in the format YYYY, like ${facts.sample}: a spreadsheet may have changed ${dayFirst} to ${value}`;
      return `Enter ${label} in the correct format: ${formatInSentence(facts.format)}, like ${facts.sample}`;
    }
    case 'isText':
    case 'niNumber':
    case 'urn':
    case 'postcode':
    case 'digits':
      return `Enter ${label} in the correct format: ${formatInSentence(facts.format)}, like ${facts.sample}`;
    case 'year_range':
      return `${facts.label} must be a year from ${p.min} to ${p.max}, like ${facts.sample}`;
    case 'date_of_birth_range':
      return `${facts.label} must be between ${p.earliest} and ${p.latest}: a trainee is 16 to 100 years old`;
    case 'date_not_after':
      return `${facts.label} must be after ${inSentence(columnLabel(version, p.after))}`;
    case 'not_a_trainee':
      return `${facts.label} ${value} is not one of your trainees: copy it from your recommendations template`;
    case 'does_not_match':
      return `${facts.label} does not match the trainee’s record: copy it from your recommendations template, or leave it blank`;
    case 'date_in_future':
      return `${facts.label} must be today or in the past`;
    case 'date_before_itt_start':
      return `${facts.label} must not be before the trainee’s ITT start date, ${p.itt_start_date}`;
    default:
      return null;
  }
}

/** Words for a trainee's state, after "they are". */
const STATE_WORDS: Readonly<Record<string, string>> = {
  draft: 'a draft record',
  recommended_for_award: 'already recommended for QTS or EYTS',
  awarded: 'already awarded QTS or EYTS',
  withdrawn: 'withdrawn',
  deferred: 'deferred',
};

/** The API's message with its leading field name written as the column's label: the words of a problem without a sentence of its own. */
function labelled(facts: ColumnFacts | undefined, message: string): string {
  if (!facts) return message;
  const rest = message.replace(/^\w+\s+/, '');
  return rest === message ? `${facts.label}: ${message}` : `${facts.label} ${rest}`;
}

/** The sentence of a problem about the trainee the row names, whatever its column; null where the kind has none. */
function rowSentence(about: NonNullable<RowMessage['about']>): string | null {
  switch (about.kind) {
    case 'already_registered':
      return 'This trainee is already registered: remove their row from your file';
    case 'duplicate_row':
      return `This trainee is also in row ${about.params?.row ?? ''} of your file: keep one of the two rows`;
    case 'degree_missing':
      return 'This trainee’s training route needs a degree: add their degree before you recommend them';
    case 'too_few_placements': {
      const { minimum, count } = about.params ?? {};
      return `This trainee’s training route needs at least ${minimum} placements and their record has ${count}: add their placements before you recommend them`;
    }
    case 'not_recommendable':
      return `This trainee cannot be recommended: they are ${STATE_WORDS[about.params?.state ?? ''] ?? 'not waiting for a recommendation'}`;
    default:
      return null;
  }
}

/**
 * `error` of a row of an upload of `kind` in `version`, in a person's words: one sentence or two, no field name of the API. Without
 * what it is about (an older upload's), the API's message with its column's label for the field's name.
 */
export function personMessage(error: RowMessage, version: ApiVersion, kind: UploadKind = 'add_trainees'): string {
  const facts = error.column === null ? undefined : uploadColumnFactsOf(kind, version, error.column);
  const about = error.about;
  if (about) {
    const whole = rowSentence(about);
    if (whole) return whole;
    const funding = fundingWords(about.kind, about.params ?? {});
    if (funding) return funding;
    if (about.kind === 'initiative_not_available' && about.params) {
      const initiative = columnFactsOf(version, about.params.field);
      return `${initiative?.label ?? about.params.field} ${codeOf('training_initiative', about.value)} is not available in academic year ${about.params.academic_cycle}`;
    }
    const words = facts ? sentence(facts, about, version) : null;
    if (words) return words;
  }
  return labelled(facts, error.message);
}
