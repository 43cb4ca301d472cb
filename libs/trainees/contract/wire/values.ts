/** Reading parsed JSON of any type and depth in the wire checks: nothing here throws or recurses without a bound. */

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

/** Ruby's `blank?` on a JSON value (docs/reference/API-FACTS.md §7.4). */
export function isBlank(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (isJsonObject(value)) return Object.keys(value).length === 0;
  return false;
}

/** A free-text value: a string, or a finite number's {@link decimalText}; undefined for any other type (invalid). */
export function asText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return decimalText(value);
  return undefined;
}

/**
 * `String(n)` without an exponent (`1.5e-7` is `0.00000015`), so a number sent as free text meets the field's length as its digits
 * do (`1e300` is 301 characters).
 */
export function decimalText(n: number): string {
  const text = String(n);
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!m) return text;
  const [, sign, lead, rest = '', exponent] = m;
  const digits = lead + rest;
  const point = 1 + Number(exponent);
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * The schema bounds a JSON number sent as free text of at most `max` characters meets (none past the double range), and a sentence
 * for the description: fractional digits count too, which a schema cannot state.
 */
export function numberAsTextSchema(max: number): { bounds: Record<string, number>; note: string } {
  const bounds: Record<string, number> = max < 308 ? { exclusiveMinimum: -(10 ** (max - 1)), exclusiveMaximum: 10 ** max } : {};
  return { bounds, note: `A JSON number is taken as its decimal text (no exponent), which must be at most ${max} characters too.` };
}

/** Length in characters (Unicode code points), as Ruby's `String#length` counts. */
export function charLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** Longest echo of a value in a message, in characters (UTF-16 units). */
const MAX_ECHO = 200;
/** Deepest nesting an echo writes out; deeper parts are written `…`. */
const MAX_ECHO_DEPTH = 8;

/**
 * A value echoed "as sent" (docs/reference/API-FACTS.md §6.9): strings as they are, others as JSON text, both bounded, so deep nesting
 * neither overflows the stack nor fills the answer (docs/DESIGN.md ruling 14).
 */
export function echoValue(value: unknown): string {
  if (typeof value === 'string') return value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO)}…` : value;
  if (value === undefined) return '';
  const out = boundedJson(value, 0);
  return out.length > MAX_ECHO ? `${out.slice(0, MAX_ECHO)}…` : out;
}

function boundedJson(value: unknown, depth: number): string {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
    return JSON.stringify(value) ?? 'null';
  }
  if (depth >= MAX_ECHO_DEPTH) return '…';
  const parts: string[] = [];
  let length = 0;
  const entries: [string | null, unknown][] = Array.isArray(value)
    ? value.map((v) => [null, v])
    : Object.keys(value).map((k) => [k, (value as Record<string, unknown>)[k]]);
  for (const [key, item] of entries) {
    if (length > MAX_ECHO) {
      parts.push('…');
      break;
    }
    const text = (key === null ? '' : `${JSON.stringify(key)}:`) + boundedJson(item, depth + 1);
    parts.push(text);
    length += text.length + 1;
  }
  return Array.isArray(value) ? `[${parts.join(',')}]` : `{${parts.join(',')}}`;
}
