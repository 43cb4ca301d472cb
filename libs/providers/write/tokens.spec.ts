/** API tokens (API-FACTS §2.2–2.3): format, stored hash; the Authorization header (docs/DESIGN.md ruling 20). */
import { formatToken, hashToken, tokenFromAuthorizationHeader } from './tokens';

describe('API tokens', () => {
  it('formats `<environment>_<64 lower-case hex>` from 32 bytes, and refuses any other length', () => {
    expect(formatToken('sandbox', new Uint8Array(32).fill(0xab))).toBe(`sandbox_${'ab'.repeat(32)}`);
    expect(() => formatToken('sandbox', new Uint8Array(31))).toThrow(/32 random bytes/);
  });

  it('hashes with SHA-256, lower-case hex (the value the provider read model stores)', () => {
    expect(hashToken(`test_${'0'.repeat(64)}`)).toBe('8b3ebb4e5033f43e87bf86b1d310a3899986f2a2ceda9173734022e237b163ce');
  });

  it.each([
    ['Bearer abc', 'abc'],
    [`Bearer sandbox_${'ab'.repeat(32)}`, `sandbox_${'ab'.repeat(32)}`],
    ['Bearer a-b.c_d~e+f/g==', 'a-b.c_d~e+f/g=='],
    ['Bearer  abc', 'abc'],
    ['Bearer abc ', 'abc'],
    ['abc', 'abc'],
    [`  sandbox_${'ab'.repeat(32)}\t`, `sandbox_${'ab'.repeat(32)}`],
    ['Bearer\tabc', 'Bearer\tabc'],
    ['Bearer a bc', 'a bc'],
    ['bearer abc', 'bearer abc'],
    ['BEARER abc', 'BEARER abc'],
    ['Basic abc', 'Basic abc'],
    ['Bearer ', null],
    ['Bearer    ', null],
    ['   ', null],
    ['', null],
    [undefined, null],
  ])('reads the token of the header %j as %j', (header, token) => {
    expect(tokenFromAuthorizationHeader(header)).toBe(token);
  });
});
