import { randomBytes } from 'node:crypto';
import { ERASED, isSealed, openFields, SEALED_VALUE, sealFields, SealedValuesNotOpened } from './sealed-fields';

describe('sealFields / openFields: personal values sealed with a trainee data key (docs/DESIGN.md "Personal data")', () => {
  const key = randomBytes(32);
  const data = {
    trainee_id: 'T1',
    details: { first_names: 'Zebediah', last_name: 'Quill', training_route: '11', disabilities: { disability1: '58' } },
    defer_reason: null,
    at: '2026-01-01T00:00:00.000Z',
  };
  const paths = ['details.first_names', 'details.last_name', 'details.disabilities', 'details.email', 'defer_reason', 'trn'];

  it('takes the present values out (null is none), seals them together, names their places in the clear, and leaves the rest', () => {
    const sealed = sealFields(data, paths, key, 'trainee-T1');
    expect(sealed).toEqual({
      trainee_id: 'T1',
      details: { first_names: SEALED_VALUE, last_name: SEALED_VALUE, training_route: '11', disabilities: SEALED_VALUE },
      defer_reason: null,
      at: '2026-01-01T00:00:00.000Z',
      sealed: { fields: ['details.first_names', 'details.last_name', 'details.disabilities'], box: expect.any(String) },
    });
    expect(JSON.stringify(sealed)).not.toMatch(/Zebediah|Quill|"58"/);
    expect(data.details.first_names).toBe('Zebediah');
    expect(isSealed(sealed)).toBe(true);
    expect(isSealed(data)).toBe(false);
  });

  it('opens to exactly the data it sealed (a null value too), its keys in the same order', () => {
    const opened = openFields(sealFields(data, paths, key, 'trainee-T1'), key, 'trainee-T1');
    expect(opened).toEqual(data);
    expect(Object.keys(opened)).toEqual(Object.keys(data));
    expect(Object.keys(opened.details as object)).toEqual(Object.keys(data.details));
    expect(JSON.stringify(opened)).toBe(JSON.stringify(data));
  });

  it('opens an event sealed before the places kept their keys (values taken out, keys gone)', () => {
    const sealed = sealFields(data, paths, key, 'trainee-T1') as { details: Record<string, unknown> };
    const details: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(sealed.details)) if (v !== SEALED_VALUE) details[k] = v;
    const older = { ...sealed, details };
    expect(Object.keys(details)).toEqual(['training_route']);
    expect(openFields(older, key, 'trainee-T1')).toEqual(data);
    expect(openFields(older, 'erased', 'trainee-T1')).toEqual({
      ...data,
      details: { training_route: '11', first_names: ERASED, last_name: ERASED, disabilities: ERASED },
    });
  });

  it('leaves the data it seals and the data it opens unchanged', () => {
    const before = JSON.stringify(data);
    const sealed = sealFields(data, paths, key, 'trainee-T1');
    const stored = JSON.stringify(sealed);
    openFields(sealed, key, 'trainee-T1');
    openFields(sealed, 'erased', 'trainee-T1');
    expect(JSON.stringify(data)).toBe(before);
    expect(JSON.stringify(sealed)).toBe(stored);
  });

  it('gives [erased] for every sealed value once the key is gone, and keeps the field names', () => {
    const opened = openFields(sealFields(data, paths, key, 'trainee-T1'), 'erased', 'trainee-T1');
    expect(opened).toEqual({
      ...data,
      details: { first_names: ERASED, last_name: ERASED, training_route: '11', disabilities: ERASED },
    });
  });

  it('seals with a fresh IV each time: the same values never give the same box', () => {
    const a = sealFields(data, paths, key, 'trainee-T1').sealed as { box: string };
    const b = sealFields(data, paths, key, 'trainee-T1').sealed as { box: string };
    expect(a.box).not.toBe(b.box);
  });

  it('refuses a box altered, opened with another key, or moved to another stream', () => {
    const sealed = sealFields(data, paths, key, 'trainee-T1') as { sealed: { box: string; fields: string[] } };
    const bytes = Buffer.from(sealed.sealed.box, 'base64');
    bytes[20] ^= 1;
    const altered = { ...sealed, sealed: { ...sealed.sealed, box: bytes.toString('base64') } };
    expect(() => openFields(altered, key, 'trainee-T1')).toThrow(SealedValuesNotOpened);
    expect(() => openFields(sealed, randomBytes(32), 'trainee-T1')).toThrow(SealedValuesNotOpened);
    expect(() => openFields(sealed, key, 'trainee-T2')).toThrow(SealedValuesNotOpened);
    const fewerFields = { ...sealed, sealed: { ...sealed.sealed, fields: ['details.first_names'] } };
    expect(() => openFields(fewerFields, key, 'trainee-T1')).toThrow(SealedValuesNotOpened);
  });

  it('returns data holding none of the places as it is', () => {
    const plain = { trainee_id: 'T1', at: 'x' };
    expect(sealFields(plain, paths, key, 'trainee-T1')).toBe(plain);
    expect(openFields(plain, key, 'trainee-T1')).toBe(plain);
  });
});
