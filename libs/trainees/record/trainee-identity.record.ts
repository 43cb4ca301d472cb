/**
 * Two runs of the trainee table's rows, each spread in its place: the person's names, date of birth and email (docs/reference/API-FACTS.md
 * §6.4, §6.5), after `trainee_id`, personal data sealed in the events (docs/DESIGN.md "Personal data"); and the course subjects (§6.3).
 */
import { code, codesOf, date, dateAnswer, nenum, nstr, says, str, text, type FieldRow } from './field-table';
import { TEXT_MAX_CHARS } from './limits';

/** The person's rows, in answer order. */
export const IDENTITY_ROWS = [
  {
    name: 'provider_trainee_id',
    personal: true,
    input: {
      person: says('Provider trainee ID', '99157234/2/01', { hint: 'Your own reference for the trainee.' }),
      kind: text(50),
      messageRank: 32,
      description: "The provider's own identifier of the trainee, at most 50 characters.",
    },
    answer: { schema: nstr("The provider's own id.") },
  },
  {
    name: 'first_names',
    personal: true,
    input: {
      person: says('First names', 'John'),
      kind: text(60),
      required: true,
      messageRank: 1,
      description: 'First names, at most 60 characters.',
    },
    answer: { schema: str(undefined, { maxLength: 60 }) },
  },
  {
    name: 'middle_names',
    personal: true,
    input: {
      person: says('Middle names', 'Ryan'),
      kind: text(60),
      messageRank: 22,
      description: 'Middle names, at most 60 characters.',
    },
    answer: { schema: nstr(undefined, { maxLength: 60 }) },
  },
  {
    name: 'last_name',
    personal: true,
    input: {
      person: says('Last name', 'Doe'),
      kind: text(60),
      required: true,
      messageRank: 2,
      description: 'Last name, at most 60 characters.',
    },
    answer: { schema: str(undefined, { maxLength: 60 }) },
  },
  {
    name: 'previous_last_name',
    personal: true,
    input: {
      person: says('Previous last name', 'Smith'),
      kind: text(TEXT_MAX_CHARS),
      messageRank: 23,
      description: `A previous last name, at most ${TEXT_MAX_CHARS} characters.`,
    },
    answer: { schema: nstr() },
  },
  {
    name: 'date_of_birth',
    personal: true,
    input: {
      person: says('Date of birth', '1998-04-27'),
      kind: date,
      required: true,
      messageRank: 3,
      description: 'Date of birth: at most 100 and at least 16 years ago.',
    },
    answer: { schema: dateAnswer() },
  },
  {
    name: 'email',
    personal: true,
    input: {
      person: says('Email address', 'john.doe@example.com'),
      kind: { kind: 'email' },
      required: true,
      messageRank: 9,
      description: 'Email address, at most 255 characters.',
    },
    answer: { schema: str() },
  },
] as const satisfies readonly FieldRow<never>[];

/** The course subjects' rows, in answer order (v2025.0 names them `one`, `two`, `three`). */
export const COURSE_SUBJECT_ROWS = [
  {
    name: 'course_subject_1',
    names: { 'v2025.0': 'course_subject_one' },
    input: {
      person: says('Course subject 1', '100346'),
      kind: code('course_subject'),
      required: true,
      messageRank: 10,
      description: 'First course subject (HECOS code).',
    },
    answer: { schema: nenum(codesOf('course_subject')) },
  },
  {
    name: 'course_subject_2',
    names: { 'v2025.0': 'course_subject_two' },
    input: {
      person: says('Course subject 2', null),
      kind: code('course_subject'),
      messageRank: 11,
      description: 'Second course subject (HECOS code).',
    },
    answer: { schema: nenum(codesOf('course_subject')) },
  },
  {
    name: 'course_subject_3',
    names: { 'v2025.0': 'course_subject_three' },
    input: {
      person: says('Course subject 3', null),
      kind: code('course_subject'),
      messageRank: 12,
      description: 'Third course subject (HECOS code).',
    },
    answer: { schema: nenum(codesOf('course_subject')) },
  },
] as const satisfies readonly FieldRow<never>[];
