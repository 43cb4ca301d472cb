/**
 * The `Enhanced-Errors: true` form of a trainee create or update 422 (docs/reference/API-FACTS.md §5.4): messages keyed by their
 * first word; with `nested`, the nested items' messages grouped under their attribute, keyed by field.
 */
import { DEGREE_MESSAGE_ORDER, NESTED_PLACEMENT_PREFIX, PLACEMENT_MESSAGE_ORDER } from '@app/trainees/decider';

/** The body of an enhanced 422. */
export interface EnhancedErrors {
  message: string;
  errors: Record<string, unknown>;
}

/** The first word of a message and the rest. */
function split(message: string): [string, string] {
  const i = message.indexOf(' ');
  return i < 0 ? [message, ''] : [message.slice(0, i), message.slice(i + 1)];
}

function push(into: Record<string, unknown>, key: string, value: string): void {
  const list = (into[key] as string[] | undefined) ?? [];
  list.push(value);
  into[key] = list;
}

/**
 * A 422's messages in the order answered. A degree message starts with a degree field (no trainee field shares one); a placement
 * message, with the nested prefix and a placement field. One about the whole attribute goes under the group's `base`.
 */
export function enhancedErrors(messages: readonly string[], opts: { nested: boolean }): EnhancedErrors {
  const errors: Record<string, unknown> = {};
  const group = (name: string): Record<string, unknown> => {
    const existing = errors[name];
    if (existing && typeof existing === 'object' && !Array.isArray(existing)) return existing as Record<string, unknown>;
    const created: Record<string, unknown> = {};
    if (Array.isArray(existing)) created.base = existing;
    errors[name] = created;
    return created;
  };
  for (const message of messages) {
    const [field, text] = split(message);
    if (message.startsWith(NESTED_PLACEMENT_PREFIX)) {
      const rest = message.slice(NESTED_PLACEMENT_PREFIX.length);
      const [nestedField, nestedText] = split(rest);
      if (!opts.nested) {
        push(errors, 'placements_attributes', rest);
        continue;
      }
      if (PLACEMENT_MESSAGE_ORDER.includes(nestedField)) {
        push(group('placements_attributes'), nestedField, nestedText);
        continue;
      }
    }
    if (opts.nested && DEGREE_MESSAGE_ORDER.includes(field)) {
      push(group('degrees_attributes'), field, text);
      continue;
    }
    const existing = errors[field];
    if (existing && typeof existing === 'object' && !Array.isArray(existing)) push(existing as Record<string, unknown>, 'base', text);
    else push(errors, field, text);
  }
  const n = messages.length;
  return { message: `Validation failed: ${n} ${n === 1 ? 'error' : 'errors'} prohibited this trainee from being saved`, errors };
}
