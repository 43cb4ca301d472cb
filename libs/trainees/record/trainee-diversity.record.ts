/**
 * The trainee table's rows of sex, ethnicity, disabilities and nationality (docs/reference/API-FACTS.md §6.5–§6.7), after
 * `training_route`: special-category personal data under UK GDPR (docs/DESIGN.md "Personal data").
 */
import { REFERENCE_LISTS } from './codes/catalogue';
import { code, codesOf, nenum, nstr, str, type FieldRow, type PersonWords, says } from './field-table';

/** The `disabilityN` keys a create sends beside the rows (docs/reference/API-FACTS.md §6.7), in a person's words; N follows the label. */
export const DISABILITY_WORDS: PersonWords = {
  label: 'Disability',
  example: '58',
  codes: 'disability',
  hint: 'One code a column, from the first column on; leave the others blank.',
};

/** The rows, in answer order; `disability` reads the stored record, whose type derives from the trainee table. */
export const diversityRows = <R>(disability: (record: R, key: 'disability1' | 'disability2') => string | null) =>
  [
    {
      name: 'sex',
      personal: true,
      input: { person: says('Sex', '11'), kind: code('sex'), required: true, messageRank: 4, description: 'Sex (code).' },
      answer: { schema: { type: 'string', enum: codesOf('sex') } },
    },
    {
      name: 'diversity_disclosure',
      personal: true,
      answer: { schema: { type: 'string', enum: ['diversity_disclosed', 'diversity_not_disclosed'] } },
    },
    { name: 'ethnic_group', personal: true, answer: { schema: { type: 'string', enum: codesOf('ethnic_group') } } },
    { name: 'ethnic_background', personal: true, answer: { schema: str('Derived from ethnicity.') } },
    { name: 'additional_ethnic_background', personal: true, answer: { schema: nstr() } },
    {
      name: 'ethnicity',
      personal: true,
      input: {
        person: says('Ethnicity', '142'),
        kind: code('ethnicity'),
        messageRank: 26,
        description: 'Ethnicity (code); ethnic group and background are derived from it.',
      },
      answer: {
        schema: {
          type: 'string',
          enum: [...new Set(REFERENCE_LISTS.ethnicity.map((e) => e.output_code))],
          description: '997 when not provided.',
        },
      },
    },
    {
      name: 'disability_disclosure',
      personal: true,
      answer: { schema: { type: 'string', enum: ['disabled', 'no_disability', 'disability_not_provided'] } },
    },
    {
      name: 'disability1',
      personal: true,
      answer: { value: (t: R) => disability(t, 'disability1'), schema: nstr('As sent (codes are not checked).') },
    },
    {
      name: 'disability2',
      personal: true,
      answer: { value: (t: R) => disability(t, 'disability2'), schema: nstr('As sent (codes are not checked).') },
    },
    {
      name: 'nationality',
      personal: true,
      input: {
        person: says('Nationality', 'GB'),
        kind: code('nationality'),
        messageRank: 25,
        description: 'Nationality (ISO 3166 country code).',
      },
      answer: {
        schema: nenum([...new Set(REFERENCE_LISTS.nationality.map((e) => e.output_code))], 'British territories are answered as GB.'),
      },
    },
  ] as const satisfies readonly FieldRow<R>[];
