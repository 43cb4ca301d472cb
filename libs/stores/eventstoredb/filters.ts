/**
 * Event filters: the port's rule (`EventFilter`: both lists OR-ed, empty means all) and the server filter a subscription sends. The
 * server filters ONE field, stream name or event type (EventStore/EventStore `EventFilter.cs`), so prefixes only → a stream-name
 * regex, types only → an exact type regex, both or neither → only system events out (`^(?!\$)`: the client's `^[^$].*` would drop an
 * empty type). The server filter only saves bandwidth: every event is checked again here, so it need only never be narrower
 * (filters.spec.ts). A regex, not the server's prefix list, whose .NET `StartsWith` is culture-sensitive; escaped-literal regex is
 * ordinal. Client 6.2's `readAll` sends no filter at all (`dist/streams/readAll.js`).
 */
import { eventTypeFilter, streamNameFilter, type Filter, type FilterOptions } from '@eventstore/db-client';
import type { EventFilter } from '@app/event-sourcing';

/** Absent lists made empty; `null` for a filter that admits every non-system event. */
export interface NormalisedFilter {
  streamPrefixes: readonly string[];
  eventTypes: readonly string[];
}

/** TypeError when a list is not an array of strings. */
export function normaliseFilter(filter: EventFilter | undefined): NormalisedFilter | null {
  if (filter === undefined || filter === null) return null;
  const streamPrefixes = stringList(filter.streamPrefixes, 'filter.streamPrefixes');
  const eventTypes = stringList(filter.eventTypes, 'filter.eventTypes');
  if (streamPrefixes.length === 0 && eventTypes.length === 0) return null;
  return { streamPrefixes, eventTypes };
}

/** Prefixes literal and case-sensitive, types exact, as on SQLite. */
export function matchesEventFilter(filter: NormalisedFilter | null, streamId: string, type: string): boolean {
  if (filter === null) return true;
  for (const prefix of filter.streamPrefixes) if (streamId.startsWith(prefix)) return true;
  return filter.eventTypes.includes(type);
}

/** `$`-prefixed stream or type (`$settings`, `$$…` metadata, `$>` links): never yielded from `$all`, never written. */
export function isSystemEvent(streamId: string, type: string): boolean {
  return streamId.startsWith('$') || type.startsWith('$');
}

/** Valid for JavaScript and .NET. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, '\\$&');
}

export function streamPrefixRegex(prefixes: readonly string[]): string {
  return `^(?:${prefixes.map(escapeRegex).join('|')})`;
}

export function exactEventTypeRegex(types: readonly string[]): string {
  return `^(?:${types.map(escapeRegex).join('|')})$`;
}

/** The empty type included. */
export const NON_SYSTEM_EVENT_TYPE_REGEX = '^(?!\\$)';

export type ServerFilterOptions = Pick<FilterOptions, 'checkpointInterval' | 'checkpointReached'>;

/** By the rules in this module's doc, with the client's own helpers; `options` carries the checkpoint settings. */
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
