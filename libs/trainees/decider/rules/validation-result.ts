import type { InputProblem, MessageList } from './request-data';

/**
 * A validator's outcome: the normalised value, or every failed rule's message as docs/reference/API-FACTS.md words it, in order, and
 * the same problems with where and what each is about.
 */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: string[]; problems?: readonly InputProblem[] };

/** The failed outcome of `messages` in `order`. */
export function failedResult(
  messages: MessageList,
  order: readonly (readonly string[])[],
): { ok: false; errors: string[]; problems: InputProblem[] } {
  const problems = messages.sortedProblems(order);
  return { ok: false, errors: problems.map((p) => p.message), problems };
}

/** `value` when there is one and no message, else every message in `order` (docs/DESIGN.md ruling 4). */
export function recordResult<T>(value: T | null, messages: MessageList, order: readonly string[]): ValidationResult<T> {
  return value && messages.isEmpty ? { ok: true, value } : { ok: false, errors: messages.sorted([order]) };
}
