/**
 * Small helpers for reading parsed JSON input safely (internal to the validation folder). Input
 * values may be any JSON type; nothing here throws.
 */

/** True when `value` is a JSON object (not null, not an array). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Own-property test that works on prototype-less objects and ignores inherited keys. */
export function hasKey(obj: Record<string, unknown>, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(obj, key);
}

/** The own value at `key`, or undefined (never an inherited one such as `constructor`). */
export function getKey(obj: Record<string, unknown>, key: string): unknown {
  return hasKey(obj, key) ? obj[key] : undefined;
}

/**
 * Ruby's `blank?` on a JSON value: undefined, null, false, a string of only white space, an empty
 * array or an empty object.
 */
export function isBlank(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (isJsonObject(value)) return Object.keys(value).length === 0;
  return false;
}

/**
 * A free-text value as a string: strings as they are, finite JSON numbers as their decimal text;
 * undefined for every other type (booleans, arrays, objects), which callers report as invalid.
 */
export function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Length in characters (Unicode code points), as Ruby's `String#length` counts. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Ruby's `squish`: trimmed, inner runs of white space collapsed to one space. */
export function squish(s: string): string {
  return s.trim().replace(/\s+/g, ' ');
}

/** Removes repeated messages, keeping the first occurrence's position. */
export function uniqueMessages(messages: readonly string[]): string[] {
  return [...new Set(messages)];
}
