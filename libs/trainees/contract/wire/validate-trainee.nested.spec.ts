import { DEGREES_ATTRIBUTES_MAX_ITEMS, PLACEMENTS_ATTRIBUTES_MAX_ITEMS } from '@app/trainees/record';
import { createBody } from '../testing/bodies';
import { DEGREE, errorsOf, POSTGRAD } from '../testing/trainee-create';
import { BOTH, payload, TODAY } from '../testing/trainee-payload';

/**
 * The degrees and placements nested in a trainee create body, and how many it takes
 * (docs/reference/API-FACTS.md §6.10; docs/DESIGN.md ruling 14).
 */

describe('nested degrees and placements (docs/reference/API-FACTS.md §6.6, §6.10, §9.2)', () => {
  it('returns the validated degrees and placements', () => {
    const result = createBody(
      payload('v2026.1', {
        ...POSTGRAD('12'),
        placements_attributes: [{ urn: '123456', name: 'Oak School', postcode: 'GU1 1AA' }, { urn: '900010' }],
      }),
      { version: 'v2026.1', today: TODAY },
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.degrees).toHaveLength(1);
    expect(result.value.degrees[0]).toMatchObject({ subject: '100425', graduation_year: 2003, institution: '0116' });
    expect(result.value.placements).toEqual([
      // docs/DESIGN.md ruling 13: a nested postcode is kept, and the address built from URN and postcode.
      { urn: '123456', name: 'Oak School', postcode: 'GU1 1AA', address: 'URN 123456, GU1 1AA', school_id: null },
      { urn: '900010', name: 'Not applicable or not available', postcode: null, address: null, school_id: null },
    ]);
  });

  it('reports nested degree messages without a prefix and placement messages with one', () => {
    expect(
      errorsOf('v2026.1', {
        training_route: '12',
        degrees_attributes: [
          { ...DEGREE, graduation_year: 'soon' },
          { ...DEGREE, subject: 'x' },
        ],
        placements_attributes: [{ urn: '12', name: '' }],
      }),
    ).toEqual([
      'graduation_year is invalid',
      'subject must be entered if specifying a previous UK degree or non-UK degree',
      'placements_attributes urn is invalid',
      "placements_attributes name can't be blank",
    ]);
  });

  it('refuses two identical degrees in one payload', () => {
    expect(errorsOf('v2026.1', { training_route: '12', degrees_attributes: [DEGREE, { ...DEGREE, institution: '0001' }] })).toEqual([
      'degrees_attributes contains duplicate degrees',
    ]);
    expect(errorsOf('v2026.1', { training_route: '12', degrees_attributes: [DEGREE, { ...DEGREE, graduation_year: '2004' }] })).toEqual([]);
  });

  it('refuses a degrees_attributes or placements_attributes that is not an array', () => {
    expect(errorsOf('v2026.1', { degrees_attributes: 'x', placements_attributes: { urn: '123456' } })).toEqual([
      'degrees_attributes is invalid',
      'placements_attributes is invalid',
    ]);
  });
});

describe('the most nested items a create takes (docs/DESIGN.md ruling 14)', () => {
  const placements = (
    n: number,
    item: (i: number) => Record<string, unknown> = (i) => ({ urn: String(200000 + i), name: `School ${i}` }),
  ) => Array.from({ length: n }, (_, i) => item(i));
  /** `n` degrees that differ in their graduation year, so none duplicates another. */
  const degrees = (n: number) => Array.from({ length: n }, (_, i) => ({ ...DEGREE, graduation_year: String(1990 + i) }));

  it.each(BOTH)(
    `%s: ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} placements and ${DEGREES_ATTRIBUTES_MAX_ITEMS} degrees are taken, every one kept`,
    (version) => {
      const result = createBody(
        payload(version, {
          placements_attributes: placements(PLACEMENTS_ATTRIBUTES_MAX_ITEMS),
          degrees_attributes: degrees(DEGREES_ATTRIBUTES_MAX_ITEMS),
        }),
        { version, today: TODAY },
      );
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.value.placements).toHaveLength(PLACEMENTS_ATTRIBUTES_MAX_ITEMS);
      expect(result.value.degrees).toHaveLength(DEGREES_ATTRIBUTES_MAX_ITEMS);
    },
  );

  it.each(BOTH)('%s: one placement more is refused with the bound alone, its items not checked', (version) => {
    expect(errorsOf(version, { placements_attributes: placements(PLACEMENTS_ATTRIBUTES_MAX_ITEMS + 1) })).toEqual([
      `placements_attributes is too long (maximum is ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} placements)`,
    ]);
    expect(
      errorsOf(version, { placements_attributes: placements(PLACEMENTS_ATTRIBUTES_MAX_ITEMS + 1, () => ({ urn: 'x', name: '' })) }),
    ).toEqual([`placements_attributes is too long (maximum is ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} placements)`]);
  });

  it.each(BOTH)('%s: one degree more is refused with the bound alone, its items not checked', (version) => {
    expect(errorsOf(version, { degrees_attributes: degrees(DEGREES_ATTRIBUTES_MAX_ITEMS + 1) })).toEqual([
      `degrees_attributes is too long (maximum is ${DEGREES_ATTRIBUTES_MAX_ITEMS} degrees)`,
    ]);
    expect(errorsOf(version, { degrees_attributes: Array.from({ length: DEGREES_ATTRIBUTES_MAX_ITEMS + 1 }, () => DEGREE) })).toEqual([
      `degrees_attributes is too long (maximum is ${DEGREES_ATTRIBUTES_MAX_ITEMS} degrees)`,
    ]);
  });

  it("reports both bounds, in the order of the other messages, beside the other fields' problems", () => {
    expect(
      errorsOf('v2026.1', {
        first_names: '',
        placements_attributes: placements(PLACEMENTS_ATTRIBUTES_MAX_ITEMS + 5),
        degrees_attributes: degrees(DEGREES_ATTRIBUTES_MAX_ITEMS + 5),
      }),
    ).toEqual([
      "first_names can't be blank",
      `degrees_attributes is too long (maximum is ${DEGREES_ATTRIBUTES_MAX_ITEMS} degrees)`,
      `placements_attributes is too long (maximum is ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} placements)`,
    ]);
  });

  it('answers an array of a hundred thousand items with the bound', () => {
    expect(errorsOf('v2025.0', { placements_attributes: placements(100_000, () => ({})) })).toEqual([
      `placements_attributes is too long (maximum is ${PLACEMENTS_ATTRIBUTES_MAX_ITEMS} placements)`,
    ]);
  });
});
