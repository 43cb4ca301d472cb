import { JSON_MAX_DEPTH, JSON_MAX_ITEMS, JsonBodyRefused, jsonBoundsProblem, parseJsonBody } from './json-body';

const nested = (depth: number): string => `${'['.repeat(depth)}1${']'.repeat(depth)}`;
const items = (n: number): string => `[${Array(n).fill('{"a":1}').join(',')}]`;

/** The bounds of the JSON body parser (docs/DESIGN.md ruling 14). */
describe('parseJsonBody', () => {
  it('parses a real body and an empty one', () => {
    expect(parseJsonBody('{"data":{"placements_attributes":[{"urn":"1"}]}}')).toEqual({ data: { placements_attributes: [{ urn: '1' }] } });
    expect(parseJsonBody('  ')).toBeUndefined();
  });

  it(`accepts ${JSON_MAX_DEPTH} levels and refuses one more, naming the limit`, () => {
    expect(jsonBoundsProblem(nested(JSON_MAX_DEPTH))).toBeNull();
    expect(jsonBoundsProblem(nested(JSON_MAX_DEPTH + 1))).toContain(`maximum of ${JSON_MAX_DEPTH} levels`);
    expect(() => parseJsonBody(nested(100_000))).toThrow(JsonBodyRefused);
  });

  it(`accepts ${JSON_MAX_ITEMS} items in an array or object and refuses one more`, () => {
    expect(jsonBoundsProblem(items(JSON_MAX_ITEMS))).toBeNull();
    expect(jsonBoundsProblem(items(JSON_MAX_ITEMS + 1))).toContain('maximum of 1,000 items');
    const members = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}`;
    expect(jsonBoundsProblem(members(JSON_MAX_ITEMS))).toBeNull();
    expect(jsonBoundsProblem(members(JSON_MAX_ITEMS + 1))).not.toBeNull();
  });

  it('counts items per container, not across siblings', () => {
    const half = Array(JSON_MAX_ITEMS - 1)
      .fill('1')
      .join(',');
    expect(jsonBoundsProblem(`[[${half}],[${half}]]`)).toBeNull();
  });

  it('ignores brackets, commas and escaped quotes inside strings', () => {
    const text = `{"a":"${'[{,'.repeat(5000)}\\"${'['.repeat(100)}"}`;
    expect(jsonBoundsProblem(text)).toBeNull();
    expect(parseJsonBody(text)).toEqual({ a: `${'[{,'.repeat(5000)}"${'['.repeat(100)}` });
  });

  it('leaves malformed JSON to JSON.parse, as a 400', () => {
    expect(() => parseJsonBody('{"a":')).toThrow(expect.objectContaining({ statusCode: 400 }));
    expect(() => parseJsonBody(']]]]{')).toThrow(SyntaxError);
  });

  it('carries status 400 on a refused body', () => {
    expect(() => parseJsonBody(nested(JSON_MAX_DEPTH + 1))).toThrow(expect.objectContaining({ statusCode: 400 }));
  });
});

describe('parseJsonBody and prototype keys', () => {
  it.each(['{"__proto__":{"a":1}}', '{"a":{"\\u005f_proto__":1}}', '{"constructor":{"prototype":{"a":1}}}'])(
    'refuses %s with a 400',
    (text) => {
      expect(() => parseJsonBody(text)).toThrow(
        expect.objectContaining({ statusCode: 400, message: 'object contains forbidden prototype property' }),
      );
    },
  );

  it('keeps a constructor key with a plain value', () => {
    expect(parseJsonBody('{"constructor":"x"}')).toEqual({ constructor: 'x' });
  });
});
