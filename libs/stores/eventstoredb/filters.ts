/**
 * Event filters of the EventStoreDB adapter: the port's exact semantics (docs/DESIGN.md "The event
 * store port"; port doc of `EventFilter`: "both lists are OR-ed, empty means all"), system-event
 * skipping, and the server-side filter a subscription sends.
 *
 * ## Decision: what runs on the server, what runs here
 *
 * EventStoreDB's server filter is ONE expression on ONE field: either the stream name or the event
 * type (client `streamNameFilter` / `eventTypeFilter`; the server's `EventFilter.Get` picks a single
 * strategy: EventStore/EventStore `src/EventStore.Core/Services/Storage/ReaderIndex/EventFilter.cs`).
 * It cannot express the port's "stream prefix OR event type". So:
 *
 * - stream prefixes only → stream-name filter, regex `^(?:p1|p2…)` of the escaped prefixes;
 * - event types only     → event-type filter, regex `^(?:t1|t2…)$` of the escaped types (exact);
 * - both, or neither     → only system events excluded: event-type regex `^(?!\$)` (the client's
 *   `excludeSystemEvents()` is `^[^$].*`, which would also drop an event with an empty type), since
 *   narrowing by either field alone would drop events the other field admits;
 * - and in every case the port's exact rule ({@link matchesEventFilter}) runs again on each event
 *   here, together with {@link isSystemEvent}. The server filter only saves bandwidth; correctness
 *   needs only that it is never narrower than the port's rule (argued below; property-tested in
 *   filters.spec.ts with JavaScript's regex engine).
 *
 * Regex rather than the server's prefix list for stream prefixes: the server's prefix strategy
 * uses .NET `string.StartsWith(string)`, which is culture-sensitive (combining marks, ignorable
 * characters), whereas the port's prefixes are literal and ordinal; .NET regex matching of escaped
 * literals is ordinal, so the server never drops an event the port would keep. (.NET `$` also
 * matches before a final `\n`; the client-side check removes such an event.)
 *
 * `readAll` cannot use a server filter at all with client 6.2: its `readAll` sends `NoFilter`
 * (node_modules/@eventstore/db-client/dist/streams/readAll.js); see the adapter.
 */
import { eventTypeFilter, streamNameFilter, type Filter, type FilterOptions } from '@eventstore/db-client';
import type { EventFilter } from '@app/event-sourcing';

/** The port filter with absent lists made empty; `null` when it admits every (non-system) event. */
export interface NormalisedFilter {
  streamPrefixes: readonly string[];
  eventTypes: readonly string[];
}

/**
 * Normalises a port filter: `undefined`, or both lists empty/absent → `null` (no filter).
 * Throws a TypeError when a list is not an array of strings.
 */
export function normaliseFilter(filter: EventFilter | undefined): NormalisedFilter | null {
  if (filter === undefined || filter === null) return null;
  const streamPrefixes = stringList(filter.streamPrefixes, 'filter.streamPrefixes');
  const eventTypes = stringList(filter.eventTypes, 'filter.eventTypes');
  if (streamPrefixes.length === 0 && eventTypes.length === 0) return null;
  return { streamPrefixes, eventTypes };
}

/**
 * The port's rule: true when `filter` is null, or the stream id starts with one of the prefixes
 * (literal, case-sensitive), or the type equals one of the event types. Source: port doc of
 * `EventFilter`, and the SQLite adapter (`substr(stream_id, 1, length(?)) = ?`, `type IN (…)`).
 */
export function matchesEventFilter(filter: NormalisedFilter | null, streamId: string, type: string): boolean {
  if (filter === null) return true;
  for (const prefix of filter.streamPrefixes) if (streamId.startsWith(prefix)) return true;
  return filter.eventTypes.includes(type);
}

/**
 * True for EventStoreDB's own events: a stream id or event type starting with `$` (system streams
 * such as `$settings`, `$stats-…`, metadata streams `$$…`, link events `$>`, `$metadata`, …).
 * The adapter never yields them from `$all` and refuses to write such names.
 */
export function isSystemEvent(streamId: string, type: string): boolean {
  return streamId.startsWith('$') || type.startsWith('$');
}

/** Escapes `text` for use as a literal in a regular expression (valid for JavaScript and .NET). */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

/** Regex source matching stream ids that start with one of `prefixes` (literal). */
export function streamPrefixRegex(prefixes: readonly string[]): string {
  return `^(?:${prefixes.map(escapeRegex).join('|')})`;
}

/** Regex source matching exactly one of `types` (literal). */
export function exactEventTypeRegex(types: readonly string[]): string {
  return `^(?:${types.map(escapeRegex).join('|')})$`;
}

/** Regex source matching event types that do not start with `$` (the empty type included). */
export const NON_SYSTEM_EVENT_TYPE_REGEX = '^(?!\\$)';

/** Options the server filter is built with (checkpoint handling, see the subscription). */
export type ServerFilterOptions = Pick<FilterOptions, 'checkpointInterval' | 'checkpointReached'>;

/**
 * The server-side filter for a subscription by the rules in this module's doc: stream-prefix
 * regex, exact event-type regex, or non-system event types. Built with the client's own helpers, so
 * the result is the client's `Filter` type. `options` carries checkpoint settings.
 */
export function buildServerFilter(filter: NormalisedFilter | null, options: ServerFilterOptions = {}): Filter {
  if (filter !== null && filter.streamPrefixes.length > 0 && filter.eventTypes.length === 0) {
    return streamNameFilter({ regex: streamPrefixRegex(filter.streamPrefixes), ...options });
  }
  if (filter !== null && filter.eventTypes.length > 0 && filter.streamPrefixes.length === 0) {
    return eventTypeFilter({ regex: exactEventTypeRegex(filter.eventTypes), ...options });
  }
  return eventTypeFilter({ regex: NON_SYSTEM_EVENT_TYPE_REGEX, ...options });
}

function stringList(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
    throw new TypeError(`${name} must be an array of strings`);
  }
  return [...(value as string[])];
}
