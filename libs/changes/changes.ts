/**
 * The change feed's items (docs/change-feed.md): one per trainee event the trainee projection
 * applied, stored version-free ({@link StoredChange}, canonical field names) and answered in each
 * API version's field names ({@link renderChange}), with an opaque cursor sealing the event's
 * global position for the provider who reads it (`CursorCodec`, ./cursors.ts).
 */
import type { LogPosition } from '@app/event-sourcing';
import {
  API_VERSIONS,
  DEGREE_RECORD,
  TRAINEE_RECORD,
  type Degree,
  type Placement,
  type Trainee,
  type TraineeStatus,
  type ApiVersion,
} from '@app/trainees/record';
import type { TraineeEventType } from '@app/trainees/decider';
import { DEGREE_FIELDS, fieldsOf, PLACEMENT_FIELDS, TRAINEE_FIELDS, type OutputField } from '@app/trainees/contract';

/** What a change touched: the trainee's own fields, or one of its placements or degrees. */
export type ChangedRecord = 'trainee' | 'placement' | 'degree';

/** One change as the trainee projection stores it (docs/change-feed.md "What a change holds"). */
export interface StoredChange {
  /** Global position of the event: the feed's order and its cursor. */
  position: LogPosition;
  /** The provider owning the trainee after the change: the only provider whose feed holds it. */
  ukprn: string;
  trainee_id: string;
  /** The domain event's type (as the history shows it). */
  type: TraineeEventType;
  /** When it happened: the event's `metadata.occurredAt`, ISO 8601 UTC, milliseconds. */
  occurred_at: string;
  record: ChangedRecord;
  /** The placement_id or degree_id of a placement or degree change; null for the trainee's own. */
  item_id: string | null;
  /** Canonical names of the changed fields of `record` ({@link changedFields}). */
  changed_fields: string[];
  /** The trainee's state and TRN after the change. */
  state: TraineeStatus;
  trn: string | null;
}

/** A change as answered in one API version (the OpenAPI schema `Change`). */
export interface ChangeItem {
  cursor: string;
  occurred_at: string;
  trainee_id: string;
  type: TraineeEventType;
  changed_fields: string[];
  placement_id?: string;
  degree_id?: string;
  state: TraineeStatus;
  trn: string | null;
}

/** `disability` followed by digits: the trainee's disability keys, each answered under its own name. */
const DISABILITY = /^disability\d+$/;

/** Fields of the trainee whose change is not listed: every change moves `updated_at`. */
const NOT_LISTED = new Set(['updated_at']);

/** Same JSON value (answers hold primitives, arrays of strings and flat objects). */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Canonical names of `fields` whose value differs between two records (a missing record answers null everywhere). */
function differing<T>(fields: readonly OutputField<T>[], before: T | null, after: T | null): string[] {
  const names = new Set<string>();
  for (const f of fields) {
    if (NOT_LISTED.has(f.name) || names.has(f.name)) continue;
    if (!sameValue(before ? f.value(before) : null, after ? f.value(after) : null)) names.add(f.name);
  }
  return [...names];
}

/**
 * The canonical names of the answered fields of a record whose value differs before and after a
 * change, in answer order, `updated_at` left out (docs/change-feed.md "changed_fields"). A record
 * that did not exist before (or no longer does after) answers null in every field, so a new
 * record lists its non-null fields and a removed one the fields it had. For the trainee, its
 * `disabilityN` keys beyond `disability1` and `disability2` are compared too.
 */
export function changedFields(record: 'trainee', before: Trainee | null, after: Trainee | null): string[];
export function changedFields(record: 'placement', before: Placement | null, after: Placement | null): string[];
export function changedFields(record: 'degree', before: Degree | null, after: Degree | null): string[];
export function changedFields(record: ChangedRecord, before: unknown, after: unknown): string[] {
  if (record === 'placement') return differing(PLACEMENT_FIELDS, before as Placement | null, after as Placement | null);
  if (record === 'degree') return differing(DEGREE_FIELDS, before as Degree | null, after as Degree | null);
  const b = before as Trainee | null;
  const a = after as Trainee | null;
  const names = differing(TRAINEE_FIELDS, b, a);
  const keys = new Set([...Object.keys(b?.details.disabilities ?? {}), ...Object.keys(a?.details.disabilities ?? {})]);
  for (const key of keys) {
    if (!DISABILITY.test(key) || names.includes(key)) continue;
    if (!sameValue(b?.details.disabilities[key] ?? null, a?.details.disabilities[key] ?? null)) names.push(key);
  }
  return names;
}

/** Per version and record: canonical name → the name the version answers it under (fields it does not answer are absent). */
const NAMES = new Map<string, ReadonlyMap<string, string>>();

function namesOf(record: ChangedRecord, version: ApiVersion): ReadonlyMap<string, string> {
  const key = `${record} ${version}`;
  let names = NAMES.get(key);
  if (!names) {
    const fields = record === 'trainee' ? TRAINEE_FIELDS : record === 'placement' ? PLACEMENT_FIELDS : DEGREE_FIELDS;
    names = new Map(fieldsOf(fields as readonly OutputField<unknown>[], version).map(([name, f]) => [f.name, name]));
    NAMES.set(key, names);
  }
  return names;
}

/**
 * A stored change as answered in `version`, with its `cursor` (made by a `CursorCodec` for the
 * provider who reads it): `changed_fields` in the version's names (fields the
 * version does not answer left out; `disabilityN` keys as they are), `placement_id` or `degree_id`
 * only for a placement or degree change (docs/change-feed.md "What a change holds").
 */
export function renderChange(change: StoredChange, version: ApiVersion, cursor: string): ChangeItem {
  const names = namesOf(change.record, version);
  const changed = change.changed_fields.flatMap((f) => {
    const name = names.get(f) ?? (change.record === 'trainee' && DISABILITY.test(f) ? f : undefined);
    return name === undefined ? [] : [name];
  });
  return {
    cursor,
    occurred_at: change.occurred_at,
    trainee_id: change.trainee_id,
    type: change.type,
    changed_fields: changed,
    ...(change.record === 'placement' && change.item_id !== null ? { placement_id: change.item_id } : {}),
    ...(change.record === 'degree' && change.item_id !== null ? { degree_id: change.item_id } : {}),
    state: change.state,
    trn: change.trn,
  };
}

/** Per record, the canonical names of the fields flagged personal in the record tables (libs/trainees/record). */
const PERSONAL_FIELDS: Readonly<Record<ChangedRecord, ReadonlySet<string>>> = {
  trainee: new Set(TRAINEE_RECORD.filter((row) => 'personal' in row && row.personal).map((row) => row.name)),
  placement: new Set(),
  degree: new Set(DEGREE_RECORD.filter((row) => 'personal' in row && row.personal).map((row) => row.name)),
};

/** Whether `name` (canonical, or as a version answers it) is a personal field of `record`, a `disabilityN` key included. */
function isPersonal(record: ChangedRecord, name: string): boolean {
  return PERSONAL_FIELDS[record].has(name) || (record === 'trainee' && DISABILITY.test(name));
}

/**
 * An erased trainee's change as the feed keeps it (docs/change-feed.md "An erased trainee's
 * changes"): the same entry, with the same cursor, type, time, ids and state, naming none of the
 * fields flagged personal (nor a `disabilityN` key) and no TRN. One rule for every entry of the
 * trainee, whatever its values now read: made so by the erasure and by every rebuild after it.
 */
export function forgottenChange(change: StoredChange): StoredChange {
  return { ...change, changed_fields: change.changed_fields.filter((f) => !isPersonal(change.record, f)), trn: null };
}

/**
 * {@link forgottenChange} of a change already answered in some API version (a webhook delivery's
 * payload): its `changed_fields` hold that version's names, judged against the names every served
 * version gives the personal fields (no version names a field of its own after another's personal one).
 */
export function forgottenChangeItem(item: ChangeItem): ChangeItem {
  const record: ChangedRecord = item.placement_id !== undefined ? 'placement' : item.degree_id !== undefined ? 'degree' : 'trainee';
  const personal = answeredPersonalNames(record);
  return { ...item, changed_fields: item.changed_fields.filter((f) => !personal.has(f) && !isPersonal(record, f)), trn: null };
}

/** The names, in any API version, of `record`'s personal fields. */
function answeredPersonalNames(record: ChangedRecord): ReadonlySet<string> {
  const names = new Set<string>();
  for (const version of API_VERSIONS) {
    for (const [canonical, answered] of namesOf(record, version)) if (isPersonal(record, canonical)) names.add(answered);
  }
  return names;
}
