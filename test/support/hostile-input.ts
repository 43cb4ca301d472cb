/**
 * Hostile request parts for property tests over HTTP (docs/DESIGN.md property 7: bad input never
 * yields a 5xx, a stack trace or a partial write): JSON values and query values an attacker or a careless client sends. Generated values
 * are short labels (so fast-check prints a readable counterexample); {@link hostileJsonText} turns a
 * label into the JSON text it stands for, which may be a megabyte long or 10,000 levels deep.
 */
import fc from 'fast-check';

/** Depths of nested arrays and objects, up to 10,000 levels: deep enough to overflow any recursive walk's stack. */
const DEPTHS = [64, 1_000, 5_000, 10_000];
/** Lengths of arrays (elements) and strings (characters). */
const ARRAY_LENGTHS = [1_000, 100_000];
const STRING_LENGTHS = [61, 256, 10_000, 1_000_000];

/** JSON texts that are not generated: numbers JavaScript cannot hold, prototype keys, odd unicode. */
const LITERALS = [
  'null',
  'true',
  'false',
  '0',
  '-0',
  '-1',
  '1.5',
  '1e400',
  '-1e400',
  '1e-400',
  '9223372036854775808',
  '-9223372036854775809',
  '18446744073709551616',
  '{}',
  '[]',
  '""',
  '[null]',
  '[{}]',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"prototype":null,"__proto__":null}',
  '"__proto__"',
  '"constructor"',
  '"NaN"',
  '"Infinity"',
  '"-0"',
  '"1e400"',
  '"9223372036854775808"',
  '" "',
  '"\\u0000"',
  '"\\ud800"',
  '"\\udfff\\ud800x"',
  '"\\u202e\\u200b\\ufeff"',
  '"e\\u0301\\u0301\\u0301"',
  '"𝔘𝔫𝔦𝔠𝔬𝔡𝔢 👩‍👩‍👧‍👦"',
  '"<script>alert(1)</script>"',
  '"\' OR 1=1 --"',
  '"2025-02-30"',
  '"99999-01-01"',
];

/** A label of a hostile JSON value (see {@link hostileJsonText}). */
export const hostileJsonLabel: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...LITERALS).map((text) => `lit:${text}`), weight: 4 },
  { arbitrary: fc.constantFrom(...DEPTHS).map((n) => `deepArray:${n}`), weight: 2 },
  { arbitrary: fc.constantFrom(...DEPTHS).map((n) => `deepObject:${n}`), weight: 2 },
  { arbitrary: fc.constantFrom(...DEPTHS).map((n) => `deepMixed:${n}`), weight: 1 },
  { arbitrary: fc.constantFrom(...ARRAY_LENGTHS).map((n) => `hugeArray:${n}`), weight: 1 },
  { arbitrary: fc.constantFrom(...ARRAY_LENGTHS).map((n) => `hugeObject:${n}`), weight: 1 },
  { arbitrary: fc.constantFrom(...STRING_LENGTHS).map((n) => `longString:${n}`), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => `lit:${JSON.stringify(v) ?? 'null'}`), weight: 2 },
  { arbitrary: fc.fullUnicodeString({ maxLength: 30 }).map((s) => `lit:${JSON.stringify(s)}`), weight: 2 },
);

/** Texts of the generated kinds already built: the same megabyte is asked for again and again. */
const builtTexts = new Map<string, string>();

/** The JSON text a label of {@link hostileJsonLabel} stands for. */
export function hostileJsonText(label: string): string {
  if (label.startsWith('lit:')) return label.slice(4);
  let text = builtTexts.get(label);
  if (text === undefined) builtTexts.set(label, (text = buildJsonText(label)));
  return text;
}

/** Builds the text of a generated kind of label (deep, huge or long). */
function buildJsonText(label: string): string {
  const colon = label.indexOf(':');
  const kind = label.slice(0, colon);
  const arg = label.slice(colon + 1);
  const n = Number(arg);
  switch (kind) {
    case 'deepArray':
      return '['.repeat(n) + ']'.repeat(n);
    case 'deepObject':
      return '{"a":'.repeat(n) + '"x"' + '}'.repeat(n);
    case 'deepMixed':
      return '[{"a":'.repeat(n / 2) + '[]' + '}]'.repeat(n / 2);
    case 'hugeArray':
      return `[${Array.from({ length: n }, (_, i) => (i % 2 ? '"x"' : String(i))).join(',')}]`;
    case 'hugeObject':
      return `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    case 'longString':
      return JSON.stringify('x'.repeat(n));
    default:
      throw new Error(`unknown hostile label ${label}`);
  }
}

/** Values a query parameter may well take, so that hostile values of other parameters reach a listing with records. */
const PLAUSIBLE_QUERY_VALUES: Record<string, string[]> = {
  page: ['1', '2'],
  per_page: ['1', '50', '100'],
  since: ['2020-01-01T00:00:00Z', '2025-08-01'],
  status: ['in_training', 'awarded', 'draft'],
  academic_cycle: ['2025', '2024', '2026'],
  has_trn: ['true', 'false'],
  sort_order: ['asc', 'desc'],
  as_of: ['2025-09-01T00:00:00Z'],
  field: ['sex', 'ethnicity', 'withdrawal_reasons'],
};

/** Numbers a 64-bit integer, a double or a date parser cannot hold. */
const OVERFLOWING_NUMBERS = ['9223372036854775808', '9223372036854775807', '-9223372036854775809', '18446744073709551616', '1e400'];

/** Query values: numbers beyond 64 bits, negative zero, NaN-ish words, empty, long, prototype words, unicode. */
export const hostileQueryValue: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...OVERFLOWING_NUMBERS), weight: 3 },
  {
    arbitrary: fc.constantFrom(
      '1e-400',
      '-0',
      '-1',
      '0',
      '1.5',
      '0x10',
      '1_000',
      ' 1',
      'NaN',
      'Infinity',
      '-Infinity',
      'true',
      'null',
      'undefined',
      '',
      '__proto__',
      'constructor',
      'prototype',
      '2025-02-30',
      '2025-13-45T25:61:61Z',
      '99999-01-01T00:00:00Z',
      '-271821-04-20T00:00:00Z',
      '\u0000',
      '👩‍👩‍👧‍👦',
      "' OR 1=1 --",
    ),
    weight: 4,
  },
  { arbitrary: fc.constantFrom(300, 4_000).map((n) => '9'.repeat(n)), weight: 1 },
  { arbitrary: fc.constantFrom(300, 4_000).map((n) => 'x'.repeat(n)), weight: 1 },
  { arbitrary: fc.fullUnicodeString({ maxLength: 20 }), weight: 1 },
);

/** Query parameters the list and history endpoints read, and keys no endpoint reads. */
export const KNOWN_QUERY_KEYS = ['page', 'per_page', 'since', 'status', 'academic_cycle', 'has_trn', 'sort_order', 'as_of', 'field'];
const STRANGE_QUERY_KEYS = ['__proto__', 'constructor', 'prototype', 'per_page[__proto__]', 'status[]', 'page[]', 'x'.repeat(200)];

/** A value for query key `key`: plausible half of the time when the key has plausible values, else hostile. */
function queryValueFor(key: string): fc.Arbitrary<string> {
  if (!Object.hasOwn(PLAUSIBLE_QUERY_VALUES, key)) return hostileQueryValue;
  return fc.oneof(fc.constantFrom(...PLAUSIBLE_QUERY_VALUES[key]), hostileQueryValue);
}

/**
 * A query string (without `?`): each of `keys` (the operation's own, from the served document) with
 * a probability of one in two, with a value plausible half of the time (so that the other keys'
 * hostile values reach a listing with records) and hostile otherwise; then up to two more parameters
 * from {@link KNOWN_QUERY_KEYS}, prototype words and bracketed keys (keys may repeat: an array in most
 * parsers). Stays under the server's header-size limit.
 */
export function hostileQuery(keys: readonly string[]): fc.Arbitrary<string> {
  const own = fc.tuple(...keys.map((k) => fc.option(queryValueFor(k), { freq: 2 }).map((v) => [k, v] as const)));
  const extra = fc.array(
    fc.constantFrom(...KNOWN_QUERY_KEYS, ...STRANGE_QUERY_KEYS).chain((k) => fc.tuple(fc.constant(k), queryValueFor(k))),
    { maxLength: 2 },
  );
  return fc
    .tuple(own, extra)
    .map(([mine, more]) =>
      [...mine.filter((pair): pair is readonly [string, string] => pair[1] !== null), ...more]
        .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
        .join('&'),
    );
}

/** What an internal failure leaves in an answer: stack frames, exception names, store errors, source paths. */
export const INTERNAL_MESSAGE =
  /\n\s+at |RangeError|TypeError|ReferenceError|SyntaxError: Unexpected|Maximum call stack|SQLITE|sqlite3|Mongo[A-Z]|\.ts:\d|\.js:\d|node_modules/g;

/**
 * The internal messages an answer shows that the request did not itself carry (a service may quote
 * a client's own words back to it), or an empty list.
 */
export function internalMessagesIn(answer: string, request: string): string[] {
  return [...answer.matchAll(INTERNAL_MESSAGE)].map((m) => m[0]).filter((word) => !request.includes(word));
}
