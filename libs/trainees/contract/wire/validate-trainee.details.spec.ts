import { createBody } from '../testing/bodies';
import { DEGREE } from '../testing/trainee-create';
import { payload, TODAY } from '../testing/trainee-payload';

/** The problems of a create body beside its messages: where each is and what it is about, the messages unchanged. */
function problemsOf(over: Record<string, unknown>) {
  const result = createBody(payload('v2026.1', over), { version: 'v2026.1', today: TODAY });
  if (result.ok) throw new Error('expected the body refused');
  expect(result.problems?.map((p) => p.message)).toEqual(result.errors);
  return result.problems!.map(({ path, detail }) => ({ path, detail }));
}

describe('what each problem of a trainee create is about', () => {
  it('names the wire check, the value sent and the field', () => {
    expect(problemsOf({ date_of_birth: '27/04/1998', sex: 'Female', email: 'not an address' })).toEqual([
      { path: ['date_of_birth'], detail: { kind: 'isIsoDate', value: '27/04/1998' } },
      { path: ['sex'], detail: { kind: 'isCode:sex', value: 'Female' } },
      { path: ['email'], detail: { kind: 'isEmailAddress', value: 'not an address' } },
    ]);
  });

  it('names the rule: a blank required field, a degree grade that is no code, a funding method the route has not', () => {
    expect(problemsOf({ first_names: '', training_route: '12', degrees_attributes: [{ ...DEGREE, grade: '1' }] })).toEqual([
      { path: ['first_names'], detail: { kind: 'blank' } },
      { path: ['degrees_attributes[]', 0, 'grade'], detail: { kind: 'blank' } },
    ]);
    const [funding] = problemsOf({ fund_code: '7', funding_method: 'E' });
    expect(funding).toEqual({
      path: ['rule:funding_method'],
      detail: {
        kind: 'funding_method_not_available',
        params: {
          funding_method: 'E',
          fund_code: '7',
          training_route: expect.any(String),
          course_subject_1: expect.any(String),
          academic_cycle: '2026 to 2027',
        },
      },
    });
  });
});
