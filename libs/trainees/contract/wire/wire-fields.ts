/**
 * A record table's row as a wire field of one API version (docs/DESIGN.md "The record tables"): the only place an input kind
 * becomes checks, a typed value and a request schema.
 *
 * Where the facts leave room on the wire:
 * - free-text fields take strings and numbers (as their decimal text, which meets the field's
 *   length too), and booleans, arrays and objects give `<field> is invalid`;
 * - coded fields take only strings (a number gets the unknown-code message), except itt_aim, which
 *   also takes a JSON number and stores it as a string (docs/DESIGN.md ruling 12);
 * - a field of digits (the application id) must be a non-negative integer of at most its number of
 *   digits (the reference silently stores null for anything else);
 * - `pg_apprenticeship_start_date` is refused only past 255 characters (docs/reference/API-FACTS.md
 *   §6.4 checks nothing; the bound: docs/DESIGN.md ruling 14): a real date is stored as
 *   `YYYY-MM-DD`, anything else as null, as a date column casts it.
 */
import { parseIsoDate } from '@app/calendar';
import {
  inputKindOf,
  TEXT_MAX_CHARS,
  type ApiVersion,
  type FieldInput,
  type FieldRow,
  type InputKind,
  type JsonSchema,
} from '@app/trainees/record';
import { codeBookFor } from '../code-books';
import {
  IsArray,
  IsCode,
  IsEmailAddress,
  IsIsoDate,
  ISO_DATE_OR_DATE_TIME_MAX_CHARS,
  IsString,
  IsText,
  LengthOneOf,
  MaxChars,
  MaxItems,
  Satisfies,
  UK_POSTCODE_PATTERN,
  echoOf,
  isValidUkPostcode,
  parseGraduationYear,
  textOf,
} from './constraints';
import { charLength, numberAsTextSchema } from './values';
import { courseYearField } from './course-year.field';
import type { FieldBase, WireField, WireObject } from './wire-object';

/** The reference does not check `ni_number` (docs/reference/API-FACTS.md §6.4); ours has a format (docs/DESIGN.md ruling 14). */
export const NI_NUMBER = /^[A-Za-z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-Da-d]$/;

/** Longest National Insurance number text the pattern admits. */
const NI_NUMBER_MAX_CHARS = 13;

const isNiNumber = (t: string | undefined): boolean => t !== undefined && t.length <= NI_NUMBER_MAX_CHARS && NI_NUMBER.test(t);

/** Exactly six digits (docs/reference/API-FACTS.md §10.1). */
const URN_FORMAT = /^[0-9]{6}$/;

/** How a table's fields are read on one wire object. */
export interface WireFieldOptions {
  /** Written before a field's name in messages (`placements_attributes `, §5.2), default none. */
  prefix?: string;
  /**
   * A field's message where the facts give one of their own instead of the kind's (degree subject:
   * an unknown code is "must be entered", §11.3; graduation year: its own invalid message, §11.4).
   */
  messages?: Readonly<Record<string, () => string>>;
  /** The wire objects of nested items (`items` kinds). */
  items?: Partial<Record<'degrees' | 'placements', { wire: WireObject<unknown>; schema: string; noun: string }>>;
}

/** A schema with null allowed beside its type (and its enum). */
function nullable(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === 'string')
    return { ...schema, type: [type, 'null'], ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}) };
  if (Array.isArray(schema.oneOf)) return { ...schema, oneOf: [...schema.oneOf, { type: 'null' }] };
  return schema;
}

/** The wire field of `row` in `version`, or null where the version has no such field. */
export function wireFieldOf(
  row: FieldRow<never> & { input: FieldInput },
  version: ApiVersion,
  options: WireFieldOptions = {},
): WireField | null {
  const wire = row.names?.[version] === undefined ? row.name : row.names[version];
  if (wire === null) return null;
  const input = row.input;
  const kind = inputKindOf(input, version);
  const base = { wire, canonical: row.name, required: input.required };
  const describe = (schema: JsonSchema): JsonSchema =>
    nullable({ ...schema, description: input.description, ...(input.example !== undefined ? { example: input.example } : {}) });
  const checked = { prefix: options.prefix ?? '' };
  const codes = codeBookFor(version);
  switch (kind.kind) {
    case 'text': {
      // A JSON number is taken as its decimal text (`asText`), as the reference's string attributes take it.
      const number = numberAsTextSchema(kind.max);
      const schema = describe({ type: 'string', maxLength: kind.max });
      return {
        ...base,
        checks: [IsText(checked), MaxChars(kind.max, checked)],
        convert: (v) => textOf(v),
        schema: {
          ...schema,
          ...number.bounds,
          type: ['string', 'number', 'null'],
          description: `${String(schema.description ?? '')} ${number.note}`.trim(),
        },
      };
    }
    case 'string':
    case 'later_code': {
      const invalid = (label: string, value: unknown) =>
        kind.kind === 'string' ? `${label} is invalid` : codes.unknownCodeMessage(label, echoOf(value), kind.list);
      const list = kind.kind === 'string' ? kind.documents : kind.list;
      return {
        ...base,
        checks: [IsString(invalid, checked), MaxChars(kind.max, checked)],
        convert: (v) => v,
        schema: {
          type: ['string', 'null'],
          ...(list ? { enum: [...codes.codesOf(list), null] } : {}),
          maxLength: kind.max,
          description: input.description,
          ...(input.example !== undefined ? { example: input.example } : {}),
        },
      };
    }
    case 'code':
      return codeField(base, kind, input, version, options);
    case 'ni_number':
    case 'email':
    case 'statsagency_id':
    case 'date':
    case 'lenient_date':
      return formatField(base, kind, describe, checked);
    case 'course_year':
      return courseYearField(base, input.description, kind.integer);
    case 'digits':
      return digitsField(base, input.description, kind.max);
    case 'graduation_year':
      return graduationYearField(base, input, options.messages?.[row.name]);
    case 'urn':
    case 'postcode':
      return formatField(base, kind, describe, checked);
    case 'items':
      return itemsField(base, input.description, kind.max, options.items?.[kind.of]);
  }
}

/** A date field's request schema: a date, or an empty string, which the check reads as no value, as null (it passes a blank value). */
const DATE_OR_EMPTY: JsonSchema = {
  oneOf: [
    { type: 'string', format: 'date', maxLength: ISO_DATE_OR_DATE_TIME_MAX_CHARS },
    { type: 'string', maxLength: 0, description: 'No value.' },
  ],
};

/** A field of a fixed format: a National Insurance number, an email address, a statistics agency id, a date, a URN, a postcode. */
function formatField(
  base: FieldBase,
  kind: Extract<InputKind, { kind: 'ni_number' | 'email' | 'statsagency_id' | 'date' | 'lenient_date' | 'urn' | 'postcode' }>,
  describe: (schema: JsonSchema) => JsonSchema,
  checked: { prefix: string },
): WireField {
  switch (kind.kind) {
    case 'ni_number':
      return {
        ...base,
        checks: [
          Satisfies(
            'niNumber',
            (v) => isNiNumber(textOf(v)),
            (label) => `${label} is invalid`,
            checked,
          ),
        ],
        convert: (v) => textOf(v),
        schema: describe({ type: 'string', maxLength: NI_NUMBER_MAX_CHARS, pattern: NI_NUMBER.source }),
      };
    case 'email':
      return {
        ...base,
        checks: [IsText(checked), MaxChars(255, checked), IsEmailAddress(checked)],
        convert: (v) => textOf(v),
        schema: describe({ type: 'string', format: 'email', maxLength: 255 }),
      };
    case 'statsagency_id':
      return {
        ...base,
        checks: [IsText(checked), LengthOneOf([13, 17], checked)],
        convert: (v) => textOf(v),
        schema: describe({ type: 'string', minLength: 13, maxLength: 17, pattern: '^(.{13}|.{17})$' }),
      };
    case 'date':
      return { ...base, checks: [IsIsoDate(checked)], convert: (v) => parseIsoDate(v), schema: describe(DATE_OR_EMPTY) };
    case 'lenient_date':
      return {
        ...base,
        checks: [MaxChars(TEXT_MAX_CHARS, checked)],
        convert: (v) => parseIsoDate(v),
        schema: describe({ type: 'string', format: 'date', maxLength: TEXT_MAX_CHARS }),
      };
    case 'urn':
      return {
        ...base,
        checks: [
          Satisfies(
            'urn',
            (v) => URN_FORMAT.test(textOf(v) ?? ''),
            (label) => `${label} is invalid`,
            checked,
          ),
        ],
        convert: (v) => textOf(v),
        schema: describe({ type: 'string', pattern: URN_FORMAT.source, maxLength: 6 }),
      };
    case 'postcode':
      return {
        ...base,
        checks: [
          Satisfies(
            'postcode',
            // White space inside is free in the pattern; the length bounds it (docs/DESIGN.md ruling 14).
            (v) => {
              const t = textOf(v) ?? '';
              return charLength(t) <= TEXT_MAX_CHARS && isValidUkPostcode(t);
            },
            (label) => `${label} Enter a valid postcode (for example, BN1 1AA)`,
            checked,
          ),
        ],
        convert: (v) => textOf(v)!.trim(),
        schema: describe({ type: 'string', pattern: UK_POSTCODE_PATTERN, maxLength: TEXT_MAX_CHARS }),
      };
  }
}

/**
 * A code of the version's code book (training_route: the routes the version accepts on a write;
 * §6.9). A JSON number is read as its text where `numberAsText` (docs/DESIGN.md ruling 12), and
 * the schema then takes an integer too.
 */
function codeField(
  base: FieldBase,
  kind: Extract<InputKind, { kind: 'code' }>,
  input: FieldInput,
  version: ApiVersion,
  options: WireFieldOptions,
): WireField {
  const codes = codeBookFor(version);
  const list = base.canonical === 'training_route' ? codes.acceptedRoutes : codes.codesOf(kind.list);
  const unknown = options.messages?.[base.canonical];
  const checks = [
    IsCode(codes, kind.list, { prefix: options.prefix ?? '', numberAsText: kind.numberAsText, message: unknown && (() => unknown()) }),
  ];
  const convert = (v: unknown) => (typeof v === 'number' ? String(v) : v);
  if (kind.numberAsText) {
    const numbers = list.map(Number);
    const integers = { type: 'integer', enum: numbers, minimum: Math.min(...numbers), maximum: Math.max(...numbers) };
    const schema = { anyOf: [{ type: 'string', enum: [...list] }, integers, { type: 'null' }] };
    return { ...base, checks, convert, schema: { ...schema, description: input.description } };
  }
  return {
    ...base,
    checks,
    convert,
    schema: nullable({
      type: 'string',
      enum: [...list],
      description: input.description,
      ...(input.example !== undefined ? { example: input.example } : {}),
    }),
  };
}

/** A field of digits: up to `max` of them, as a number or a string (docs/reference/API-FACTS.md §6.4 gives the application id's length). */
function digitsField(base: FieldBase, description: string, max: number): WireField {
  return {
    ...base,
    checks: [
      Satisfies(
        'digits',
        (v) => {
          const t = textOf(v);
          return t !== undefined && charLength(t) <= max && /^\d+$/.test(t.trim());
        },
        (label, v) => {
          const t = textOf(v);
          return t !== undefined && charLength(t) > max ? `${label} is too long (maximum is ${max} characters)` : `${label} is invalid`;
        },
      ),
    ],
    convert: (v) => Number(textOf(v)!.trim()),
    schema: {
      description: description,
      oneOf: [
        { type: 'integer', minimum: 0, maximum: 10 ** max - 1 },
        { type: 'string', pattern: `^\\s*\\d{1,${max}}\\s*$`, maxLength: max },
        { type: 'null' },
      ],
    },
  };
}

/** `graduation_year`: a year (string or integer) or a full date whose year is kept (docs/reference/API-FACTS.md §11.4). */
function graduationYearField(base: FieldBase, input: FieldInput, invalid: (() => string) | undefined): WireField {
  return {
    ...base,
    checks: [
      Satisfies(
        'graduationYear',
        (v) => parseGraduationYear(v) !== 'invalid',
        (label) => invalid?.() ?? `${label} is invalid`,
      ),
    ],
    convert: (v) => parseGraduationYear(v),
    schema: {
      description: input.description,
      oneOf: [
        { type: 'integer', minimum: 0, maximum: 999999999 },
        { type: 'string', pattern: '^(\\d{1,9}|\\d{4}-\\d{2}-\\d{2})$', maxLength: 10 },
        { type: 'null' },
      ],
      example: input.example,
    },
  };
}

/**
 * Nested `degrees_attributes` / `placements_attributes` (create only): an array of at most `max`
 * items, each checked by the items' own wire object (docs/DESIGN.md ruling 14).
 */
function itemsField(
  base: FieldBase,
  description: string,
  max: number,
  items: { wire: WireObject<unknown>; schema: string; noun: string } | undefined,
): WireField {
  if (!items) throw new Error(`no wire object for the items of ${base.canonical}`);
  return {
    ...base,
    checks: [IsArray(), MaxItems(max, items.noun)],
    convert: (v) => v,
    items: items.wire,
    schema: { type: ['array', 'null'], description, maxItems: max, items: { $ref: `#/components/schemas/${items.schema}` } },
  };
}
