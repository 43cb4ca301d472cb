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

/** `as_of`: the list as it stood at an instant (docs/operations.md "The list at an instant and the census report"). */
describe('toListQuery as_of', () => {
  const NOW = new Date('2026-01-15T12:00:00Z');
  const at = (raw: Record<string, unknown>) => toListQuery(raw, '10000001', '2026-01-15', NOW);
  const errorsAt = (raw: Record<string, unknown>): Record<string, string[]> => {
    try {
      at(raw);
    } catch (e) {
      if (e instanceof ListQueryInvalid) return e.body().errors;
      throw e;
    }
    throw new Error('no error');
  };

  it('reads the instant and makes its UTC date the query’s today (the default cycle’s and the status filters’ date)', () => {
    const q = at({ as_of: '2025-08-01T00:30:00+01:00' });
    expect(q.asOf?.toISOString()).toBe('2025-07-31T23:30:00.000Z');
    expect(q.today).toBe('2025-07-31');
    expect(q.academicCycle).toBe(2024);
  });

  it('reads an offset whose + arrived as a space, as the history does', () => {
    expect(at({ as_of: '2025-09-01T10:00:00 01:00' }).asOf?.toISOString()).toBe('2025-09-01T09:00:00.000Z');
  });

  it('leaves asOf null without as_of, and today as given', () => {
    const q = at({});
    expect({ asOf: q.asOf, today: q.today }).toEqual({ asOf: null, today: '2026-01-15' });
  });

  it('accepts now itself and refuses a later instant', () => {
    expect(at({ as_of: NOW.toISOString() }).asOf?.getTime()).toBe(NOW.getTime());
    expect(errorsAt({ as_of: '2026-01-15T12:00:00.001Z' })).toEqual({ as_of: ['must not be in the future'] });
  });

  it.each(['2025-09-01', '2025-09-01T10:00:00', '2025-02-30T10:00:00Z', `2025-09-01T10:00:00.${'1'.repeat(60)}Z`, 'yesterday'])(
    'answers as_of=%s with the list’s 422 keyed as_of, with the other parameters’ errors',
    (value) => {
      expect(errorsAt({ as_of: value, status: 'bogus' })).toEqual({
        as_of: [`${value} is not a valid ISO 8601 instant (a date and a time with Z or an offset)`],
        status: ['bogus is not a valid status'],
      });
    },
  );
});
