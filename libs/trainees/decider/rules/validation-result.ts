/**
 * Outcome of a validator: the validated, normalised value, or every failed rule's message (one
 * string per rule, worded byte for byte as docs/reference/API-FACTS.md gives it, in a stable order).
 * Validators never throw on their typed input.
 */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };
