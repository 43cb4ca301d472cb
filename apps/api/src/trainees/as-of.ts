import { parseInstant } from '@app/trainees/read';

/**
 * The instant of an `as_of` query value (the history's and the list's; docs/operations.md "Trainee
 * history", "The list at an instant and the census report"), or null. A `+` of an offset sent
 * unencoded arrives as a space (form encoding of query strings); a space just before a trailing
 * `hh:mm` can mean nothing else, so it is read as `+`.
 */
export function parseAsOf(value: unknown): Date | null {
  if (typeof value !== 'string') return null;
  return parseInstant(value.replace(/ (\d{2}(?::?\d{2})?)$/, '+$1'));
}
