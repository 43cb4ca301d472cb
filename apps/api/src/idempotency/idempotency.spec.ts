import { idempotencyKeyOf, requestFingerprint, worthReplaying } from './idempotency';

describe('requestFingerprint (docs/operations.md "Limits": the same key answers again only for the same request)', () => {
  const fp = (body: unknown, method = 'POST', path = '/api/v2026.1/trainees') => requestFingerprint(method, path, body);

  it('ignores key order and spacing, and tells apart method, path, values, types and nesting', () => {
    expect(fp({ data: { a: 1, b: [1, { c: 'x', d: null }] } })).toBe(fp(JSON.parse('{"data":{"b":[1,{"d":null,"c":"x"}],"a":1}}')));
    const variants = [
      fp({ data: { a: 1 } }),
      fp({ data: { a: 1 } }, 'PATCH'),
      fp({ data: { a: 1 } }, 'POST', '/api/v2025.0/trainees'),
      fp({ data: { a: '1' } }),
      fp({ data: { a: [1] } }),
      fp({ data: { a: 1, b: null } }),
      fp({ data: {} }),
      fp([]),
      fp({}),
      fp(undefined),
      fp({ 'a":1,"b': 2 }),
      fp({ a: 1, b: 2 }),
      fp(['a', 'b']),
      fp(['a,b']),
    ];
    expect(new Set(variants).size).toBe(variants.length);
  });

  it('hashes any nesting depth without overflowing the stack, and prototype keys as plain keys', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = i % 2 ? [deep] : { k: deep };
    expect(fp({ data: deep })).toMatch(/^[0-9a-f]{64}$/);
    expect(fp(JSON.parse('{"__proto__":{"a":1}}'))).not.toBe(fp({}));
  });
});

describe('worthReplaying', () => {
  it('keeps 2xx and 4xx answers except 401 and 429; never 5xx', () => {
    expect([200, 201, 202, 400, 404, 409, 413, 422].every(worthReplaying)).toBe(true);
    expect([401, 429, 500, 502, 503, 100, 304].some(worthReplaying)).toBe(false);
  });
});

describe('idempotencyKeyOf', () => {
  it('reads 1 to 255 visible ASCII characters; none is null; anything else is a 400', () => {
    expect(idempotencyKeyOf({ headers: {} })).toBeNull();
    expect(idempotencyKeyOf({ headers: { 'idempotency-key': '5f0c6e1e-0d1b-4bb4-8d3e-3f1f0b9c2a11' } })).toBe(
      '5f0c6e1e-0d1b-4bb4-8d3e-3f1f0b9c2a11',
    );
    expect(idempotencyKeyOf({ headers: { 'idempotency-key': 'x'.repeat(255) } })).toHaveLength(255);
    for (const bad of ['', ' ', 'a b', 'x'.repeat(256), 'é', '\t']) {
      expect(() => idempotencyKeyOf({ headers: { 'idempotency-key': bad } })).toThrow('Idempotency-Key must be 1 to 255');
    }
  });
});
