import {
  decodeTraineeEvent,
  evolve,
  initialTraineeState,
  type TraineeEvent,
  type TraineeState,
  traineeStreamId,
} from '@app/trainees/decider';
import { LIFECYCLE_MEMBERS, TRAINEE_STATES, type Trainee, type TraineeDetails, type TraineeStatus } from '@app/trainees/record';
import { chainKeysOf, storedTextOf, type EventStore, type RecordedEvent } from '@app/event-sourcing';

/**
 * The audit history of one trainee (docs/operations.md "Trainee history"), computed by replaying
 * the trainee's own stream `trainee-<trainee_id>` with the decider's `evolve` (docs/DESIGN.md
 * "The shape": the audit history is the one answer that reads the event log on purpose; it never
 * reads the read models).
 */

/** One event of a trainee's stream, as the auditors' timeline shows it (snake_case: it is served over HTTP as is). */
export interface TimelineEntry {
  /** Global position of the event in the log. */
  position: number;
  /** 0-based revision of the event in the trainee's stream. */
  revision: number;
  /** When it happened (`metadata.occurredAt`, ISO 8601 UTC with milliseconds). */
  occurred_at: string;
  event_type: string;
  /**
   * What the event changed, by canonical field name (the v2026.1 name where the versions differ,
   * as in `TraineeDetails`): the details fields a registration set or an update changed, the
   * lifecycle fields (`state`, `trn`, what a lifecycle action recorded, …) a lifecycle event changed, and
   * `placements` or `degrees` for a sub-resource event. Empty when the event changed nothing.
   */
  changed_fields: string[];
  /**
   * The new value of each changed field (same keys as `changed_fields`). For `placements` and
   * `degrees` the value describes the item: all its fields as it then stood when added or updated
   * (an entry is computed from its own event, which holds the whole item: {@link traineeTimelinePage}),
   * its id and `removed: true` when removed.
   */
  changes: Record<string, unknown>;
  /** The acting provider (the trainee's own; the registry's events carry the trainee's provider too). */
  provider_ukprn: string | null;
  /** Id of the API token that made the request (never the token); null for events of the registry process. */
  token_id: string | null;
  api_version: string | null;
  request_id: string | null;
  /**
   * The event's hash (docs/DESIGN.md "Verifiable history": SHA-256 of its stored form and of
   * `previous_hash`), hex; null for an event stored before the chain began.
   */
  hash: string | null;
  /** The hash of the stream's event before it, as the event stores it: null for the first event, and for one stored before the chain. */
  previous_hash: string | null;
  /**
   * The event as stored, what `hash` is computed over (docs/DESIGN.md "Verifiable history"): its
   * stream, its id, and its data and metadata texts exactly as stored (personal values sealed; the metadata
   * ends with the chain keys). Set where the timeline was read from the events as stored
   * (`readTimelinePage`: the API and the CLI's JSON), so an auditor can recompute every hash
   * (examples/verify-history.mjs).
   */
  stream_id?: string;
  /** The event's id, which the hash covers (version 2 of the rule); set with the stored form. */
  event_id?: string;
  stored_data?: string;
  stored_metadata?: string;
}

/** A trainee's stream as read for its history. */
export interface TraineeHistory {
  /** The stored trainee id (as registered; the id asked for may differ in case). */
  traineeId: string;
  /** The owning provider (from `TraineeRegistered`), null when the stream has no registration. */
  ukprn: string | null;
  /** The stream's events in revision order, as stored (decoded and upcast when replayed). */
  events: RecordedEvent[];
}

/**
 * Trainee fields outside `details` that an event may change, in the order an entry names them
 * (timestamps are left out: `occurred_at` says when): the lifecycle actions' members
 * (libs/trainees/record/lifecycle.fields.ts) after the TRN's, before the instants of the
 * recommendation and the award.
 */
const LIFECYCLE_FIELDS: readonly (keyof Trainee)[] = [
  'trainee_id',
  'ukprn',
  'record_source',
  'state',
  'trn',
  'submitted_for_trn_at',
  ...LIFECYCLE_MEMBERS,
  'recommended_for_award_at',
  'awarded_at',
  'reinstate_date',
];

/**
 * Reads a trainee's stream for its history; null when there is no such trainee. The stream is
 * named by the exact trainee id; `resolveId` (optional) maps an id that matched no stream to the
 * stored id, for ids given in another case (docs/reference/API-FACTS.md §1.10: ids match case-insensitively). The API
 * resolves through the trainee read model, which only maps the id: the history itself is the log's.
 */
export async function loadTraineeHistory(
  eventStore: EventStore,
  traineeId: string,
  options: { resolveId?: (traineeId: string) => Promise<string | null> } = {},
): Promise<TraineeHistory | null> {
  let id = traineeId;
  let events = id === '' ? [] : await eventStore.readStream(traineeStreamId(id));
  if (events.length === 0 && options.resolveId) {
    const resolved = await options.resolveId(traineeId);
    if (resolved && resolved !== traineeId) {
      id = resolved;
      events = await eventStore.readStream(traineeStreamId(id));
    }
  }
  if (events.length === 0) return null;
  return { traineeId: id, ukprn: ownerOf(events), events };
}

/** The owning provider's UKPRN, from the stream's `TraineeRegistered` event; null without one. */
export function ownerOf(recorded: readonly RecordedEvent[]): string | null {
  for (const r of recorded) {
    if (r.type !== 'TraineeRegistered') continue;
    const e = decodeTraineeEvent(r);
    if (e?.type === 'TraineeRegistered') return e.data.ukprn;
  }
  return null;
}

/**
 * What the timeline carries from one event to the next: the trainee's lifecycle state (`none`
 * before its registration, `erased` after its erasure). It is all a timeline entry needs of the
 * events before it, so a page of the timeline is computed from its own events and the state the
 * page before it left (docs/operations.md "Trainee history"). Holds no personal data.
 */
export type TimelineStatus = 'none' | 'erased' | TraineeStatus;

/** Every {@link TimelineStatus}, in a fixed order (a page cursor holds its index). */
export const TIMELINE_STATUSES: readonly TimelineStatus[] = ['none', 'erased', ...TRAINEE_STATES];

/**
 * The timeline of a trainee's stream: one entry per event, in stream order, with what it changed
 * and who did it (the event's metadata). Events of unknown types get an entry with no changes.
 * Pure; linear in the number of events. The whole timeline is `traineeTimelinePage(all, 'none')`.
 */
export function traineeTimeline(recorded: readonly RecordedEvent[]): TimelineEntry[] {
  return traineeTimelinePage(recorded, 'none').entries;
}

/**
 * The timeline entries of consecutive events of a stream (a page), given the lifecycle state
 * before the first of them (`before`; `'none'` at revision 0), and the state after the last one.
 * With `stored` (the same events as stored, beneath the sealing of personal data), each entry also
 * shows its stored form (`stream_id`, `stored_data`, `stored_metadata`).
 *
 * Bounded per page: each entry is computed from its own event and the lifecycle state before it,
 * never from earlier events, so a page costs its events whatever the stream's length and the
 * pages of a timeline, read one after the other, are exactly the whole timeline. What an entry
 * shows, therefore (docs/operations.md "Trainee history"): a registration, every field it set; an
 * update, the fields it recorded (the decider records only the fields whose value changed,
 * `TraineeUpdated`); a lifecycle event, the lifecycle fields it set to a value (`state` when it
 * moved: a TRN leaves a deferred or withdrawn trainee's state as it was); a placement or degree
 * added or updated, the item as it then stood (the event holds the whole item), removed, its id
 * and `removed: true`.
 */
export function traineeTimelinePage(
  recorded: readonly RecordedEvent[],
  before: TimelineStatus,
  stored?: readonly RecordedEvent[],
): { entries: TimelineEntry[]; after: TimelineStatus } {
  let status = before;
  const entries: TimelineEntry[] = [];
  for (const [i, r] of recorded.entries()) {
    const event = decodeTraineeEvent(r);
    const previous = stateOf(status);
    const state = event ? evolve(previous, event) : previous;
    status = statusOf(state);
    const { changed_fields, changes } = event ? describeChange(previous, state, event) : { changed_fields: [], changes: {} };
    const m = r.metadata ?? ({} as RecordedEvent['metadata']);
    const chain = chainKeysOf(m);
    entries.push({
      position: r.position,
      revision: r.streamRevision,
      occurred_at: occurredAtOf(r) ?? '',
      event_type: r.type,
      changed_fields,
      changes,
      provider_ukprn: stringOrNull(m.providerUkprn),
      token_id: stringOrNull(m.tokenId),
      api_version: stringOrNull(m.apiVersion),
      request_id: stringOrNull(m.requestId),
      hash: chain.hash,
      previous_hash: chain.previousHash,
      ...(stored ? storedForm(stored[i]) : {}),
    });
  }
  return { entries, after: status };
}

/** An event's stored form as a timeline entry shows it: what the chain hashed (`storedTextOf`). */
function storedForm(e: RecordedEvent): Pick<TimelineEntry, 'stream_id' | 'event_id' | 'stored_data' | 'stored_metadata'> {
  const stored = storedTextOf(e);
  return { stream_id: stored.streamId, event_id: stored.id, stored_data: stored.data, stored_metadata: stored.metadata };
}

/** A trainee with no fields, no items and the given lifecycle state: what an event is described against. */
function stateOf(status: TimelineStatus): TraineeState {
  if (status === 'none') return initialTraineeState;
  if (status === 'erased') return { exists: false, erased: true };
  const blank = Object.fromEntries(LIFECYCLE_FIELDS.map((f) => [f, null])) as unknown as Trainee;
  return {
    exists: true,
    trainee: {
      ...blank,
      trainee_id: '',
      ukprn: '',
      state: status,
      details: {} as TraineeDetails,
      placements: [],
      degrees: [],
      created_at: '',
      updated_at: '',
    },
  };
}

function statusOf(state: TraineeState): TimelineStatus {
  if (state.exists) return state.trainee.state;
  return state.erased ? 'erased' : 'none';
}

/**
 * The trainee as it stood at `instant`: the fold with `evolve` of the events whose
 * `metadata.occurredAt` is at or before it (events of one request share their instant, so the
 * state is never caught half-way through a request). Null when the trainee did not exist yet.
 */
export function traineeAsOf(recorded: readonly RecordedEvent[], instant: Date | string): Trainee | null {
  const limit = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  if (Number.isNaN(limit)) throw new RangeError(`not an instant: ${String(instant)}`);
  // Events carry `toISOString()` instants, which compare as strings; anything else is parsed.
  const limitText = limit >= 0 && limit < MAX_FOUR_DIGIT_YEAR_MS ? new Date(limit).toISOString() : null;
  let state: TraineeState = initialTraineeState;
  for (const r of recorded) {
    const at = occurredAtOf(r);
    if (at === null) continue;
    if (limitText !== null && at.length === 24 && at.charCodeAt(23) === 90 /* Z */) {
      if (at > limitText) continue;
    } else {
      const t = Date.parse(at);
      if (Number.isNaN(t) || t > limit) continue;
    }
    const event = decodeTraineeEvent(r);
    if (event) state = evolve(state, event);
  }
  return state.exists ? state.trainee : null;
}

/**
 * The timeline as a provider may see it: token ids only on the events its own provider caused
 * (a trainee's stream holds no other provider's events, so this is a safeguard, never a filter of
 * events). Tokens themselves are never in events, only their ids.
 */
export function timelineForProvider(entries: readonly TimelineEntry[], ukprn: string): TimelineEntry[] {
  return entries.map((e) => (e.token_id !== null && e.provider_ukprn !== ukprn ? { ...e, token_id: null } : e));
}

/** 10000-01-01T00:00:00Z: instants before it print with a four-digit year. */
const MAX_FOUR_DIGIT_YEAR_MS = 253402300800000;

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|([+-])(\d{2})(?::?(\d{2}))?)$/i;

/**
 * Parses an ISO 8601 instant: a calendar date and a time with a UTC designator or an offset
 * (`2026-01-05T10:00:00Z`, `2026-01-05T10:00:00.123+01:00`, `2026-01-05T10:00Z`). A date alone or
 * a local time without an offset names no instant and gives null, as do impossible dates and
 * times. Fractions of a second beyond milliseconds are truncated.
 */
export function parseInstant(text: string): Date | null {
  const m = ISO_INSTANT.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s = '0', frac = '', zone, sign, oh = '0', om = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  let offsetMinutes = 0;
  if (zone.toUpperCase() !== 'Z') {
    const offH = Number(oh);
    const offM = Number(om);
    if (offH > 23 || offM > 59) return null;
    offsetMinutes = (sign === '-' ? -1 : 1) * (offH * 60 + offM);
  }
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Number(frac.slice(0, 3).padEnd(3, '0')));
  return new Date(date.getTime() - offsetMinutes * 60_000);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function describeChange(
  before: TraineeState,
  after: TraineeState,
  event: TraineeEvent,
): { changed_fields: string[]; changes: Record<string, unknown> } {
  const changes: Record<string, unknown> = {};
  // An erasure: why and by whom (docs/DESIGN.md "Personal data").
  if (event.type === 'TraineeErased')
    return { changed_fields: [], changes: { reason: event.data.reason, erased_by: event.data.erased_by } };
  if (!after.exists) return { changed_fields: [], changes };
  const a = after.trainee;
  if (!before.exists) {
    // A registration: every field it set.
    for (const f of LIFECYCLE_FIELDS) if (a[f] !== null) changes[f] = a[f];
    for (const [f, v] of Object.entries(a.details)) if (hasValue(v)) changes[f] = v;
    return { changed_fields: Object.keys(changes), changes };
  }
  const b = before.trainee;
  for (const f of LIFECYCLE_FIELDS) if (!same(b[f], a[f])) changes[f] = a[f];
  // Only an update touches the details, and it records the fields whose value it changed (their
  // values `[erased]` once the trainee's personal data is erased).
  if (event.type === 'TraineeUpdated') Object.assign(changes, event.data.changes);
  if (event.type.startsWith('Placement')) changes.placements = subResourceChange(event, 'placement');
  if (event.type.startsWith('Degree')) changes.degrees = subResourceChange(event, 'degree');
  return { changed_fields: Object.keys(changes), changes };
}

type Item = Record<string, unknown>;

/** A placement or degree event's item: as the event holds it (added, updated), or its id and `removed: true`. */
function subResourceChange(event: TraineeEvent, kind: 'placement' | 'degree'): Item {
  const data = event.data as Record<string, unknown>;
  const idKey = `${kind}_id`;
  const item = data[kind] as Item | undefined;
  return item ? { ...item } : { [idKey]: data[idKey] ?? null, removed: true };
}

function hasValue(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (typeof v === 'object' && !Array.isArray(v)) return Object.keys(v as object).length > 0;
  return true;
}

function same(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

function occurredAtOf(r: RecordedEvent): string | null {
  const at = r.metadata?.occurredAt ?? (r.data as { at?: unknown } | null)?.at;
  return typeof at === 'string' ? at : null;
}

function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null;
}
