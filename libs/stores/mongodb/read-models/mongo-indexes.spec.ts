import type { StatusFilter, TraineeListQuery } from '@app/trainees/read';
import { TRAINEE_INDEX_COLUMNS } from '@app/stores/sqlite';
import { TRAINEE_INDEXES } from './mongo-collections';
import { traineeListFilter, traineeListSort } from './mongo-queries';

const STATUSES: StatusFilter[] = ['course_not_yet_started', 'in_training', 'deferred', 'awarded', 'withdrawn'];

/** Every shape of list query: each filter alone and together, both orders. */
function listQueries(): TraineeListQuery[] {
  const base = { ukprn: '10000001', academicCycle: 2025, page: 1, perPage: 50, today: '2026-01-10' };
  const filters: Partial<TraineeListQuery>[] = [
    {},
    { since: '2026-01-01T00:00:00.000Z' },
    { hasTrn: true },
    ...STATUSES.map((s) => ({ statuses: [s] })),
    { statuses: STATUSES },
    { statuses: ['in_training', 'awarded'], hasTrn: false, since: '2026-01-01T00:00:00.000Z' },
  ];
  return filters.flatMap((f) => (['asc', 'desc'] as const).map((sortOrder) => ({ ...base, ...f, sortOrder })));
}

/** The fields a filter reads: its own keys and those of each `$or` branch. */
function filterFields(filter: Record<string, unknown>): Set<string> {
  const fields = new Set(Object.keys(filter).filter((k) => k !== '$or'));
  for (const branch of (filter.$or as Record<string, unknown>[] | undefined) ?? []) for (const k of Object.keys(branch)) fields.add(k);
  return fields;
}

/**
 * An index serves a list query when it begins with the equality fields (provider, cycle) and holds
 * every other field the filter reads and the order's fields: the match and its count are then read
 * from the index alone. Without a filter beyond `since`, the index must also give the order itself
 * (forwards or backwards), so no sort runs in memory.
 */
function servesQuery(key: Record<string, 1 | -1>, q: TraineeListQuery): boolean {
  const fields = Object.keys(key);
  if (fields[0] !== 'ukprn' || fields[1] !== 'start_cycle') return false;
  const sort = traineeListSort(q);
  const needed = [...filterFields(traineeListFilter(q) as Record<string, unknown>), ...Object.keys(sort)];
  if (!needed.every((f) => fields.includes(f))) return false;
  if (q.statuses?.length || q.hasTrn !== undefined) return true;
  if (fields[2] !== 'updated_at' || fields[3] !== 'created_position' || fields.length !== 4) return false;
  const forward = key.updated_at === sort.updated_at && key.created_position === sort.created_position;
  const backward = key.updated_at === -sort.updated_at && key.created_position === -sort.created_position;
  return forward || backward;
}

describe('MongoDB trainee indexes (docs/DESIGN.md "Indexes")', () => {
  it.each(listQueries().map((q) => [JSON.stringify({ ...q, ukprn: undefined, page: undefined, perPage: undefined }), q] as const))(
    'an index serves the list query %s',
    (_name, q) => {
      expect(TRAINEE_INDEXES.filter((i) => servesQuery(i.key, q)).map((i) => i.name)).not.toEqual([]);
    },
  );

  it('bounds a search to the provider and cycle the list indexes begin with, each word a literal, case-insensitive match', () => {
    const q: TraineeListQuery = { ...listQueries()[0], statuses: ['in_training'], search: ['o.brien', '99/1'] };
    const filter = traineeListFilter(q) as Record<string, unknown>;
    expect([filter.ukprn, filter.start_cycle]).toEqual(['10000001', 2025]);
    expect(TRAINEE_INDEXES.filter((i) => servesQuery(i.key, { ...q, search: undefined })).map((i) => i.name)).toContain('list_status');
    const words = filter.$and as { $or: Record<string, { $regex: string; $options: string }>[] }[];
    expect(words.map((w) => w.$or.map((f) => Object.keys(f)[0]))).toEqual([
      ['doc.details.first_names', 'doc.details.last_name', 'doc.details.provider_trainee_id'],
      ['doc.details.first_names', 'doc.details.last_name', 'doc.details.provider_trainee_id'],
    ]);
    const [dotted, slashed] = words.map((w) => Object.values(w.$or[0])[0]);
    expect([dotted, slashed]).toEqual([
      { $regex: 'o\\.brien', $options: 'i' },
      { $regex: '99\\/1', $options: 'i' },
    ]);
    expect(new RegExp(dotted.$regex, 'i').test("O'BRIEN")).toBe(false);
    expect(new RegExp(dotted.$regex, 'i').test('O.Brien')).toBe(true);
  });

  it('the check finds a query no index serves', () => {
    const withoutStatus = TRAINEE_INDEXES.filter((i) => i.name !== 'list_status');
    const filtered = listQueries().filter((q) => q.statuses?.length);
    expect(filtered.every((q) => withoutStatus.some((i) => servesQuery(i.key, q)))).toBe(false);
  });

  it("declares the SQLite adapter's indexes (its rowid `seq` is MongoDB's `created_position`, in every SQLite index)", () => {
    const columns = (name: string) => Object.keys(TRAINEE_INDEXES.find((i) => i.name === name)!.key);
    const withRowid = (cols: readonly string[]) => [...cols.filter((c) => c !== 'seq'), 'created_position'];
    expect(columns('list_updated_desc')).toEqual(withRowid(TRAINEE_INDEX_COLUMNS.list));
    expect(columns('list_updated_asc')).toEqual(withRowid(TRAINEE_INDEX_COLUMNS.list));
    expect(columns('list_status')).toEqual(withRowid(TRAINEE_INDEX_COLUMNS.status));
    expect(columns('duplicates')).toEqual(withRowid(TRAINEE_INDEX_COLUMNS.duplicates));
  });
});
