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

/** A trainee's audit history, replayed from its own stream, never from the read models (docs/operations.md "Trainee history"). */

/** One event of a trainee's stream, as the auditors' timeline shows it (snake_case: it is served over HTTP as is). */
export interface TimelineEntry {
  position: number;
  /** 0-based, in the trainee's stream. */
  revision: number;
  /** `metadata.occurredAt`: ISO 8601, UTC, milliseconds. */
  occurred_at: string;
  event_type: string;
  /** Canonical (v2026.1) names of the details and lifecycle fields the event changed, or `placements`/`degrees`; empty for none. */
  changed_fields: string[];
  /** The new value of each changed field; a placement or degree as it then stood, or its id and `removed: true`. */
  changes: Record<string, unknown>;
  /** The acting provider (the registry's events carry the trainee's provider too). */
  provider_ukprn: string | null;
  /** Never the token; null for the registry process's events. */
  token_id: string | null;
  api_version: string | null;
  request_id: string | null;
  /** Hex (docs/DESIGN.md "Verifiable history"); null for an event stored before the chain began. */
  hash: string | null;
  /** Null for the first event, and for one stored before the chain. */
  previous_hash: string | null;
  /** The event as stored (sealed), which `hash` covers (examples/verify-history.mjs recomputes it); set when read as stored. */
  stream_id?: string;
  event_id?: string;
  stored_data?: string;
  stored_metadata?: string;
}

/** A trainee's stream as read for its history. */
export interface TraineeHistory {
  /** As registered; the id asked for may differ in case. */
  traineeId: string;
  /** From `TraineeRegistered`; null without one. */
  ukprn: string | null;
  events: RecordedEvent[];
}

/** Trainee fields outside `details` an event may change, in the order an entry names them (no timestamps: `occurred_at` says when). */
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

/** A trainee's stream, or null; `resolveId` maps an id matching no stream to the stored id (case, docs/reference/API-FACTS.md §1.10). */
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

/** The lifecycle state: all an entry needs of earlier events, so a page needs only the state the page before left. No personal data. */
export type TimelineStatus = 'none' | 'erased' | TraineeStatus;

/** Every {@link TimelineStatus}, in a fixed order (a page cursor holds its index). */
export const TIMELINE_STATUSES: readonly TimelineStatus[] = ['none', 'erased', ...TRAINEE_STATES];

/** One entry per event of a trainee's stream, in stream order; an event of an unknown type changes nothing. */
export function traineeTimeline(recorded: readonly RecordedEvent[]): TimelineEntry[] {
  return traineeTimelinePage(recorded, 'none').entries;
}

/**
 * The entries of consecutive events (a page) from the lifecycle state before them (`'none'` at revision 0), and the state after.
 * Each entry comes from its own event and that state only, so pages cost their events and join into the whole timeline. With
 * `stored` (the same events, sealed), each entry shows its stored form.
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

/** The fold of the events with `occurredAt` ≤ `instant` (a request's events share one, never split); null before the registration. */
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

/** Token ids only on the events `ukprn` caused: a safeguard (a trainee's stream holds no other provider's events). */
export function timelineForProvider(entries: readonly TimelineEntry[], ukprn: string): TimelineEntry[] {
  return entries.map((e) => (e.token_id !== null && e.provider_ukprn !== ukprn ? { ...e, token_id: null } : e));
}

/** 10000-01-01T00:00:00Z: instants before it print with a four-digit year. */
const MAX_FOUR_DIGIT_YEAR_MS = 253402300800000;

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|([+-])(\d{2})(?::?(\d{2}))?)$/i;

/**
 * An ISO 8601 date and time with `Z` or an offset (`2026-01-05T10:00Z`, `…T10:00:00.123+01:00`); null for a date alone, a local
 * time or an impossible date. Fractions beyond milliseconds are truncated.
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
  if (event.type === 'TraineeErased')
    return { changed_fields: [], changes: { reason: event.data.reason, erased_by: event.data.erased_by } };
  if (!after.exists) return { changed_fields: [], changes };
  const a = after.trainee;
  if (!before.exists) {
    for (const f of LIFECYCLE_FIELDS) if (a[f] !== null) changes[f] = a[f];
    for (const [f, v] of Object.entries(a.details)) if (hasValue(v)) changes[f] = v;
    return { changed_fields: Object.keys(changes), changes };
  }
  const b = before.trainee;
  for (const f of LIFECYCLE_FIELDS) if (!same(b[f], a[f])) changes[f] = a[f];
  // Only an update touches the details; it records only the fields it changed (`[erased]` once the trainee is).
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
