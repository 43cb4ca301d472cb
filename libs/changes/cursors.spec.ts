import fc from 'fast-check';
import { logPosition as at } from '@app/event-sourcing';
import { CURSOR_CHARS, CursorCodec } from './cursors';

const KEY = Buffer.alloc(32, 7);
const codec = new CursorCodec(KEY);
const A = '10000001';
const B = '10000002';

/** `cursor` with one bit of byte `i` flipped, in base64url. */
function flipped(cursor: string, i: number): string {
  const bytes = Buffer.from(cursor, 'base64url');
  bytes[i] ^= 1;
  return bytes.toString('base64url');
}

describe('CursorCodec (docs/change-feed.md "Cursors")', () => {
  it('round-trips every position for its provider, in cursors of one length', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (position) => {
        const cursor = codec.encode(A, at(position));
        return cursor.length === CURSOR_CHARS && codec.decode(A, cursor) === position;
      }),
    );
  });

  it('gives the same cursor for the same provider and position, and another for another provider or key', () => {
    expect(codec.encode(A, at(42))).toBe(codec.encode(A, at(42)));
    expect(new CursorCodec(KEY).encode(A, at(42))).toBe(codec.encode(A, at(42)));
    expect(codec.encode(B, at(42))).not.toBe(codec.encode(A, at(42)));
    expect(new CursorCodec(Buffer.alloc(32, 8)).encode(A, at(42))).not.toBe(codec.encode(A, at(42)));
  });

  it('shows nothing of the position: neighbouring positions share no more than chance', () => {
    const a = Buffer.from(codec.encode(A, at(1000)), 'base64url');
    const b = Buffer.from(codec.encode(A, at(1001)), 'base64url');
    const same = a.subarray(1).filter((byte, i) => byte === b[i + 1]).length;
    expect(same).toBeLessThan(6);
    expect(a.toString('latin1')).not.toContain('1000');
  });

  it("refuses another provider's cursor, another key's, and every one-bit change", () => {
    const cursor = codec.encode(A, at(42));
    expect(codec.decode(B, cursor)).toBeNull();
    expect(new CursorCodec(Buffer.alloc(32, 8)).decode(A, cursor)).toBeNull();
    for (let i = 0; i < Buffer.from(cursor, 'base64url').length; i++) expect(codec.decode(A, flipped(cursor, i))).toBeNull();
  });

  it.each([
    ['empty', ''],
    ['the old format (p1.<position>)', Buffer.from('p1.42').toString('base64url')],
    ['padded', `${codec.encode(A, at(5))}=`],
    ['one character short', codec.encode(A, at(5)).slice(1)],
    ['too long', 'A'.repeat(CURSOR_CHARS + 1)],
    ['of another alphabet', codec.encode(A, at(5)).replace(/.$/, '+')],
    ['made up', 'A'.repeat(CURSOR_CHARS)],
  ])('refuses a cursor that is %s', (_, cursor) => {
    expect(codec.decode(A, cursor)).toBeNull();
  });

  it('refuses a key of another length', () => {
    expect(() => new CursorCodec(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});
