/** How the list endpoints read a query value and quote it back (API-FACTS §14.1). */

/** As Ruby's `to_i` reads it (API-FACTS §14.1), or null. */
export function leadingInteger(value: string): number | null {
  const m = /^\s*([+-]?\d+)/.exec(value);
  return m ? Number.parseInt(m[1], 10) : null;
}

/** Room for an ISO 8601 instant with nanoseconds and offset (35) and spaces; longer answers 422 (docs/DESIGN.md ruling 14). */
export const QUERY_VALUE_MAX_CHARS = 64;

/** As the write messages (libs/trainees/contract/wire/values.ts). */
const MAX_QUOTED = 200;

/** As the reference's message shows it (`String`), cut with `…`. */
export function quoted(value: unknown): string {
  const text = String(value);
  return text.length > MAX_QUOTED ? `${text.slice(0, MAX_QUOTED)}…` : text;
}

/**
 * One `errors` entry per parameter of `raw` not `known`: a guessed `cursor` for `after` is refused, not ignored, so a client never
 * re-reads from the start believing it resumed. The service's own endpoints only; the trainee list keeps the reference's leniency (§14).
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
