import { parseInstant } from '@app/trainees/read';
import { QUERY_VALUE_MAX_CHARS } from '../query-params/query-values';

/** Most characters of an `as_of` value: an ISO 8601 instant with a zone and nanoseconds takes 35. */
export const AS_OF_MAX_LENGTH = QUERY_VALUE_MAX_CHARS;

/**
 * The instant of an `as_of` query value (the history's and the list's; docs/operations.md "Trainee
 * history", "The list at an instant and the census report"), or null (also past
 * {@link AS_OF_MAX_LENGTH} characters). A `+` of an offset sent
 * unencoded arrives as a space (form encoding of query strings); a space just before a trailing
 * `hh:mm` can mean nothing else, so it is read as `+`.
 */
export function parseAsOf(value: unknown): Date | null {
  if (typeof value !== 'string' || value.length > AS_OF_MAX_LENGTH) return null;
  return parseInstant(value.replace(/ (\d{2}(?::?\d{2})?)$/, '+$1'));
}
