import { ListQueryInvalid } from '../../errors/errors';
import { PAGE_MAX, PER_PAGE_MAX, toListQuery } from './list-trainees.params';

const query = (raw: Record<string, unknown>) => toListQuery(raw, '10000001', '2026-01-15');
const errorsOf = (raw: Record<string, unknown>): Record<string, string[]> => {
  try {
    query(raw);
  } catch (e) {
    if (e instanceof ListQueryInvalid) return e.body().errors;
    throw e;
  }
  throw new Error('no error');
};

/** The paging parameters of GET /trainees (docs/reference/API-FACTS.md §14.1; docs/DESIGN.md ruling 14). */
describe('toListQuery paging', () => {
  it(`accepts per_page up to ${PER_PAGE_MAX}`, () => {
    expect(query({ per_page: String(PER_PAGE_MAX) }).perPage).toBe(PER_PAGE_MAX);
  });

  it.each([String(PER_PAGE_MAX + 1), '100000', '9223372036854775808', '1'.repeat(400)])(
    'answers per_page=%s with the 422 naming the maximum',
    (v) => {
      expect(errorsOf({ per_page: v })).toEqual({ per_page: [`must be less than or equal to ${PER_PAGE_MAX}`] });
    },
  );

  it.each(['0', '-5', 'abc', '-9223372036854775808'])('reads per_page=%s as an empty page (not validated)', (v) => {
    expect(query({ per_page: v }).perPage).toBe(0);
  });

  it.each([
    ['1e400', 1],
    ['-3', 1],
    ['2.7', 2],
    ['abc', 1],
    ['99999999999999999999', PAGE_MAX],
    ['1'.repeat(400), PAGE_MAX],
  ])('reads page=%s as %d, a safe integer', (v, expected) => {
    const q = query({ page: v });
    expect(q.page).toBe(expected);
    expect(Number.isSafeInteger(q.page * PER_PAGE_MAX)).toBe(true);
  });
});

/** The list's 422 messages quote the value as the reference does, at most 200 characters of it (docs/operations.md "Limits"). */
describe('toListQuery messages', () => {
  it('quotes a short value whole', () => {
    expect(errorsOf({ status: 'bogus' })).toEqual({ status: ['bogus is not a valid status'] });
  });

  it.each([
    ['status', 'is not a valid status'],
    ['since', 'is not a valid date'],
    ['academic_cycle', 'is not a valid academic cycle year'],
  ])('quotes at most 200 characters of a long %s', (param, message) => {
    const errors = errorsOf({ [param]: 'x'.repeat(10_000) })[param];
    expect(errors).toEqual([`${'x'.repeat(200)}… ${message}`]);
  });
});
