/**
 * The packed form of stored metadata reads back as the very text that was hashed (docs/DESIGN.md "Verifiable history"), whatever the
 * text; what cannot pack is stored as text.
 */
import fc from 'fast-check';
import { metadataObject, metadataText, packMetadata } from './packed-metadata';

const ENVELOPE = {
  schemaVersion: 1,
  occurredAt: '2026-12-08T00:33:48.085Z',
  providerUkprn: '10100021',
  apiVersion: 'v2026.1',
  requestId: '35d2fdf7-990f-420c-8883-4b4c5f9aa8d4',
  causationId: '35d2fdf7-990f-420c-8883-4b4c5f9aa8d4',
  correlationId: '35d2fdf7-990f-420c-8883-4b4c5f9aa8d4',
  tokenId: '81890b48-f506-4151-bb6f-d88f3749bb68',
  chainVersion: 2,
  previousHash: '6261e749f01d4525e1992a89249e21856a474e36dd66d49c63ba01862cfa9ec5',
  hash: 'aa7755b42077e43f2d773d1d97f2825873c3364e1a2ee2a760d6c0a5698da370',
};

/** Values like an envelope's, and anything else JSON holds. */
const value = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    2,
    -1,
    1.5,
    2 ** 53,
    '',
    '10100021',
    '0123',
    '1'.repeat(16),
    'v2025.0',
    ENVELOPE.requestId,
    ENVELOPE.requestId.toUpperCase(),
    ENVELOPE.hash,
    ENVELOPE.hash.toUpperCase(),
    ENVELOPE.occurredAt,
    '2026-02-30T10:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    '+275760-09-13T00:00:00.000Z',
    'é "quoted" \\ \u2028',
  ),
  fc.uuid(),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.stringMatching(/^[0-9a-f]{64}$/),
  fc.string(),
  fc.nat(),
  fc.double(),
  fc.jsonValue({ maxDepth: 2 }),
);
const keys = fc.oneof(fc.constantFrom(...Object.keys(ENVELOPE), 'userId', 'traceparent', '__proto__', '1', 'a"b'), fc.string());

describe('packMetadata', () => {
  it('stores any JSON object text as a form that reads back as that text and its parse', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(keys, value), { maxLength: 20 }), (entries) => {
        const text = JSON.stringify(Object.fromEntries(entries));
        const stored = packMetadata(text);
        expect(metadataText(stored)).toBe(text);
        expect(metadataObject(stored)).toEqual(JSON.parse(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads back any text whatever, packed or not', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        expect(metadataText(packMetadata(text))).toBe(text);
      }),
    );
  });

  it('packs an envelope to under a third of its text: ids once, hashes and times as bytes, keys as one byte', () => {
    const text = JSON.stringify(ENVELOPE);
    const stored = packMetadata(text);
    expect(Buffer.isBuffer(stored)).toBe(true);
    expect(text.length).toBe(490);
    expect(stored.length).toBe(141);
    expect(metadataText(stored)).toBe(text);
  });

  it('packs every time toISOString writes from 1970 to 9999 into 6 bytes, and reads it back', () => {
    const times = fc.date({ min: new Date(0), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
    fc.assert(
      fc.property(fc.array(times, { minLength: 1, maxLength: 3 }), (dates) => {
        for (const date of dates) {
          const text = JSON.stringify({ occurredAt: date.toISOString() });
          const stored = packMetadata(text);
          expect(Buffer.isBuffer(stored) && stored.length).toBe(9);
          expect(metadataText(stored)).toBe(text);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps as text what would not read back the same: spacing, a key twice, keys JavaScript reorders, not an object', () => {
    for (const text of ['{"a": 1}', '{"a":1,"a":2}', '{"b":1,"1":2}', '[1]', 'null', '"x"', 'not json', '{"a":1e3}', '{"a":"\\u0041"}']) {
      expect(packMetadata(text)).toBe(text);
    }
  });

  it('refuses a packed form of an unknown format, key or tag rather than guessing', () => {
    expect(() => metadataText(Buffer.from([9]))).toThrow(/unknown format 9/);
    expect(() => metadataText(Buffer.from([1, 200, 0]))).toThrow(/unknown key 200/);
    expect(() => metadataText(Buffer.from([1, 0, 99]))).toThrow(/unknown value tag 99/);
    expect(() => metadataText(Buffer.from([1, 0, 8, 0]))).toThrow(/later value/);
    expect(() => metadataText(Buffer.from([1, 0, 5, 1]))).toThrow(/ends early/);
  });
});
