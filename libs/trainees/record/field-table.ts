/**
 * The vocabulary of the record tables (docs/DESIGN.md "The record tables"): one row per field, holding all the field is; everything
 * else (wire checks, schemas, serializers, typed fields, the stored record, message order, version names) is derived from the rows.
 */
import { type RefListName, REFERENCE_LISTS } from './codes/catalogue';
import { TEXT_MAX_CHARS } from './limits';
import type { ApiVersion } from './versions';

/** A JSON Schema (OpenAPI 3.1) object. */
export type JsonSchema = Record<string, unknown>;

export type ByVersion<T> = Readonly<Record<ApiVersion, T>>;

/**
 * What a write body may send for a field (docs/reference/API-FACTS.md §6.4, §6.9, §10.1, §11.1; bounds: docs/DESIGN.md ruling 14).
 * Every check lets a blank value through: presence is the record rules' to say.
 */
export type InputKind =
  /** Free text: a string, or a JSON number as its decimal text; at most `max` characters. */
  | { readonly kind: 'text'; readonly max: number }
  /** A JSON string only (else `<field> is invalid`); `documents`: the code list it names, not checked here. */
  | { readonly kind: 'string'; readonly max: number; readonly documents?: RefListName }
  /** A code of `list` in the version's code book, as a JSON string (`numberAsText`: a JSON number too, as its text). */
  | { readonly kind: 'code'; readonly list: RefListName; readonly numberAsText?: boolean }
  /** A JSON string whose code the record rules look up in `list`; anything else answers the unknown-code message. */
  | { readonly kind: 'later_code'; readonly list: RefListName; readonly max: number }
  | { readonly kind: 'ni_number' }
  /** An email address of the reference's format, at most 255 characters. */
  | { readonly kind: 'email' }
  /** A statistics agency identifier: 13 or 17 characters. */
  | { readonly kind: 'statsagency_id' }
  /** An ISO 8601 date, stored as `YYYY-MM-DD`. */
  | { readonly kind: 'date' }
  /** A date never refused: a real date is stored as `YYYY-MM-DD`, anything else as null. */
  | { readonly kind: 'lenient_date' }
  /** The year of the course: an integer (or digits) where `integer`, else any number or string. */
  | { readonly kind: 'course_year'; readonly integer: boolean }
  /** A non-negative integer of at most `max` digits, as a number or a string. */
  | { readonly kind: 'digits'; readonly max: number }
  /** A graduation year: a year as an integer or digits, or a full date whose year is kept. */
  | { readonly kind: 'graduation_year' }
  | { readonly kind: 'urn' }
  | { readonly kind: 'postcode' }
  /** Nested records sent with a create: an array of at most `max` items of the `of` table's inputs. */
  | { readonly kind: 'items'; readonly of: 'degrees' | 'placements'; readonly max: number };

/**
 * How a field reads to a person filling in a file: the one home of its label and example (the uploads page's column guide, template
 * and error messages are made from these, the kind, `required` and the code lists). API documentation stays in `description`.
 */
export interface PersonWords {
  /** Its name in a sentence's first place, as a GOV.UK label: "Date of birth", "Degree grade". */
  readonly label: string;
  /** A value as typed into a file that passes with the other rows' examples; null where the example trainee leaves it blank. */
  readonly example: string | null;
  /** When it is needed, where that depends on other fields ("Required if ITT aim is 202"); else `required` says. */
  readonly needed?: string;
  /** The code list a person picks from, where the kind does not name one (a text field the rules read as a code). */
  readonly codes?: RefListName;
  /** What else a person needs to know to fill it in, a sentence. */
  readonly hint?: string;
}

/** {@link PersonWords} of a label, an example and what else is said. */
export const says = (label: string, example: string | null, more: Omit<PersonWords, 'label' | 'example'> = {}): PersonWords => ({
  label,
  example,
  ...more,
});

/** What a write body may send for a field: its kind (per version where they differ), and its documentation. */
export interface FieldInput {
  readonly kind: InputKind | ByVersion<InputKind>;
  readonly person: PersonWords;
  /** Required on create: stated in the request schema (the record rules report a missing one). */
  readonly required?: boolean;
  /** Where its messages stand in a 422 (docs/reference/API-FACTS.md §6.3); unranked fields come after, in table order. */
  readonly messageRank?: number;
  readonly description: string;
  readonly example?: unknown;
}

/** What an answer holds for a field; without `value`, the stored value of the same name (a trainee's in `details`). */
export interface FieldAnswer<R> {
  readonly value?: (record: R) => unknown;
  readonly schema: JsonSchema;
  /** Only these versions answer the field. */
  readonly only?: readonly ApiVersion[];
  /** Answered under its canonical name in every version, whatever the version calls the field elsewhere. */
  readonly asIs?: boolean;
}

/**
 * The lifecycle actions (docs/reference/API-FACTS.md §12.3–§12.5) and where each records its body: on the trainee and its event's
 * data directly (`under` null), or under one member of both.
 */
export const LIFECYCLE_BODIES = {
  deferral: { under: null },
  withdrawal: { under: 'withdrawal' },
  recommendation: { under: null },
} as const;
export type LifecycleBody = keyof typeof LIFECYCLE_BODIES;

/** What a lifecycle body may send for a field: every rule of these bodies needing neither the trainee nor today. */
export type LifecycleKind =
  /** An ISO 8601 date (§6.5), stored as `YYYY-MM-DD`. */
  | { readonly kind: 'date' }
  /** An ISO 8601 date or date-time (§12.4); a date-time with a zone counts on its UTC date. */
  | { readonly kind: 'date_or_date_time' }
  /** Free text: a string, or a JSON number as its text (anything else is `invalid`); at most `max` characters, stored as sent. */
  | { readonly kind: 'text'; readonly max: number }
  /** Free text a reason sent needs (`neededBy`), then required; blank or not text counts as none; stored only where needed. */
  | { readonly kind: 'reason_text'; readonly max: number; readonly neededBy: (reason: string) => boolean }
  /** A code of `list` (`REFERENCE_LISTS`) as a JSON string; anything else, no value included, is `invalid`. */
  | { readonly kind: 'listed'; readonly list: RefListName }
  /** A JSON array (else none) of at least one code allowed for the row `trigger`'s value; stored in order, without repeats. */
  | { readonly kind: 'reasons'; readonly max: number; readonly noun: string; readonly trigger: string };

/** What a lifecycle action's body may send for a field, and where the action records it. */
export interface LifecycleInput {
  readonly body: LifecycleBody;
  /** The key the body sends it under in every version, where that is not the row's name (in the version's `names`). */
  readonly key?: string;
  /** Its key in the action's record (the event's data and the trainee), where that is not the body's key. */
  readonly stored?: string;
  readonly kind: LifecycleKind;
  /** Its label for a person reading the record (the uploads page's trainee page), as {@link PersonWords.label}. */
  readonly label: string;
  readonly required?: true;
  /** Where it stands in its body: its messages in a 422, its key in the request schema. */
  readonly rank: number;
  /** Where it stands among the keys of the action's record, where that is not `rank`'s place: the order every event has held. */
  readonly storedRank?: number;
  /** What a message says after the field's label when a required field is missing or blank; `can't be blank` unless said. */
  readonly blank?: string;
  /** What a message says after the field's label when the value is not of its kind; `is invalid` unless said. */
  readonly invalid?: string;
  readonly description: string;
  readonly example: unknown;
}

/** What the lifecycle action `body` recorded on `trainee` under `key` of its record; null before the action. */
export function recordedValue(trainee: object, body: LifecycleBody, key: string): unknown {
  const under = LIFECYCLE_BODIES[body].under;
  const record = (under === null ? trainee : (trainee as Record<string, unknown>)[under]) as Record<string, unknown> | null | undefined;
  return record?.[key] ?? null;
}

export interface FieldRow<R> {
  /** The canonical name: the v2026.1 name (the version-dependent fields of docs/spec/trainee-records-api.md "Trainee object"). */
  readonly name: string;
  /** The field's name in the versions that call it otherwise; null where the version has no such field. */
  readonly names?: Partial<ByVersion<string | null>>;
  readonly input?: FieldInput;
  /** What a lifecycle action's body sends for it (a trainee's row only); its answer is then what the action recorded. */
  readonly lifecycle?: LifecycleInput;
  readonly answer?: FieldAnswer<R>;
  /** Personal data: sealed in the events with the trainee's own data key (docs/DESIGN.md "Personal data"). */
  readonly personal?: true;
}

/** The kind of `input` in `version`. */
export function inputKindOf(input: FieldInput, version: ApiVersion): InputKind {
  return 'kind' in input.kind && typeof input.kind.kind === 'string'
    ? (input.kind as InputKind)
    : (input.kind as ByVersion<InputKind>)[version];
}

/** The row of `name` in `table` that a write body may send (throws for a name the table has no input of: a programming error). */
export function inputRow<R>(table: readonly FieldRow<R>[], name: string): FieldRow<R> & { input: FieldInput } {
  const row = table.find((r) => r.name === name && r.input);
  if (!row?.input) throw new Error(`no input field ${name}`);
  return row as FieldRow<R> & { input: FieldInput };
}

/** The input rows' names in message order ({@link FieldInput.messageRank}), with `beside` (names sent beside the table, ranked). */
export function messageOrderOf<R>(table: readonly FieldRow<R>[], beside: Readonly<Record<string, number>> = {}): string[] {
  const ranked = [
    ...table.flatMap((row) => (row.input ? [{ name: row.name, rank: row.input.messageRank ?? Number.MAX_SAFE_INTEGER }] : [])),
    ...Object.entries(beside).map(([name, rank]) => ({ name, rank })),
  ];
  // Array.prototype.sort is stable: rows of one rank (the unranked ones) keep their table order.
  return ranked.sort((a, b) => a.rank - b.rank).map((r) => r.name);
}

/** The stored record's names ({@link StoredFieldsOf}), in table order. */
export function storedNamesOf<R>(table: readonly FieldRow<R>[]): string[] {
  return [...new Set(table.filter((row) => row.answer && !row.answer.value && !row.lifecycle).map((row) => row.name))];
}

// Building the tables: input kinds, then answer schemas (`n…`: or null).

export const text = (max: number) => ({ kind: 'text', max }) as const;
export const code = <L extends RefListName>(list: L) => ({ kind: 'code', list }) as const;
export const laterCode = <L extends RefListName>(list: L) => ({ kind: 'later_code', list, max: TEXT_MAX_CHARS }) as const;
export const date = { kind: 'date' } as const;

/** The codes of a list of the catalogue. */
export const codesOf = (list: RefListName): string[] => (REFERENCE_LISTS[list] as readonly { code: string }[]).map((e) => e.code);

type JsonTypes = string | readonly string[];
/** A JSON Schema whose `type` TypeScript knows: the value it describes is {@link ValueOfSchema}. */
export type TypedSchema<T extends JsonTypes> = JsonSchema & { readonly type: T };

export const str = (description?: string, extra: JsonSchema = {}) =>
  ({ type: 'string', ...(description ? { description } : {}), ...extra }) as TypedSchema<'string'>;
export const nstr = (description?: string, extra: JsonSchema = {}) =>
  ({ type: ['string', 'null'], ...(description ? { description } : {}), ...extra }) as TypedSchema<readonly ['string', 'null']>;
export const nenum = (values: readonly string[], description?: string) =>
  ({ type: ['string', 'null'], enum: [...values, null], ...(description ? { description } : {}) }) as TypedSchema<
    readonly ['string', 'null']
  >;
export const dateAnswer = (description?: string) => str(description, { format: 'date' });
export const ndate = (description?: string) => nstr(description, { format: 'date' });
export const instant = (description?: string) => str(description, { format: 'date-time' });
export const ninstant = (description?: string) => nstr(description, { format: 'date-time' });
export const bool = (description?: string) => ({ type: 'boolean', ...(description ? { description } : {}) }) as TypedSchema<'boolean'>;

// The typed fields a write hands the decider, derived from a table.

/** The kinds a field input may take, in any version. */
type KindsOf<I> = I extends { kind: infer K } ? (K extends { kind: string } ? K : K[keyof K]) : never;

/** Text and codes as sent, dates `YYYY-MM-DD`, `''` blank, null for JSON null; `undefined`: not sent, or refused by a wire check. */
type ValueOf<K, Nested> = K extends { kind: 'course_year' }
  ? number | string
  : K extends { kind: 'digits' | 'graduation_year' }
    ? number | ''
    : K extends { kind: 'items'; of: infer Of }
      ? Of extends keyof Nested
        ? readonly Nested[Of][] | ''
        : never
      : string;

/** The typed fields of the write bodies of a table: one optional member per row with an input. `Nested`: the items' own fields. */
export type FieldsOf<Table extends readonly FieldRow<never>[], Nested = Record<never, never>> = {
  -readonly [Row in Table[number] as Row extends { input: FieldInput } ? Row['name'] : never]?: ValueOf<
    KindsOf<Row['input']>,
    Nested
  > | null;
};

/** The names of a table's answered rows that take their value from the stored record (no `value` of their own, no lifecycle action's). */
export type StoredAnswers<Table extends readonly FieldRow<never>[]> = Table[number] extends infer Row
  ? Row extends { answer: { value: unknown } } | { lifecycle: object }
    ? never
    : Row extends { name: infer N; answer: object }
      ? N
      : never
  : never;

type ValueOfType<T> = T extends 'string'
  ? string
  : T extends 'integer' | 'number'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : unknown;

/** The TypeScript type of the values a {@link TypedSchema} (or a literal schema with a literal `type`) describes. */
export type ValueOfSchema<S> = S extends { type: infer T } ? (T extends readonly (infer E)[] ? ValueOfType<E> : ValueOfType<T>) : unknown;

/** The stored record of a table: a member per answered row without a value of its own (nor a lifecycle field), typed by its schema. */
export type StoredFieldsOf<Table extends readonly FieldRow<never>[]> = {
  -readonly [
    Row in Table[number] as Row extends { answer: { value: unknown } } | { lifecycle: object }
      ? never
      : Row extends { answer: object }
        ? Row['name']
        : never
  ]: Row extends {
    answer: { schema: infer S };
  }
    ? ValueOfSchema<S>
    : never;
};

/** A compile-time check: `Expect<X>` compiles only where X is `true`. */
export type Expect<T extends true> = T;
