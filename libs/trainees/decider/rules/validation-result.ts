import type { MessageList } from './request-data';

/**
 * Outcome of a validator: the validated, normalised value, or every failed rule's message (one
 * string per rule, worded byte for byte as docs/reference/API-FACTS.md gives it, in a stable order).
 * Validators never throw on their typed input.
 */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: string[] };

/**
 * The outcome of one record's rules (a placement, a degree): `value` when there is one and no rule
 * recorded a message, else every message of `messages` in the record's message `order`
 * (docs/DESIGN.md ruling 4).
 */
export function recordResult<T>(value: T | null, messages: MessageList, order: readonly string[]): ValidationResult<T> {
  return value && messages.isEmpty ? { ok: true, value } : { ok: false, errors: messages.sorted([order]) };
}
