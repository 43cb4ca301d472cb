/**
 * What the lifecycle rows give each action (docs/DESIGN.md "The record tables"): its body's typed fields (field-table.ts's convention;
 * null also for a text no reason needs), its record, where each field is kept and answered, and `Trainee` with those members.
 */
import { LIFECYCLE_BODIES, recordedValue, type FieldRow, type LifecycleBody, type LifecycleInput } from './field-table';
import { TRAINEE_RECORD, type TraineeCore } from './trainee.record';

type Row = (typeof TRAINEE_RECORD)[number];
type RowOf<B extends LifecycleBody> = Extract<Row, { lifecycle: { body: B } }>;
/** The key a body sends the row's field under. */
type BodyKey<R> = R extends { lifecycle: { key: infer K extends string } } ? K : R extends { name: infer N extends string } ? N : never;
/** The key of the action's record that keeps it. */
type StoredKey<R> = R extends { lifecycle: { stored: infer K extends string } } ? K : BodyKey<R>;
/** The value of a well-formed field: null too where the body may leave it out. */
type ValueOf<R, List> = R extends { lifecycle: { kind: { kind: 'reasons' } } }
  ? R extends { lifecycle: { required: true } }
    ? List
    : List | null
  : R extends { lifecycle: { required: true } }
    ? string
    : string | null;

/** The typed fields of a lifecycle action's body: one optional member per field, by its key in the body. */
export type LifecycleFields<B extends LifecycleBody> = { -readonly [R in RowOf<B> as BodyKey<R>]?: ValueOf<R, readonly string[]> };
/** What a lifecycle action records of its body: one member per field, by its key in the record. */
export type LifecycleStored<B extends LifecycleBody> = { -readonly [R in RowOf<B> as StoredKey<R>]: ValueOf<R, string[]> };
type Under<B extends LifecycleBody> = (typeof LIFECYCLE_BODIES)[B]['under'];
/** The members a lifecycle action sets on the trainee, as its event's data holds them beside the trainee's id and the instant. */
export type LifecycleRecord<B extends LifecycleBody> =
  Under<B> extends string ? { [U in Under<B>]: LifecycleStored<B> } : LifecycleStored<B>;
type Records = LifecycleRecord<'deferral'> & LifecycleRecord<'withdrawal'> & LifecycleRecord<'recommendation'>;
/** The trainee's members the lifecycle actions set: null until the action. */
export type LifecycleMembers = { [K in keyof Records]: Records[K] | null };

/** A trainee as its events leave it, and the read model's document (docs/DESIGN.md property 5). */
export interface Trainee extends TraineeCore, LifecycleMembers {}

/** `POST …/defer` (docs/reference/API-FACTS.md §12.3). */
export type DeferralFields = LifecycleFields<'deferral'>;
/** `POST …/withdraw` (§12.4): the reasons sent, in order, without repeats; the texts null where no reason needs them. */
export type WithdrawalFields = LifecycleFields<'withdrawal'>;
/** `POST …/recommend-for-qts` (§12.5). */
export type RecommendationFields = LifecycleFields<'recommendation'>;
/** A deferral as recorded. */
export type Deferral = LifecycleStored<'deferral'>;
/** The latest withdrawal of a trainee, as recorded. */
export type Withdrawal = LifecycleStored<'withdrawal'>;
/** A recommendation as recorded. */
export type Recommendation = LifecycleStored<'recommendation'>;

/** One field of a lifecycle action's body. */
export interface LifecycleField {
  /** The row's name: the trainee's answer of what was recorded. */
  readonly name: string;
  /** Its key in the body (in the version's names, where the row has them) and in the typed fields. */
  readonly key: string;
  /** Its key in the action's record. */
  readonly stored: string;
  readonly input: LifecycleInput;
}

const ROWS = (TRAINEE_RECORD as readonly FieldRow<never>[]).flatMap((row): LifecycleField[] => {
  if (!row.lifecycle) return [];
  const key = row.lifecycle.key ?? row.name;
  return [{ name: row.name, key, stored: row.lifecycle.stored ?? key, input: row.lifecycle }];
});

const BODIES = Object.keys(LIFECYCLE_BODIES) as LifecycleBody[];

const inOrder = (rank: (f: LifecycleField) => number): Readonly<Record<LifecycleBody, readonly LifecycleField[]>> =>
  Object.fromEntries(
    BODIES.map((body) => [body, ROWS.filter((f) => f.input.body === body).sort((a, b) => rank(a) - rank(b))]),
  ) as unknown as Record<LifecycleBody, readonly LifecycleField[]>;

/** Each action's fields in the order of its body: of their messages in a 422, of their keys in the request schema. */
export const LIFECYCLE_FIELDS = inOrder((f) => f.input.rank);

/** Each action's fields in the order of its record's keys: the order every event has held them in. */
const STORED_ORDER = inOrder((f) => f.input.storedRank ?? f.input.rank);

/** What a message says after the label of a required field that is missing or blank. */
export function blankMessageOf(input: LifecycleInput): string {
  return input.blank ?? (input.kind.kind === 'listed' ? invalidMessageOf(input) : "can't be blank");
}

/** What a message says after the label of a value that is not of the field's kind. */
export function invalidMessageOf(input: LifecycleInput): string {
  return input.invalid ?? 'is invalid';
}

/** The record of `body` from its typed fields, once every required one holds a value; others null when not sent or blank. */
export function lifecycleStoredOf<B extends LifecycleBody>(body: B, fields: LifecycleFields<B>): LifecycleStored<B> {
  const sent = fields as Readonly<Record<string, unknown>>;
  return Object.fromEntries(
    STORED_ORDER[body].map((f) => {
      const value = sent[f.key];
      if (f.input.required) return [f.stored, Array.isArray(value) ? [...(value as unknown[])] : value];
      return [f.stored, value === undefined || value === '' ? null : value];
    }),
  ) as LifecycleStored<B>;
}

/** The members `body` sets from its record: the record itself, or the record under its one member. */
export function lifecycleRecordOf<B extends LifecycleBody>(body: B, stored: LifecycleStored<B>): LifecycleRecord<B> {
  const under = LIFECYCLE_BODIES[body].under;
  return (under === null ? { ...stored } : { [under]: stored }) as LifecycleRecord<B>;
}

/** The members `body` sets, copied from what holds them (an event's data): each key of the record, or its one member copied. */
export function lifecycleRecordIn<B extends LifecycleBody>(body: B, holder: LifecycleRecord<B>): LifecycleRecord<B> {
  const under = LIFECYCLE_BODIES[body].under;
  const source = holder as Readonly<Record<string, unknown>>;
  if (under !== null) return { [under]: { ...(source[under] as object) } } as unknown as LifecycleRecord<B>;
  return Object.fromEntries(STORED_ORDER[body].map((f) => [f.stored, source[f.stored]])) as LifecycleRecord<B>;
}

/** The trainee's lifecycle members in the order the trainee table first answers each. */
export const LIFECYCLE_MEMBERS: readonly (keyof LifecycleMembers)[] = [
  ...new Set(ROWS.map((f) => LIFECYCLE_BODIES[f.input.body].under ?? f.stored)),
] as (keyof LifecycleMembers)[];

/** A registered trainee's lifecycle members: none recorded. */
export function noLifecycleMembers(): LifecycleMembers {
  return Object.fromEntries(LIFECYCLE_MEMBERS.map((member) => [member, null])) as unknown as LifecycleMembers;
}

/** Where each field is kept, by its row's name: the action and the path of its record in the event's data (`<key>` or `<member>.<key>`). */
export const LIFECYCLE_PATHS: Readonly<Record<string, { readonly body: LifecycleBody; readonly path: string }>> = Object.fromEntries(
  ROWS.map((f) => {
    const under = LIFECYCLE_BODIES[f.input.body].under;
    return [f.name, { body: f.input.body, path: under === null ? f.stored : `${under}.${f.stored}` }];
  }),
);

const ANSWERS: ReadonlyMap<string, (trainee: object) => unknown> = new Map(
  ROWS.map((f) => [f.name, (trainee: object) => recordedValue(trainee, f.input.body, f.stored)]),
);

/** A trainee's answer of the lifecycle field `name` (what its action recorded, null before it); undefined for any other field. */
export function lifecycleAnswerOf(name: string): ((trainee: object) => unknown) | undefined {
  return ANSWERS.get(name);
}
