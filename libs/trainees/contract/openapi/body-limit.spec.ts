import { BODY_MAX_BYTES, DISABILITY_KEYS_MAX, type JsonSchema } from '@app/trainees/record';
import { DISABILITY_KEY } from '../wire/trainee.wire';
import { BOTH } from '../testing/trainee-payload';
import { openApiSchemas } from './components';

/** Most bytes JSON can spend on one character: an astral one written as two `\uXXXX` escapes. */
const BYTES_PER_CHAR = 12;
/** Most bytes of one ASCII character of a code, a date or a number: a `\u00XX` escape. */
const BYTES_PER_ASCII = 6;
/** The margin the limit keeps over the largest valid body (white space, echoed read-only keys). */
const MARGIN = 1.5;

/**
 * The most bytes a value valid under `schema` can take in a JSON body, every character written as
 * its longest escape. Throws naming `path` where the schema sets no bound (a string without
 * `maxLength`, `enum` or `format: date`; an array without `maxItems`): every input has a bound
 * (docs/DESIGN.md ruling 14).
 */
function maxBytes(schemas: Record<string, JsonSchema>, schema: JsonSchema, path: string): number {
  const s = typeof schema.$ref === 'string' ? schemas[schema.$ref.split('/').pop()!] : schema;
  const alternatives = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  if (alternatives) return Math.max(...alternatives.map((a) => maxBytes(schemas, a, path)));
  if (Array.isArray(s.enum)) return Math.max(...s.enum.map((v) => BYTES_PER_ASCII * JSON.stringify(v).length));
  const types = ([] as unknown[]).concat(s.type ?? []);
  if (types.includes('object') || s.properties) {
    let n = 2;
    for (const [key, value] of Object.entries((s.properties ?? {}) as Record<string, JsonSchema>))
      n += key.length + 4 + maxBytes(schemas, value, `${path}.${key}`);
    for (const [pattern, value] of Object.entries((s.patternProperties ?? {}) as Record<string, JsonSchema>)) {
      // JSON Schema cannot count the keys of one pattern; the disabilityN keys' bound is in their description.
      if (pattern !== DISABILITY_KEY.source) throw new Error(`${path} /${pattern}/: keys without a bound`);
      n += DISABILITY_KEYS_MAX * ('disability99'.length + 4 + maxBytes(schemas, value, `${path}./${pattern}/`));
    }
    return n;
  }
  if (types.includes('array')) {
    if (typeof s.maxItems !== 'number') throw new Error(`${path}: an array without maxItems`);
    return 2 + s.maxItems * (1 + maxBytes(schemas, s.items as JsonSchema, `${path}[]`));
  }
  if (types.includes('string')) {
    if (typeof s.maxLength === 'number') return 2 + BYTES_PER_CHAR * s.maxLength;
    if (s.format === 'date') return 2 + BYTES_PER_ASCII * 10;
    throw new Error(`${path}: a string without maxLength`);
  }
  if (types.includes('number') || types.includes('integer')) return BYTES_PER_ASCII * 24;
  return 5;
}

describe('the body limit (docs/DESIGN.md ruling 14)', () => {
  it.each(BOTH)(`holds the largest body %s accepts, with a margin of ${MARGIN}×, and every request field has a bound`, (version) => {
    const schemas = openApiSchemas(version);
    const requests = Object.keys(schemas).filter((name) => name.endsWith('Request') && name !== 'BadRequest');
    expect(requests).toEqual(expect.arrayContaining(['TraineeCreateRequest', 'TraineeUpdateRequest', 'PlacementRequest', 'DegreeRequest']));
    const sizes = Object.fromEntries(requests.map((name) => [name, maxBytes(schemas, schemas[name], name)]));
    const largest = Math.max(...Object.values(sizes));
    expect(largest).toBe(sizes.TraineeCreateRequest);
    expect(largest * MARGIN).toBeLessThanOrEqual(BODY_MAX_BYTES);
    // Not so far above it that a body of ignored keys costs much more than a real one.
    expect(largest * 3).toBeGreaterThan(BODY_MAX_BYTES);
  });
});
