/**
 * The change feed's items (docs/change-feed.md): stored version-free with canonical field names, answered in each version's names
 * ({@link renderChange}) with a cursor sealing the position for the reader (./cursors.ts).
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
import { DEGREE_FIELDS, fieldsOf, PLACEMENT_FIELDS, TRAINEE_FIELDS, type OutputField } from '@app/trainees/answers';

export type ChangedRecord = 'trainee' | 'placement' | 'degree';

export interface StoredChange {
  /** The feed's order, and its cursor. */
  position: LogPosition;
  /** The provider owning the trainee after the change: the only one whose feed holds it. */
  ukprn: string;
  trainee_id: string;
  type: TraineeEventType;
  /** The event's `metadata.occurredAt`: ISO 8601 UTC, milliseconds. */
  occurred_at: string;
  record: ChangedRecord;
  /** Null for the trainee's own fields. */
  item_id: string | null;
  changed_fields: string[];
  /** After the change, as is `trn`. */
  state: TraineeStatus;
  trn: string | null;
}

/** The OpenAPI schema `Change`. */
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

/** Each answered under its own name. */
const DISABILITY = /^disability\d+$/;

/** Every change moves `updated_at`. */
const NOT_LISTED = new Set(['updated_at']);

/** Answers hold primitives, arrays of strings and flat objects. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A missing record answers null in every field. */
function differing<T>(fields: readonly OutputField<T>[], before: T | null, after: T | null): string[] {
  const names = new Set<string>();
  for (const f of fields) {
    if (NOT_LISTED.has(f.name) || names.has(f.name)) continue;
    if (!sameValue(before ? f.value(before) : null, after ? f.value(after) : null)) names.add(f.name);
  }
  return [...names];
}

/**
 * Canonical names of the answered fields that differ, in answer order, `updated_at` left out (docs/change-feed.md "changed_fields"):
 * a missing record answers null everywhere; a trainee's `disabilityN` keys are compared too.
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

/** Per version and record: canonical name → the version's name (absent when not answered). */
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

/** `changed_fields` in the version's names (unanswered ones left out); `placement_id` or `degree_id` only for such a change. */
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

const PERSONAL_FIELDS: Readonly<Record<ChangedRecord, ReadonlySet<string>>> = {
  trainee: new Set(TRAINEE_RECORD.filter((row) => 'personal' in row && row.personal).map((row) => row.name)),
  placement: new Set(),
  degree: new Set(DEGREE_RECORD.filter((row) => 'personal' in row && row.personal).map((row) => row.name)),
};

function isPersonal(record: ChangedRecord, name: string): boolean {
  return PERSONAL_FIELDS[record].has(name) || (record === 'trainee' && DISABILITY.test(name));
}

/**
 * An erased trainee's change (docs/change-feed.md "An erased trainee's changes"): the same entry with no personal field named and no
 * TRN, whatever its values now read.
 */
export function forgottenChange(change: StoredChange): StoredChange {
  return { ...change, changed_fields: change.changed_fields.filter((f) => !isPersonal(change.record, f)), trn: null };
}

/**
 * {@link forgottenChange} of an answered change (a webhook payload), judged against every served version's names of the personal
 * fields (no version names a field of its own after another's personal one).
 */
export function forgottenChangeItem(item: ChangeItem): ChangeItem {
  const record: ChangedRecord = item.placement_id !== undefined ? 'placement' : item.degree_id !== undefined ? 'degree' : 'trainee';
  const personal = answeredPersonalNames(record);
  return { ...item, changed_fields: item.changed_fields.filter((f) => !personal.has(f) && !isPersonal(record, f)), trn: null };
}

function answeredPersonalNames(record: ChangedRecord): ReadonlySet<string> {
  const names = new Set<string>();
  for (const version of API_VERSIONS) {
    for (const [canonical, answered] of namesOf(record, version)) if (isPersonal(record, canonical)) names.add(answered);
  }
  return names;
}
