/**
 * How the list endpoints read a query value and quote it back in a message (docs/reference/API-FACTS.md
 * §14.1): what GET /trainees, GET /changes and a trainee's history share.
 */

/** The leading integer of a value as Ruby's `to_i` reads it (docs/reference/API-FACTS.md §14.1), or null. */
export function leadingInteger(value: string): number | null {
  const m = /^\s*([+-]?\d+)/.exec(value);
  return m ? Number.parseInt(m[1], 10) : null;
}

/**
 * Most characters of a free query value (`since`, `academic_cycle`, `has_trn`, `as_of`): 64, room
 * for an ISO 8601 instant with nanoseconds and an offset (35) and white space around; a longer one
 * answers the endpoint's 422 (docs/DESIGN.md ruling 14; stated as `maxLength` in the documents).
 */
export const QUERY_VALUE_MAX_CHARS = 64;

/** Most characters of a query value that a message quotes (as the write messages, libs/trainees/contract/wire/values.ts). */
const MAX_QUOTED = 200;

/** A query value as the reference's message shows it (`String`), cut at {@link MAX_QUOTED} characters with `…`. */
export function quoted(value: unknown): string {
  const text = String(value);
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
}

/**
 * Adds to `errors` (the list's 422 shape, by parameter) one entry per parameter of `raw` that is
 * not in `known`: a misspelt or guessed parameter (`cursor` for `after`) is refused rather than
 * silently ignored, so a client never re-reads from the start believing it resumed. For the
 * service's own endpoints (the change feed, a trainee's history, the uploads list); the
 * contract's list of trainees keeps the real service's leniency (docs/reference/API-FACTS.md §14).
 */
export function refuseUnknownParameters(
  raw: Record<string, unknown> | undefined,
  known: readonly string[],
  errors: Record<string, string[]>,
): void {
  for (const name of Object.keys(raw ?? {})) {
    if (!known.includes(name)) errors[quoted(name)] = [`is not a parameter of this endpoint; it takes ${known.join(', ')}`];
  }
}
