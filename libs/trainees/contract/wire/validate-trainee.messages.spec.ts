import { DEGREE, detailsOf, errorsOf } from '../testing/trainee-create';

/** Wrong JSON types in a trainee create body, and the order of its messages. */

describe('wrong JSON types and message order', () => {
  it('reports wrong types as messages', () => {
    expect(errorsOf('v2026.1', { first_names: true, last_name: { a: 1 }, sex: false, disability1: [58] })).toEqual([
      'first_names is invalid',
      'last_name is invalid',
      "sex can't be blank",
      'disability1 is invalid',
    ]);
    expect(detailsOf('v2026.1', { first_names: 123, provider_trainee_id: 42 })).toMatchObject({
      first_names: '123',
      provider_trainee_id: '42',
    });
  });

  it('returns every failed rule at once, fields in the order of docs/reference/API-FACTS.md §6.3, then cross-field rules', () => {
    expect(
      errorsOf('v2026.1', {
        training_initiative: '009',
        disability1: '58',
        disability2: '58',
        course_subject_2: '100346',
        email: 'bad',
        sex: '3',
        date_of_birth: '2020-01-01',
        first_names: 'x'.repeat(61),
      }),
    ).toEqual([
      'first_names is too long (maximum is 60 characters)',
      'date_of_birth cannot be less than 16 years ago',
      "sex has invalid reference data value of '3'. Valid values are '10', '11', '12', '96', '99'.",
      'email Enter an email address in the correct format, like name@example.com',
      'course_subject_2 might contain duplicate values',
      'disabilities contain duplicate values',
      "training_initiative 'maths_physics_chairs_programme_researchers_in_schools' is not available in academic cycle '2026 to 2027'",
    ]);
  });

  it('does not repeat a message', () => {
    const errors = errorsOf('v2026.1', {
      training_route: '12',
      degrees_attributes: [
        { ...DEGREE, subject: 'x' },
        { ...DEGREE, subject: 'y' },
      ],
    });
    expect(errors).toEqual(['subject must be entered if specifying a previous UK degree or non-UK degree']);
  });
});
