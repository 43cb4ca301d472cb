import { randomBytes } from 'node:crypto';
import {
  BOX_VERSION,
  ERASED,
  isSealed,
  openFields,
  SEALED_VALUE,
  sealFields,
  SealedValuesNotOpened,
  type BoxBinding,
} from './sealed-fields';

describe('sealFields / openFields: personal values sealed with a trainee data key (docs/DESIGN.md "Personal data")', () => {
  const key = randomBytes(32);
  const data = {
    trainee_id: 'T1',
    details: { first_names: 'Zebediah', last_name: 'Quill', training_route: '11', disabilities: { disability1: '58' } },
    defer_reason: null,
    at: '2026-01-01T00:00:00.000Z',
  };
  const EVENT: BoxBinding = { streamId: 'trainee-T1', eventId: '6f1c2d3e-0000-4000-8000-000000000001', type: 'TraineeRegistered' };
  const paths = ['details.first_names', 'details.last_name', 'details.disabilities', 'details.email', 'defer_reason', 'trn'];

  it('takes the present values out (null is none), seals them together, names their places in the clear, and leaves the rest', () => {
    const sealed = sealFields(data, paths, key, EVENT);
    expect(sealed).toEqual({
      trainee_id: 'T1',
      details: { first_names: SEALED_VALUE, last_name: SEALED_VALUE, training_route: '11', disabilities: SEALED_VALUE },
      defer_reason: null,
      at: '2026-01-01T00:00:00.000Z',
      sealed: {
        fields: ['details.first_names', 'details.last_name', 'details.disabilities'],
        box: expect.any(String),
        version: BOX_VERSION,
      },
    });
    expect(JSON.stringify(sealed)).not.toMatch(/Zebediah|Quill|"58"/);
    expect(data.details.first_names).toBe('Zebediah');
    expect(isSealed(sealed)).toBe(true);
    expect(isSealed(data)).toBe(false);
  });

  it('opens to exactly the data it sealed (a null value too), its keys in the same order', () => {
    const opened = openFields(sealFields(data, paths, key, EVENT), key, EVENT);
    expect(opened).toEqual(data);
    expect(Object.keys(opened)).toEqual(Object.keys(data));
    expect(Object.keys(opened.details as object)).toEqual(Object.keys(data.details));
    expect(JSON.stringify(opened)).toBe(JSON.stringify(data));
  });

  it('opens an event sealed before the places kept their keys (values taken out, keys gone)', () => {
    const sealed = sealFields(data, paths, key, EVENT) as { details: Record<string, unknown> };
    const details: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(sealed.details)) if (v !== SEALED_VALUE) details[k] = v;
    const older = { ...sealed, details };
    expect(Object.keys(details)).toEqual(['training_route']);
    expect(openFields(older, key, EVENT)).toEqual(data);
    expect(openFields(older, 'erased', EVENT)).toEqual({
      ...data,
      details: { training_route: '11', first_names: ERASED, last_name: ERASED, disabilities: ERASED },
    });
  });

  it('leaves the data it seals and the data it opens unchanged', () => {
    const before = JSON.stringify(data);
    const sealed = sealFields(data, paths, key, EVENT);
    const stored = JSON.stringify(sealed);
    openFields(sealed, key, EVENT);
    openFields(sealed, 'erased', EVENT);
    expect(JSON.stringify(data)).toBe(before);
    expect(JSON.stringify(sealed)).toBe(stored);
  });

  it('gives [erased] for every sealed value once the key is gone, and keeps the field names', () => {
    const opened = openFields(sealFields(data, paths, key, EVENT), 'erased', EVENT);
    expect(opened).toEqual({
      ...data,
      details: { first_names: ERASED, last_name: ERASED, training_route: '11', disabilities: ERASED },
    });
  });

  it('seals with a fresh IV each time: the same values never give the same box', () => {
    const a = sealFields(data, paths, key, EVENT).sealed as { box: string };
    const b = sealFields(data, paths, key, EVENT).sealed as { box: string };
    expect(a.box).not.toBe(b.box);
  });

  it('refuses a box altered, opened with another key, or moved to another stream', () => {
    const sealed = sealFields(data, paths, key, EVENT) as { sealed: { box: string; fields: string[] } };
    const bytes = Buffer.from(sealed.sealed.box, 'base64');
    bytes[20] ^= 1;
    const altered = { ...sealed, sealed: { ...sealed.sealed, box: bytes.toString('base64') } };
    expect(() => openFields(altered, key, EVENT)).toThrow(SealedValuesNotOpened);
    expect(() => openFields(sealed, randomBytes(32), EVENT)).toThrow(SealedValuesNotOpened);
    expect(() => openFields(sealed, key, { ...EVENT, streamId: 'trainee-T2' })).toThrow(SealedValuesNotOpened);
    const fewerFields = { ...sealed, sealed: { ...sealed.sealed, fields: ['details.first_names'] } };
    expect(() => openFields(fewerFields, key, EVENT)).toThrow(SealedValuesNotOpened);
  });

  it('refuses a box moved to another event of the same trainee, or to an event of another type', () => {
    const sealed = sealFields(data, paths, key, EVENT);
    expect(openFields(sealed, key, EVENT)).toEqual(data);
    expect(() => openFields(sealed, key, { ...EVENT, eventId: '6f1c2d3e-0000-4000-8000-000000000002' })).toThrow(SealedValuesNotOpened);
    expect(() => openFields(sealed, key, { ...EVENT, type: 'TraineeUpdated' })).toThrow(SealedValuesNotOpened);
  });

  it('refuses a box whose field list was reordered (which would swap the values between fields), or whose version was removed or changed', () => {
    const sealed = sealFields(data, paths, key, EVENT) as { sealed: { box: string; fields: string[]; version?: number } };
    const [first, last, ...rest] = sealed.sealed.fields;
    const reordered = { ...sealed, sealed: { ...sealed.sealed, fields: [last, first, ...rest] } };
    expect(() => openFields(reordered, key, EVENT)).toThrow(SealedValuesNotOpened);
    expect(() => openFields(reordered, key, EVENT)).toThrow(
      'sealed personal values do not open with the trainee data key (altered, or sealed for another trainee)',
    );
    const { version: _version, ...unversioned } = sealed.sealed;
    expect(() => openFields({ ...sealed, sealed: unversioned }, key, EVENT)).toThrow(SealedValuesNotOpened);
    expect(() => openFields({ ...sealed, sealed: { ...sealed.sealed, version: 3 } }, key, EVENT)).toThrow(SealedValuesNotOpened);
  });

  describe('a box sealed before boxes had a version (bound to its stream alone)', () => {
    // Stored as a service sealed it then: key 32 bytes of 7, authenticated data the stream id.
    const oldKey = Buffer.alloc(32, 7);
    const stored = {
      trainee_id: 'T1',
      details: { first_names: SEALED_VALUE, last_name: SEALED_VALUE, training_route: '11' },
      sealed: {
        fields: ['details.first_names', 'details.last_name'],
        box: 'AQEBAQEBAQEBAQEBLcPT0vLaiGewvP4NUmYFWMSXNqlxg+ruWGTEy3Ydd6Qp3aPF',
      },
    };
    const opened = { trainee_id: 'T1', details: { first_names: 'Zebediah', last_name: 'Quill', training_route: '11' } };

    it('still opens, in whatever event of its stream it is read', () => {
      expect(openFields(stored, oldKey, EVENT)).toEqual(opened);
      expect(openFields(stored, oldKey, { ...EVENT, eventId: 'another', type: 'TraineeUpdated' })).toEqual(opened);
    });

    it('does not open in another stream, with another key, or marked with the current version', () => {
      expect(() => openFields(stored, oldKey, { ...EVENT, streamId: 'trainee-T2' })).toThrow(SealedValuesNotOpened);
      expect(() => openFields(stored, key, EVENT)).toThrow(SealedValuesNotOpened);
      expect(() => openFields({ ...stored, sealed: { ...stored.sealed, version: BOX_VERSION } }, oldKey, EVENT)).toThrow(
        SealedValuesNotOpened,
      );
    });
  });

  it('returns data holding none of the places as it is', () => {
    const plain = { trainee_id: 'T1', at: 'x' };
    expect(sealFields(plain, paths, key, EVENT)).toBe(plain);
    expect(openFields(plain, key, EVENT)).toBe(plain);
  });
});
