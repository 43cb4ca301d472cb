import { listStatusOf, matchesStatus } from './list-status';

describe('matchesStatus and listStatusOf (docs/reference/API-FACTS.md §14.4; the stores’ filters: test/contract/list-status.contract-spec.ts)', () => {
  const trainee = (state: string, itt_start_date: string) =>
    ({ state, details: { itt_start_date } }) as unknown as Parameters<typeof matchesStatus>[0];

  it.each([
    ['submitted_for_trn', '2025-09-01', '2025-09-01', 'in_training'],
    ['submitted_for_trn', '2025-09-02', '2025-09-01', 'course_not_yet_started'],
    ['trn_received', '2025-09-01', '2025-09-30', 'in_training'],
    ['recommended_for_award', '2025-09-01', '2025-09-30', 'in_training'],
    ['draft', '2025-09-01', '2025-09-30', null],
    ['draft', '2025-10-01', '2025-09-30', null],
    ['deferred', '2025-10-01', '2025-09-30', 'deferred'],
    ['withdrawn', '2025-10-01', '2025-09-30', 'withdrawn'],
    ['awarded', '2025-09-01', '2025-09-30', 'awarded'],
  ])('%s starting %s, on %s: %s', (state, start, today, status) => {
    expect(listStatusOf(trainee(state, start), today)).toBe(status);
  });
});
