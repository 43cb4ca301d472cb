/**
 * The search of a provider's trainees by name or provider trainee id (the uploads page's "Your trainees", docs/DESIGN.md "The uploads
 * page"): what it matches, as one rule the JS, SQLite and MongoDB searches follow.
 */
import type { Trainee } from '@app/trainees/record';

/** Most characters of a search as typed. */
export const TRAINEE_SEARCH_CHARS_MAX = 100;
/** Most words of a search: each word is one more test of every row of the provider's cycle. */
export const TRAINEE_SEARCH_WORDS_MAX = 5;

/** A search's words: `text` in lower case (JavaScript's `toLowerCase`, Unicode's), split at white space; none for a blank search. */
export function searchWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/\s+/u)
    .filter((w) => w !== '');
}

/**
 * Whether every word (lower case, no white space: {@link searchWords}) is in the trainee's first names, last name or provider trainee
 * id, ignoring case (`toLowerCase`), anywhere in the value (a word may match one field, the next another); true for no words.
 * `providerTraineeId` may be null.
 */
export function matchesSearchWords(
  firstNames: string | null,
  lastName: string | null,
  providerTraineeId: string | null,
  words: readonly string[],
): boolean {
  if (words.length === 0) return true;
  const values = [firstNames, lastName, providerTraineeId].filter((v): v is string => typeof v === 'string');
  return searchTextHolds(values.join('\n'), words);
}

/**
 * Whether `text`, the values searched joined by line breaks (none where a value is missing), holds every word ignoring case: the
 * rule's core, which the SQLite adapter calls with the text SQLite joins. No word holds a line break, so none matches across values.
 */
export function searchTextHolds(text: string, words: readonly string[]): boolean {
  const folded = text.toLowerCase();
  return words.every((w) => folded.includes(w));
}

/** {@link matchesSearchWords} of the trainee's own values. */
export function matchesSearch(trainee: Trainee, words: readonly string[]): boolean {
  const d = trainee.details;
  return matchesSearchWords(d.first_names, d.last_name, d.provider_trainee_id, words);
}
