/**
 * The JSON body parser with its bounds (docs/DESIGN.md ruling 14): before `JSON.parse`, one linear scan refuses a body deeper than
 * {@link JSON_MAX_DEPTH} or with a container over {@link JSON_MAX_ITEMS} items, so no later check walks an unbounded value (deep nesting
 * would overflow the stack of the checks that echo it). 400 in the malformed-JSON shape (ruling 4), naming the limit.
 */

import { JSON_MAX_DEPTH, JSON_MAX_ITEMS } from '@app/trainees/record';

export { JSON_MAX_DEPTH, JSON_MAX_ITEMS };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN = new Set([0x5b, 0x7b]); // [ {
const CLOSE = new Set([0x5d, 0x7d]); // ] }

/** A prototype key, written as is or with `\u` escapes. */
const POISON_HINT = /__proto__|constructor|\\u/;

function refusePrototypeKeys(key: string, value: unknown): unknown {
  const isPrototypeOfConstructor =
    key === 'constructor' && value !== null && typeof value === 'object' && Object.prototype.hasOwnProperty.call(value, 'prototype');
  if (key === '__proto__' || isPrototypeOfConstructor) throw new JsonBodyRefused('object contains forbidden prototype property');
  return value;
}

/** Answered 400 `BadRequest` with its message. */
export class JsonBodyRefused extends Error {
  readonly statusCode = 400;
}

/** Null when within bounds; counted outside strings, linear, no recursion, no allocation per value; malformed text is `JSON.parse`'s. */
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
 * `undefined` for an empty body. Throws {@link JsonBodyRefused} over a bound, and `JSON.parse`'s `SyntaxError` (status 400) for
 * malformed JSON or a prototype key (as Fastify's `onProtoPoisoning: 'error'`).
 */
export function parseJsonBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  const problem = jsonBoundsProblem(text);
  if (problem !== null) throw new JsonBodyRefused(problem);
  try {
    return POISON_HINT.test(text) ? JSON.parse(text, refusePrototypeKeys) : JSON.parse(text);
  } catch (err) {
    (err as Error & { statusCode?: number }).statusCode = 400;
    throw err;
  }
}
