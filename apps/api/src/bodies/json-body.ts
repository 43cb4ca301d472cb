/**
 * The JSON body parser of every request (apps/api/src/create-app.ts) with its bounds (docs/DESIGN.md
 * ruling 14): before `JSON.parse` builds anything, one linear scan of the text refuses a body nested
 * deeper than {@link JSON_MAX_DEPTH} levels or holding an array or object of more than
 * {@link JSON_MAX_ITEMS} items, so that no check after it walks an unbounded value (a value nested
 * thousands deep would overflow the stack of the checks that echo it). Over a bound: 400 in the
 * malformed-JSON shape (docs/DESIGN.md ruling 4), the message naming the limit. The limits are
 * those of libs/trainees/record/limits.ts, stated in the OpenAPI document.
 */

import { JSON_MAX_DEPTH, JSON_MAX_ITEMS } from '@app/trainees/record';

export { JSON_MAX_DEPTH, JSON_MAX_ITEMS };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }

/** Text that may hold a prototype key, written as is or with `\u` escapes. */
const POISON_HINT = /__proto__|constructor|\\u/;

function refusePrototypeKeys(key: string, value: unknown): unknown {
  const isPrototypeOfConstructor =
    key === 'constructor' && value !== null && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, 'prototype');
  if (key === '__proto__' || isPrototypeOfConstructor) throw new JsonBodyRefused('object contains forbidden prototype property');
  return value;
}

/** An error the exception filter answers as 400 `BadRequest` with its message (a parser error). */
export class JsonBodyRefused extends Error {
  readonly statusCode = 400;
}

/**
 * Why `text` exceeds a bound, or null when it does not: the depth of arrays and objects and the
 * item count of each, counted outside strings. Linear in the text, no recursion, no allocation per
 * value; malformed text is left to `JSON.parse`.
 */
export function jsonBoundsProblem(text: string): string | null {
  const commas = new Int32Array(JSON_MAX_DEPTH + 1);
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (OPEN.has(c)) {
      depth++;
      if (depth > JSON_MAX_DEPTH) return `the body is nested deeper than the maximum of ${JSON_MAX_DEPTH} levels`;
      commas[depth] = 0;
    } else if (CLOSE.has(c)) {
      if (depth > 0) depth--;
    } else if (c === COMMA && depth > 0 && ++commas[depth] >= JSON_MAX_ITEMS) {
      return `an array or object of the body has more than the maximum of ${JSON_MAX_ITEMS.toLocaleString('en-GB')} items`;
    }
  }
  return null;
}

/**
 * A request body's text as JSON: `undefined` for an empty body, the parsed value otherwise.
 * Throws {@link JsonBodyRefused} over a bound ({@link jsonBoundsProblem}) and the `SyntaxError` of
 * `JSON.parse` (given status 400) for malformed JSON or a `__proto__` key or `constructor.prototype`
 * (Fastify's default parser's `onProtoPoisoning: 'error'`).
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  const problem = jsonBoundsProblem(text);
  if (problem !== null) throw new JsonBodyRefused(problem);
  try {
    // As Fastify's own JSON parser does, refuse prototype keys (the checks read them as plain data anyway).
    return POISON_HINT.test(text) ? JSON.parse(text, refusePrototypeKeys) : JSON.parse(text);
  } catch (err) {
    (err as Error & { statusCode?: number }).statusCode = 400;
    throw err;
  }
}
