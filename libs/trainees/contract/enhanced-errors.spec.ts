import { enhancedErrors } from './enhanced-errors';
import { contractFor } from './contract';

const MESSAGES = [
  'first_names is too long (maximum is 60 characters)',
  "sex can't be blank",
  'graduation_year is invalid',
  'graduation_year must be in the past, for example 2014',
  "placements_attributes name can't be blank",
  'placements_attributes urn is invalid',
];

describe('Enhanced-Errors: true (docs/reference/API-FACTS.md §5.4)', () => {
  it('keys the messages by their first word, degree messages top-level and placement messages under placements_attributes, without nesting (v2025.0)', () => {
    expect(contractFor('v2025.0').enhancedErrors(MESSAGES)).toEqual({
      message: 'Validation failed: 6 errors prohibited this trainee from being saved',
      errors: {
        first_names: ['is too long (maximum is 60 characters)'],
        sex: ["can't be blank"],
        graduation_year: ['is invalid', 'must be in the past, for example 2014'],
        placements_attributes: ["name can't be blank", 'urn is invalid'],
      },
    });
  });

  it('groups nested degree and placement messages by field under their attribute (v2026.1)', () => {
    expect(contractFor('v2026.1').enhancedErrors(MESSAGES)).toEqual({
      message: 'Validation failed: 6 errors prohibited this trainee from being saved',
      errors: {
        first_names: ['is too long (maximum is 60 characters)'],
        sex: ["can't be blank"],
        degrees_attributes: { graduation_year: ['is invalid', 'must be in the past, for example 2014'] },
        placements_attributes: { name: ["can't be blank"], urn: ['is invalid'] },
      },
    });
  });

  it('says "error" for one, and keeps a message about the attribute as a whole beside its group', () => {
    expect(enhancedErrors(['email Enter an email address in the correct format, like name@example.com'], { nested: true })).toEqual({
      message: 'Validation failed: 1 error prohibited this trainee from being saved',
      errors: { email: ['Enter an email address in the correct format, like name@example.com'] },
    });
    expect(
      enhancedErrors(
        ['subject must be entered if specifying a previous UK degree or non-UK degree', 'degrees_attributes contains duplicate degrees'],
        { nested: true },
      ).errors,
    ).toEqual({
      degrees_attributes: {
        subject: ['must be entered if specifying a previous UK degree or non-UK degree'],
        base: ['contains duplicate degrees'],
      },
    });
    expect(
      enhancedErrors(
        ['degrees_attributes contains duplicate degrees', 'subject must be entered if specifying a previous UK degree or non-UK degree'],
        { nested: true },
      ).errors,
    ).toEqual({
      degrees_attributes: {
        base: ['contains duplicate degrees'],
        subject: ['must be entered if specifying a previous UK degree or non-UK degree'],
      },
    });
  });

  it('keys a bound on the nested items by the attribute, in both versions (docs/DESIGN.md ruling 14)', () => {
    const bounds = [
      'degrees_attributes is too long (maximum is 10 degrees)',
      'placements_attributes is too long (maximum is 20 placements)',
    ];
    for (const nested of [false, true]) {
      expect(enhancedErrors(bounds, { nested })).toEqual({
        message: 'Validation failed: 2 errors prohibited this trainee from being saved',
        errors: {
          degrees_attributes: ['is too long (maximum is 10 degrees)'],
          placements_attributes: ['is too long (maximum is 20 placements)'],
        },
      });
    }
    // Beside a group (not produced by the API, whose bound skips the items): under `base`.
    expect(enhancedErrors(["placements_attributes name can't be blank", bounds[1]], { nested: true }).errors).toEqual({
      placements_attributes: { name: ["can't be blank"], base: ['is too long (maximum is 20 placements)'] },
    });
  });
});
