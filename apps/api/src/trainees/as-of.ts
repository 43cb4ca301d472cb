import { parseInstant } from '@app/trainees/read';
import { QUERY_VALUE_MAX_CHARS } from '../query-params/query-values';

/** An ISO 8601 instant with a zone and nanoseconds takes 35. */
export const AS_OF_MAX_LENGTH = QUERY_VALUE_MAX_CHARS;

/**
 * Null also past {@link AS_OF_MAX_LENGTH}. An offset's `+` sent unencoded arrives as a space; a space just before a trailing `hh:mm`
 * can mean nothing else, so it reads as `+`.
 */
export function parseAsOf(value: unknown): Date | null {
  if (typeof value !== 'string' || value.length > AS_OF_MAX_LENGTH) return null;
  return parseInstant(value.replace(/ (\d{2}(?::?\d{2})?)$/, '+$1'));
}
