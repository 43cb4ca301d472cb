import { MISSING_DATA_MESSAGE, schoolAddress } from '@app/trainees/decider';
import type { School } from '@app/trainees/record';
import { isValidUkPostcode } from './constraints';
import { placementBody, placementUpdateBody } from '../testing/bodies';

const OAK: School = { urn: '100000', name: 'Oak Primary School', town: 'Guildford', postcode: 'GU1 1AA' };
const ctx = { version: 'v2026.1' as const, today: '2026-11-22', schools: new Map([[OAK.urn, OAK]]) };
const POSTCODE_MESSAGE = 'postcode Enter a valid postcode (for example, BN1 1AA)';

describe('placementBody (docs/reference/API-FACTS.md §10.1, §10.3)', () => {
  it('keeps the urn, name and postcode of a school the directory does not know, the address built from them (docs/DESIGN.md ruling 13)', () => {
    expect(placementBody({ urn: '123456', name: 'Oak School', postcode: 'GU1 1AA', other: 1 }, ctx, { nested: false })).toEqual({
      ok: true,
      value: { urn: '123456', name: 'Oak School', postcode: 'GU1 1AA', address: 'URN 123456, GU1 1AA', school_id: null },
    });
    expect(placementBody({ name: 'Oak School' }, ctx, { nested: false })).toEqual({
      ok: true,
      value: { urn: null, name: 'Oak School', postcode: null, address: null, school_id: null },
    });
    expect(placementBody({ name: 'Oak School', postcode: 'BN1 1AA' }, ctx, { nested: false })).toMatchObject({
      value: { address: 'BN1 1AA' },
    });
    expect(placementBody({ urn: '123456', name: 'Oak School' }, ctx, { nested: false })).toMatchObject({
      value: { address: 'URN 123456' },
    });
    expect(placementBody({ urn: 123456, name: 'Oak' }, ctx, { nested: false })).toMatchObject({ value: { urn: '123456' } });
  });

  it.each([
    [{ urn: '12345', name: 'Oak' }, ['urn is invalid']],
    [{ urn: '1234567', name: 'Oak' }, ['urn is invalid']],
    [{ urn: '12345a', name: 'Oak' }, ['urn is invalid']],
    [{ urn: { a: 1 }, name: 'Oak' }, ['urn is invalid']],
    [{ urn: '123456' }, ["name can't be blank"]],
    [{ urn: '123456', name: '   ' }, ["name can't be blank"]],
    [{ urn: '123456', name: ['Oak'] }, ['name is invalid']],
    [{ urn: '123456', name: 'x'.repeat(256) }, ['name is too long (maximum is 255 characters)']],
    [{ urn: OAK.urn, name: 'x'.repeat(256) }, ['name is too long (maximum is 255 characters)']],
    [{ name: 'Oak', postcode: 'XYZ' }, [POSTCODE_MESSAGE]],
    [{ name: 'Oak', postcode: 12 }, [POSTCODE_MESSAGE]],
    [{ urn: 'x', postcode: 'x' }, ['urn is invalid', "name can't be blank", POSTCODE_MESSAGE]],
    [{ urn: null, name: null, postcode: null }, ["name can't be blank"]],
    [{}, [MISSING_DATA_MESSAGE]],
    ['not an object', [MISSING_DATA_MESSAGE]],
  ])('%j → %j', (input, errors) => {
    expect(placementBody(input, ctx, { nested: false })).toEqual({ ok: false, errors });
  });

  it('links a URN of the directory: the school’s name and postcode, a derived address, no name needed (§10.2)', () => {
    const linked = {
      urn: '100000',
      name: 'Oak Primary School',
      postcode: 'GU1 1AA',
      address: 'URN 100000, Guildford, GU1 1AA',
      school_id: 100000,
    };
    expect(placementBody({ urn: '100000' }, ctx, { nested: false })).toEqual({ ok: true, value: linked });
    expect(placementBody({ urn: '100000', name: 'Other name', postcode: 'BN1 1AA' }, ctx, { nested: false })).toEqual({
      ok: true,
      value: linked,
    });
    expect(placementBody({ urn: '100000' }, ctx, { nested: true })).toEqual({ ok: true, value: linked });
    expect(placementBody({ urn: '100000' }, { ...ctx, schools: undefined }, { nested: false })).toEqual({
      ok: false,
      errors: ["name can't be blank"],
    });
  });

  it('a not-applicable URN gives no address and still needs a name on its own', () => {
    expect(placementBody({ urn: '900010', name: 'Abroad', postcode: 'GU1 1AA' }, ctx, { nested: false })).toMatchObject({
      value: { urn: '900010', name: 'Abroad', address: null },
    });
    expect(placementBody({ urn: '900010' }, ctx, { nested: false })).toEqual({ ok: false, errors: ["name can't be blank"] });
  });

  describe('nested in a trainee create (§5.2, §6.10)', () => {
    it('prefixes messages with placements_attributes', () => {
      expect(placementBody({ urn: '12' }, ctx, { nested: true })).toEqual({
        ok: false,
        errors: ['placements_attributes urn is invalid', "placements_attributes name can't be blank"],
      });
    });

    it('checks an item that is not an object as {}', () => {
      for (const item of ['not an object', null, []]) {
        expect(placementBody(item, ctx, { nested: true })).toEqual({ ok: false, errors: ["placements_attributes name can't be blank"] });
      }
    });

    it('takes a name of at most 255 characters', () => {
      expect(placementBody({ urn: '123456', name: 'x'.repeat(255) }, ctx, { nested: true })).toMatchObject({
        ok: true,
        value: { name: 'x'.repeat(255) },
      });
      expect(placementBody({ urn: '123456', name: 'x'.repeat(256) }, ctx, { nested: true })).toEqual({
        ok: false,
        errors: ['placements_attributes name is too long (maximum is 255 characters)'],
      });
    });

    it('keeps and checks the postcode (docs/DESIGN.md ruling 13)', () => {
      expect(placementBody({ urn: '123456', name: 'Oak', postcode: 'GU1 1AA' }, ctx, { nested: true })).toEqual({
        ok: true,
        value: { urn: '123456', name: 'Oak', postcode: 'GU1 1AA', address: 'URN 123456, GU1 1AA', school_id: null },
      });
      expect(placementBody({ urn: '123456', name: 'Oak', postcode: 'not a postcode' }, ctx, { nested: true })).toEqual({
        ok: false,
        errors: ['placements_attributes postcode Enter a valid postcode (for example, BN1 1AA)'],
      });
    });

    it.each([
      ['900000', 'Placement outside England and Wales'],
      ['900010', 'Not applicable or not available'],
      ['900020', 'Establishment does not have a URN'],
      ['900030', 'Not available'],
    ])('replaces the name for not-applicable URN %s', (urn, label) => {
      expect(placementBody({ urn, name: 'Given' }, ctx, { nested: true })).toEqual({
        ok: true,
        value: { urn, name: label, postcode: null, address: null, school_id: null },
      });
    });
  });
});

describe('UK postcodes', () => {
  it.each([
    'BN1 1AA',
    'GU1 1AA',
    'SW1A 1AA',
    'sw1a1aa',
    'EC1A 1BB',
    'W1A 0AX',
    'M1 1AE',
    'B33 8TH',
    'CR2 6XH',
    'DN55 1PT',
    'GIR 0AA',
    ' LS1 4AP ',
  ])('accepts %s', (postcode) => {
    expect(isValidUkPostcode(postcode)).toBe(true);
  });

  it.each(['BN1', 'XYZ', '12345', 'BN1 1A', 'BN1 1AAA', 'QA1 1AA', 'BN1 1CA', 'AAA1 1AA', 'BN1-1AA', ''])('rejects %s', (postcode) => {
    expect(isValidUkPostcode(postcode)).toBe(false);
  });
});

describe('schoolAddress (docs/reference/API-FACTS.md §10.3)', () => {
  it('joins URN, town and postcode, leaving out empty parts', () => {
    expect(schoolAddress(OAK)).toBe('URN 100000, Guildford, GU1 1AA');
    expect(schoolAddress({ ...OAK, town: null })).toBe('URN 100000, GU1 1AA');
    expect(schoolAddress({ ...OAK, town: '', postcode: null })).toBe('URN 100000');
  });
});

describe('placementUpdateBody (docs/reference/API-FACTS.md §10.5)', () => {
  const stored = { urn: '123456', name: 'Oak School', postcode: 'GU1 1AA', address: null, school_id: null };

  it('replaces the fields sent', () => {
    expect(placementUpdateBody({ postcode: 'BN1 1AA' }, stored, ctx)).toEqual({
      ok: true,
      value: { urn: '123456', name: 'Oak School', postcode: 'BN1 1AA', address: 'URN 123456, BN1 1AA', school_id: null },
    });
    expect(placementUpdateBody({ urn: null }, stored, ctx)).toMatchObject({ value: { urn: null, address: 'GU1 1AA' } });
    expect(placementUpdateBody({ urn: null, postcode: null }, stored, ctx)).toMatchObject({
      value: { urn: null, postcode: null, address: null },
    });
  });

  it('links to a school when the new URN names one, and keeps the link when the URN is not sent', () => {
    const linked = placementUpdateBody({ urn: '100000' }, stored, ctx);
    expect(linked).toMatchObject({
      ok: true,
      value: { urn: '100000', name: 'Oak Primary School', address: 'URN 100000, Guildford, GU1 1AA' },
    });
    if (!linked.ok) throw new Error('setup');
    expect(placementUpdateBody({ postcode: 'BN1 1AA' }, linked.value, ctx)).toMatchObject({
      value: { school_id: 100000, postcode: 'GU1 1AA' },
    });
  });

  it('validates the merged placement', () => {
    expect(placementUpdateBody({ name: '' }, stored, ctx)).toEqual({ ok: false, errors: ["name can't be blank"] });
  });
});
