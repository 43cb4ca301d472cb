/**
 * The placement record's table (docs/DESIGN.md "The record tables"), in answer order (docs/spec/trainee-records-api.md "Placement
 * object"; docs/reference/API-FACTS.md §10.1, §10.4; docs/DESIGN.md ruling 13), the same in every version.
 */
import { instant, nstr, str, type FieldRow, type FieldsOf, type Expect, type StoredAnswers, says } from './field-table';
import type { Placement } from './trainee.details';

/** Longer than any school's name, small beside the body limit; the reference sets none. */
export const PLACEMENT_NAME_MAX = 255;

export const PLACEMENT_RECORD = [
  { name: 'placement_id', answer: { schema: str('The placement id.', { example: 'Lm3Vr7cA9pQwXz2KbN4sTy8E' }) } },
  {
    name: 'urn',
    input: {
      person: says('Placement school URN', '900020'),
      kind: { kind: 'urn' },
      description: "The school's unique reference number, six digits. A URN of the schools directory links the placement to that school.",
      example: '900020',
    },
    answer: { schema: nstr('School URN, six digits.', { example: '100001' }) },
  },
  {
    name: 'name',
    input: {
      person: says('Placement school name', null),
      kind: { kind: 'text', max: PLACEMENT_NAME_MAX },
      description: 'Required unless the URN names a school of the directory.',
      example: 'Oak Primary School',
    },
    answer: { schema: nstr(undefined, { example: 'Oak Primary School' }) },
  },
  {
    name: 'postcode',
    input: {
      person: says('Placement school postcode', null),
      kind: { kind: 'postcode' },
      description: 'A full UK postcode.',
      example: 'GU1 1AA',
    },
    answer: { schema: nstr(undefined, { example: 'GU1 6FR' }) },
  },
  {
    name: 'address',
    answer: {
      schema: nstr(
        'Derived: `URN <urn>, <town>, <postcode>` for a school of the directory, else `URN <urn>, <postcode>` (parts left out when empty); null for the not-applicable URNs.',
        { example: 'URN 100001, Guildford, GU1 6FR' },
      ),
    },
  },
  { name: 'created_at', answer: { schema: instant() } },
  { name: 'updated_at', answer: { schema: instant() } },
] as const satisfies readonly FieldRow<Placement>[];

/** A placement body, or one `placements_attributes` item, as the decider receives it (typed as field-table.ts says). */
export type PlacementFields = FieldsOf<typeof PLACEMENT_RECORD>;

/** Every answered row without a value of its own names a field of the stored record (a compile-time check). */
export type _StoredAnswersExist = Expect<[StoredAnswers<typeof PLACEMENT_RECORD>] extends [keyof Placement] ? true : false>;
