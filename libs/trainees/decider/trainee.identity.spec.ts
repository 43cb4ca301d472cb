import { identityMarks, type IdentifyingValues } from './trainee.identity';

/** True when the marks of `row` meet the marks of `person`. */
const meets = (person: IdentifyingValues, row: IdentifyingValues): boolean => {
  const marks = identityMarks(person);
  return [...identityMarks(row)].some((m) => marks.has(m));
};

describe('the rule that takes a row to be a person’s (docs/DESIGN.md "Personal data")', () => {
  const person: IdentifyingValues = {
    trainee_id: ['Tr7Xq'],
    first_names: ['Mary Jane'],
    last_name: ['Oakes', 'Smithers'],
    previous_last_name: ['Abbot'],
    date_of_birth: ['1990-01-31'],
    email: ['Mary.Oakes@Example.org'],
    trn: ['1234567'],
    provider_trainee_id: ['P/77'],
    ni_number: ['QQ123456C'],
  };

  it('meets on last name and date of birth, ignoring case and white space, any last name the person had', () => {
    expect(meets(person, { last_name: ['  OAKES '], date_of_birth: ['1990-01-31'] })).toBe(true);
    expect(meets(person, { last_name: ['smithers'], date_of_birth: ['31/01/1990'] })).toBe(true);
    expect(meets(person, { last_name: ['Abbot'], date_of_birth: ['1990-01-31'] })).toBe(true);
    expect(meets(person, { previous_last_name: ['oakes'], date_of_birth: ['1990-01-31'] })).toBe(true);
    expect(meets(person, { last_name: ['Oakes'], date_of_birth: ['1990-01-30'] })).toBe(false);
  });

  it('meets on first names with last name, or with date of birth, so one wrong value of the three still meets', () => {
    expect(meets(person, { first_names: ['mary-jane'], last_name: ['Oakes'], date_of_birth: ['2090-13-40'] })).toBe(true);
    expect(meets(person, { first_names: ['MARY JANE'], last_name: ['Oaks'], date_of_birth: ['1990-01-31'] })).toBe(true);
    expect(meets(person, { first_names: ['Mary'], last_name: ['Oaks'], date_of_birth: ['1990-01-31'] })).toBe(false);
  });

  it('meets on any one identifier, ignoring case and white space; never on an empty one', () => {
    expect(meets(person, { email: [' mary.oakes@example.ORG '] })).toBe(true);
    expect(meets(person, { trn: ['1234567'] })).toBe(true);
    expect(meets(person, { provider_trainee_id: ['p/77'] })).toBe(true);
    expect(meets(person, { ni_number: ['qq 12 34 56 c'] })).toBe(true);
    expect(meets(person, { trainee_id: ['tr7xq'] })).toBe(true);
    // A field's value is not another field's.
    expect(meets(person, { provider_trainee_id: ['1234567'] })).toBe(false);
    expect(meets({ email: [''], trn: ['  '] }, { email: [''], trn: [''] })).toBe(false);
    expect(meets(person, { first_names: ['Mary Jane'] })).toBe(false);
  });
});
