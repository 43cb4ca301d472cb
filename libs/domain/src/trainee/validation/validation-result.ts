import type { ApiVersion } from '../../api-version';
import type { School } from '../trainee.details';

/**
 * Outcome of a validator: the validated, normalised value, or every failed rule's message (one
 * string per rule, worded byte for byte as docs/reference/API-FACTS.md gives it, in a stable order). Validators never
 * throw on bad input; a wrong JSON type is a message like any other.
 */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/** What every validator needs from outside: the API version and "today" (no clock in the domain). */
export interface ValidationContext {
  version: ApiVersion;
  /** `YYYY-MM-DD`, the current date in UTC. */
  today: string;
  /** Schools of the directory for the URNs the input names (looked up by the caller); none when absent. */
  schools?: ReadonlyMap<string, School>;
}
