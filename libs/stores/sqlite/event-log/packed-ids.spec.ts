/** An event id stored packed reads back as the id the store keeps (lower-case); anything else is stored as its text. */
import fc from 'fast-check';
import { eventIdText, packEventId, storedIdForms } from './packed-ids';

describe('packEventId', () => {
  it('stores a lower-case UUID as its 16 bytes and reads it back', () => {
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        const stored = packEventId(id);
        expect(Buffer.isBuffer(stored) && stored.length).toBe(16);
        expect(eventIdText(stored)).toBe(id);
        expect(eventIdText(new Uint8Array(stored as Buffer))).toBe(id);
      }),
    );
  });

  it('keeps any other text as it is, so that it reads back the same', () => {
    const upper = '0B1C2D3E-4F50-4a6b-8c7d-9e0f1a2b3c4d';
    for (const id of [upper, 'not-an-id', '', `${upper.toLowerCase()} `]) expect(packEventId(id)).toBe(id);
    fc.assert(fc.property(fc.string(), (id) => expect(eventIdText(packEventId(id))).toBe(id)));
  });

  it('looks an id up in both its forms, and refuses a BLOB that is no packed id', () => {
    const id = '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d';
    expect(storedIdForms(id)).toEqual([Buffer.from('0b1c2d3e4f504a6b8c7d9e0f1a2b3c4d', 'hex'), id]);
    expect(() => eventIdText(Buffer.alloc(15))).toThrow(/15 bytes/);
  });
});
