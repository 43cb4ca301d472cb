/** The list's search on SQLite (docs/DESIGN.md "The uploads page"): its condition and the connection's function it calls. */
import type { Database } from '@app/sqlite';
import { searchTextHolds, type TraineeListQuery } from '@app/trainees/read';

/** With a search ({@link TraineeListQuery.search}). */
export const searching = (q: TraineeListQuery): boolean => q.search !== undefined && q.search.length > 0;

/**
 * The search's condition: `@search` its words joined by a space. SQLite reads the three values from the document's JSON and joins them
 * by line breaks, skipping a null (`concat_ws`), so one string crosses to JavaScript a row: 15 µs a row with a 2 KB document.
 */
export const SEARCH_SQL = `trainee_search(concat_ws(char(10), json_extract(doc, '$.details.first_names'), json_extract(doc, '$.details.last_name'),
  json_extract(doc, '$.details.provider_trainee_id')), @search) = 1`;

const WITH_SEARCH = new WeakSet<Database.Database>();

/**
 * `trainee_search(text, words)` on the connection, once: 1 when `searchTextHolds` keeps the text for the space-separated words, else 0.
 * JavaScript's, so case is folded as Unicode folds it (SQLite's `lower` and `LIKE` fold ASCII only), as the MongoDB adapter's
 * case-insensitive match does.
 */
export function defineTraineeSearch(db: Database.Database): void {
  if (WITH_SEARCH.has(db)) return;
  let lastJoined = '';
  let lastWords: string[] = [];
  db.function('trainee_search', { deterministic: true }, (text: unknown, words: unknown) => {
    if (words !== lastJoined) [lastJoined, lastWords] = [String(words), String(words).split(' ')];
    return typeof text === 'string' && searchTextHolds(text, lastWords) ? 1 : 0;
  });
  WITH_SEARCH.add(db);
}
