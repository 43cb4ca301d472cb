/**
 * The read-model contract's suite of lists and answers (test/contract/read-model.contract.ts):
 * listTrainees (cycle and provider, status filters, since, has_trn, paging, order),
 * findDuplicateCandidates and the answers stored as bytes. Rule sources: docs/DESIGN.md "Read
 * models" and property 6, "Answers stored as bytes"; docs/reference/API-FACTS.md §14 (list
 * filters, paging, order), §14.4 (status filters); the ports' documentation.
 */
import { API_VERSIONS, type ApiVersion, type TraineeDetails, type Trainee } from '@app/trainees/record';
import { contractFor } from '@app/trainees/contract';
import { EXAMPLE_DETAILS } from '@app/trainees/decider/testing/trainee-events';
import type { StatusFilter, TraineeListQuery } from '@app/trainees/read';
import {
  type ContractRun,
  decidedHistory,
  type EventLog,
  listQuery,
  openContractRun,
  randomUkprn,
  registration,
  updated,
} from './read-model-fixtures';
import type { ReadModelContractContext } from './read-model.contract';

/**
 * Registers the list and answer suite of the read-model contract for adapter `name`; `factory`
 * is called before each test and the returned `cleanup` after it.
 */
export function describeTraineeListsContract(name: string, factory: () => Promise<ReadModelContractContext>): void {
  describe(`Read-model contract: ${name}`, () => {
    let ctx: ReadModelContractContext;
    let rm: ContractRun['rm'];
    let log: EventLog;
    /** Unique per test: prefix of every trainee and token id. */
    let run: string;
    let ukprn: string;

    beforeEach(async () => {
      ({ ctx, rm, log, run, ukprn } = await openContractRun(factory));
    });

    afterEach(async () => {
      await ctx.cleanup();
    });

    const tid = (label: string): string => `${run}-${label}`;

    describe('listTrainees', () => {
      const ids = (page: { items: Trainee[] }): string[] => page.items.map((t) => t.trainee_id);
      const sorted = (page: { items: Trainee[] }): string[] => ids(page).sort();

      it('keeps the academic cycle of trainee_start_date (else itt_start_date) and the provider (docs/DESIGN.md property 6)', async () => {
        const other = randomUkprn();
        await rm.applyBatch([
          ...log.trainee(
            registration({ id: tid('aug25'), ukprn, at: '2025-09-01T10:00:00.000Z', details: { itt_start_date: '2025-08-01' } }),
          ),
          ...log.trainee(
            registration({ id: tid('jul26'), ukprn, at: '2025-09-01T10:00:01.000Z', details: { itt_start_date: '2026-07-31' } }),
          ),
          ...log.trainee(
            registration({ id: tid('jul25'), ukprn, at: '2025-09-01T10:00:02.000Z', details: { itt_start_date: '2025-07-31' } }),
          ),
          ...log.trainee(
            registration({ id: tid('aug26'), ukprn, at: '2025-09-01T10:00:03.000Z', details: { itt_start_date: '2026-08-01' } }),
          ),
          ...log.trainee(
            registration({
              id: tid('tsd'),
              ukprn,
              at: '2025-09-01T10:00:04.000Z',
              details: { itt_start_date: '2024-09-01', trainee_start_date: '2025-09-01' },
            }),
          ),
          ...log.trainee(
            registration({ id: tid('foreign'), ukprn: other, at: '2025-09-01T10:00:05.000Z', details: { itt_start_date: '2025-08-01' } }),
          ),
        ]);
        const c2025 = await rm.listTrainees(listQuery(ukprn, { academicCycle: 2025 }));
        expect(sorted(c2025)).toEqual([tid('aug25'), tid('jul26'), tid('tsd')].sort());
        expect(c2025.totalCount).toBe(3);
        expect(sorted(await rm.listTrainees(listQuery(ukprn, { academicCycle: 2024 })))).toEqual([tid('jul25')]);
        expect(sorted(await rm.listTrainees(listQuery(ukprn, { academicCycle: 2026 })))).toEqual([tid('aug26')]);
        expect(sorted(await rm.listTrainees(listQuery(other, { academicCycle: 2025 })))).toEqual([tid('foreign')]);
        expect(await rm.listTrainees(listQuery(randomUkprn()))).toEqual({ items: [], totalCount: 0 });
      });

      describe('status filters (docs/reference/API-FACTS.md §14.4), relative to the query’s today', () => {
        const today = '2025-09-15';
        beforeEach(async () => {
          await rm.applyBatch([
            ...log.trainee(
              registration({
                id: tid('draft-past'),
                ukprn,
                at: '2025-09-01T10:00:00.000Z',
                submitted: false,
                details: { itt_start_date: '2025-08-01' },
              }),
            ),
            ...log.trainee(
              registration({ id: tid('past'), ukprn, at: '2025-09-01T10:00:01.000Z', details: { itt_start_date: '2025-08-01' } }),
            ),
            ...log.trainee(registration({ id: tid('today'), ukprn, at: '2025-09-01T10:00:02.000Z', details: { itt_start_date: today } })),
            ...log.trainee(
              registration({ id: tid('tomorrow'), ukprn, at: '2025-09-01T10:00:03.000Z', details: { itt_start_date: '2025-09-16' } }),
            ),
            ...log.trainee(
              registration({
                id: tid('draft-future'),
                ukprn,
                at: '2025-09-01T10:00:04.000Z',
                submitted: false,
                details: { itt_start_date: '2026-01-10' },
              }),
            ),
          ]);
        });
        const statuses = async (s: StatusFilter[] | undefined, day = today): Promise<string[]> => {
          const page = await rm.listTrainees(listQuery(ukprn, { statuses: s, today: day }));
          expect(page.totalCount).toBe(page.items.length);
          return sorted(page);
        };

        it('in_training: submitted (or later, not deferred/withdrawn/awarded) with itt_start_date on or before today', async () => {
          expect(await statuses(['in_training'])).toEqual([tid('past'), tid('today')].sort());
        });

        it('course_not_yet_started: itt_start_date after today, not draft', async () => {
          expect(await statuses(['course_not_yet_started'])).toEqual([tid('tomorrow')]);
        });

        it('moves a trainee from course_not_yet_started to in_training when today reaches its start', async () => {
          expect(await statuses(['in_training'], '2025-09-16')).toEqual([tid('past'), tid('today'), tid('tomorrow')].sort());
          expect(await statuses(['course_not_yet_started'], '2025-09-16')).toEqual([]);
          expect(await statuses(['course_not_yet_started'], '2025-07-01')).toEqual([tid('past'), tid('today'), tid('tomorrow')].sort());
        });

        it('deferred, awarded and withdrawn match nothing while no event leads to those states', async () => {
          expect(await statuses(['deferred'])).toEqual([]);
          expect(await statuses(['awarded'])).toEqual([]);
          expect(await statuses(['withdrawn'])).toEqual([]);
        });

        it('ORs several statuses, and no or an empty status list filters nothing', async () => {
          expect(await statuses(['in_training', 'course_not_yet_started'])).toEqual([tid('past'), tid('today'), tid('tomorrow')].sort());
          expect(await statuses(['deferred', 'in_training', 'withdrawn'])).toEqual([tid('past'), tid('today')].sort());
          const all = [tid('draft-past'), tid('past'), tid('today'), tid('tomorrow'), tid('draft-future')].sort();
          expect(await statuses(undefined)).toEqual(all);
          expect(await statuses([])).toEqual(all);
        });

        it('ANDs the status filter with since and has_trn', async () => {
          const page = await rm.listTrainees(
            listQuery(ukprn, {
              statuses: ['in_training', 'course_not_yet_started'],
              since: '2025-09-01T10:00:02.000Z',
              hasTrn: false,
              today,
            }),
          );
          expect(sorted(page)).toEqual([tid('today'), tid('tomorrow')].sort());
          expect(page.totalCount).toBe(2);
        });
      });

      it('since keeps trainees updated at or after the instant', async () => {
        const a = tid('a');
        await rm.applyBatch([
          ...log.trainee([
            ...registration({ id: a, ukprn, at: '2025-09-01T10:00:00.000Z' }),
            updated(a, { middle_names: 'Late' }, '2025-09-05T10:00:00.000Z'),
          ]),
          ...log.trainee(registration({ id: tid('b'), ukprn, at: '2025-09-02T10:00:00.000Z' })),
          ...log.trainee(registration({ id: tid('c'), ukprn, at: '2025-09-03T10:00:00.000Z' })),
        ]);
        const since = async (instant: string): Promise<string[]> => sorted(await rm.listTrainees(listQuery(ukprn, { since: instant })));
        expect(await since('2025-09-02T10:00:00.000Z')).toEqual([tid('a'), tid('b'), tid('c')].sort());
        expect(await since('2025-09-02T10:00:00.001Z')).toEqual([tid('a'), tid('c')].sort());
        expect(await since('2025-09-05T10:00:00.000Z')).toEqual([tid('a')]);
        expect(await rm.listTrainees(listQuery(ukprn, { since: '2025-09-05T10:00:00.001Z' }))).toEqual({ items: [], totalCount: 0 });
      });

      it('hasTrn false keeps trainees without a TRN; true keeps none while no event records a TRN', async () => {
        await rm.applyBatch([
          ...log.trainee(registration({ id: tid('a'), ukprn, at: '2025-09-01T10:00:00.000Z' })),
          ...log.trainee(registration({ id: tid('b'), ukprn, at: '2025-09-02T10:00:00.000Z', submitted: false })),
        ]);
        const without = await rm.listTrainees(listQuery(ukprn, { hasTrn: false }));
        expect(sorted(without)).toEqual([tid('a'), tid('b')].sort());
        expect(without.totalCount).toBe(2);
        expect(await rm.listTrainees(listQuery(ukprn, { hasTrn: true }))).toEqual({ items: [], totalCount: 0 });
      });

      it('pages with page/perPage and counts every match; a page past the end is empty', async () => {
        const labels = ['p1', 'p2', 'p3', 'p4', 'p5'];
        await rm.applyBatch(
          labels.flatMap((l, i) => log.trainee(registration({ id: tid(l), ukprn, at: `2025-09-0${i + 1}T10:00:00.000Z` }))),
        );
        const page = (n: number, perPage = 2) => rm.listTrainees(listQuery(ukprn, { page: n, perPage, sortOrder: 'asc' }));
        const [p1, p2, p3, p4] = await Promise.all([page(1), page(2), page(3), page(4)]);
        expect(ids(p1)).toEqual([tid('p1'), tid('p2')]);
        expect(ids(p2)).toEqual([tid('p3'), tid('p4')]);
        expect(ids(p3)).toEqual([tid('p5')]);
        expect(p4.items).toEqual([]);
        for (const p of [p1, p2, p3, p4]) expect(p.totalCount).toBe(5);
        expect(ids(await page(1, 10))).toEqual(labels.map(tid));
        expect((await page(2, 3)).items.map((t) => t.trainee_id)).toEqual([tid('p4'), tid('p5')]);
        expect(p1.items[0]).toEqual(await rm.getTrainee(tid('p1')));
      });

      it('sorts by updated_at asc or desc, ties broken newest-created first (not last-updated first)', async () => {
        const [a, b, c, d] = ['A', 'B', 'C', 'D'].map(tid);
        await rm.applyBatch([
          ...log.trainee(registration({ id: a, ukprn, at: '2025-09-01T10:00:00.000Z' })),
          ...log.trainee(registration({ id: b, ukprn, at: '2025-09-01T10:00:00.000Z' })),
          ...log.trainee(registration({ id: c, ukprn, at: '2025-09-01T09:00:00.000Z' })),
        ]);
        await rm.applyBatch(log.trainee(registration({ id: d, ukprn, at: '2025-09-01T11:00:00.000Z' })));
        const order = async (sortOrder: 'asc' | 'desc'): Promise<string[]> => ids(await rm.listTrainees(listQuery(ukprn, { sortOrder })));
        expect(await order('desc')).toEqual([d, b, a, c]);
        expect(await order('asc')).toEqual([c, b, a, d]);

        // B is updated first, A last: A's document is the newest written, B is still the newest created.
        await rm.applyBatch(log.trainee([updated(b, { middle_names: 'Bee' }, '2025-09-01T12:00:00.000Z')]));
        await rm.applyBatch(log.trainee([updated(a, { middle_names: 'Ay' }, '2025-09-01T12:00:00.000Z')]));
        expect(await order('desc')).toEqual([b, a, d, c]);
        expect(await order('asc')).toEqual([c, d, b, a]);
      });
      describe('search (the uploads page\'s "Your trainees"; libs/trainees/read/trainee-search.ts)', () => {
        const other = randomUkprn();
        beforeEach(async () => {
          const reg = (label: string, details: Partial<TraineeDetails>, at: string, owner = ukprn) =>
            log.trainee(registration({ id: tid(label), ukprn: owner, at, details }));
          await rm.applyBatch([
            ...reg(
              'mary',
              { first_names: 'Mary Jane', last_name: "O'Brien", provider_trainee_id: 'PT/2025/0042' },
              '2025-09-01T10:00:00.000Z',
            ),
            ...reg('unal', { first_names: 'Zoë', last_name: 'Ünal', provider_trainee_id: 'PT/2025/0043' }, '2025-09-02T10:00:00.000Z'),
            ...reg('brien', { first_names: 'Brian', last_name: 'Smith', provider_trainee_id: null }, '2025-09-03T10:00:00.000Z'),
            ...reg(
              'old',
              { first_names: 'Mary', last_name: 'Older', itt_start_date: '2024-09-01', provider_trainee_id: 'PT/2024/0001' },
              '2025-09-04T10:00:00.000Z',
            ),
            ...reg(
              'foreign',
              { first_names: 'Mary', last_name: "O'Brien", provider_trainee_id: 'PT/2025/0042' },
              '2025-09-05T10:00:00.000Z',
              other,
            ),
          ]);
        });
        const found = async (search: string[], overrides: Partial<TraineeListQuery> = {}): Promise<string[]> => {
          const page = await rm.listTrainees(listQuery(ukprn, { search, ...overrides }));
          expect(page.totalCount).toBe(page.items.length);
          return ids(page);
        };

        it('keeps the trainees whose first names, last name or provider trainee id hold every word, ignoring case, newest first', async () => {
          expect(await found(['mary'])).toEqual([tid('mary')]);
          expect(await found(['jane', "o'brien"])).toEqual([tid('mary')]);
          expect(await found(['bri'])).toEqual([tid('brien'), tid('mary')]);
          expect(await found(['pt/2025/004'])).toEqual([tid('unal'), tid('mary')]);
          expect(await found(['0043', 'zoë'])).toEqual([tid('unal')]);
          expect(await found(['ünal'])).toEqual([tid('unal')]);
          expect(await found(['zo'], { sortOrder: 'asc' })).toEqual([tid('unal')]);
          expect(await found(['smith', 'mary'])).toEqual([]);
          expect(await found(['nobody'])).toEqual([]);
        });

        it("is bounded to the query's provider and cycle, ANDed with its filters, paged with its count", async () => {
          expect(await found(['mary'], { academicCycle: 2024 })).toEqual([tid('old')]);
          expect(ids(await rm.listTrainees(listQuery(other, { search: ['mary'] })))).toEqual([tid('foreign')]);
          expect(await found(['bri'], { statuses: ['withdrawn'] })).toEqual([]);
          expect(await found(['bri'], { statuses: ['in_training'] })).toEqual([tid('brien'), tid('mary')]);
          const second = await rm.listTrainees(listQuery(ukprn, { search: ['pt/2025'], perPage: 1, page: 2 }));
          expect([ids(second), second.totalCount]).toEqual([[tid('mary')], 2]);
          const past = await rm.listTrainees(listQuery(ukprn, { search: ['pt/2025'], perPage: 1, page: 3 }));
          expect(past).toEqual({ items: [], totalCount: 2 });
          expect(second.items[0]).toEqual(await rm.getTrainee(tid('mary')));
        });

        it('follows a changed name, and an empty search is none', async () => {
          await rm.applyBatch(log.trainee([updated(tid('brien'), { last_name: 'Jones' }, '2025-09-06T10:00:00.000Z')]));
          expect(await found(['smith'])).toEqual([]);
          expect(await found(['jones'])).toEqual([tid('brien')]);
          expect((await rm.listTrainees(listQuery(ukprn, { search: [] }))).totalCount).toBe(3);
        });
      });
    });

    describe('providerTraineeIds (docs/DESIGN.md "A provider\'s trainees at an instant")', () => {
      it("names every trainee of the provider, whatever its cycle, in binary id order, and no other provider's", async () => {
        const other = randomUkprn();
        await rm.applyBatch([
          ...log.trainee(registration({ id: tid('b'), ukprn, at: '2025-09-01T10:00:00.000Z', details: { itt_start_date: '2025-08-01' } })),
          ...log.trainee(registration({ id: tid('Z'), ukprn, at: '2025-09-01T10:00:01.000Z', details: { itt_start_date: '2023-08-01' } })),
          ...log.trainee(registration({ id: tid('a'), ukprn, at: '2025-09-01T10:00:02.000Z', details: { itt_start_date: '2026-09-01' } })),
          ...log.trainee(registration({ id: tid('o'), ukprn: other, at: '2025-09-01T10:00:03.000Z' })),
        ]);
        expect(await rm.providerTraineeIds(ukprn)).toEqual([tid('Z'), tid('a'), tid('b')]);
        expect(await rm.providerTraineeIds(other)).toEqual([tid('o')]);
        expect(await rm.providerTraineeIds(randomUkprn())).toEqual([]);
      });
    });

    describe('findDuplicateCandidates', () => {
      it('matches provider, date of birth, route and last name ignoring case and spacing, oldest-created first', async () => {
        const other = randomUkprn();
        const route = EXAMPLE_DETAILS.training_route;
        const dob = '1991-02-03';
        const reg = (label: string, details: Partial<TraineeDetails>, owner = ukprn) =>
          log.trainee(
            registration({ id: tid(label), ukprn: owner, at: '2025-09-01T10:00:00.000Z', details: { date_of_birth: dob, ...details } }),
          );
        await rm.applyBatch([
          ...reg('first', { last_name: "O'Brien" }),
          ...reg('second', { last_name: "o'BRIEN" }),
          ...reg('other-dob', { last_name: "O'Brien", date_of_birth: '1991-02-04' }),
          ...reg('other-route', { last_name: "O'Brien", training_route: `${route}-other` }),
          ...reg('other-name', { last_name: 'OBrien' }),
          ...reg('other-provider', { last_name: "O'Brien" }, other),
        ]);
        await rm.applyBatch(reg('third', { last_name: "O'Brien" }));

        const found = await rm.findDuplicateCandidates(ukprn, dob, route, "  o'brien ");
        expect(found.map((t) => t.trainee_id)).toEqual([tid('first'), tid('second'), tid('third')]);
        expect(found[1]).toEqual(await rm.getTrainee(tid('second')));
        expect((await rm.findDuplicateCandidates(other, dob, route, "O'Brien")).map((t) => t.trainee_id)).toEqual([tid('other-provider')]);
        expect(await rm.findDuplicateCandidates(ukprn, '1991-02-05', route, "O'Brien")).toEqual([]);
      });

      it('follows a changed last name', async () => {
        const id = tid('renamed');
        const route = EXAMPLE_DETAILS.training_route;
        await rm.applyBatch(
          log.trainee(
            registration({ id, ukprn, at: '2025-09-01T10:00:00.000Z', details: { last_name: 'Before', date_of_birth: '1992-03-04' } }),
          ),
        );
        await rm.applyBatch(log.trainee([updated(id, { last_name: 'After' }, '2025-09-02T10:00:00.000Z')]));
        expect(await rm.findDuplicateCandidates(ukprn, '1992-03-04', route, 'before')).toEqual([]);
        expect((await rm.findDuplicateCandidates(ukprn, '1992-03-04', route, 'AFTER')).map((t) => t.trainee_id)).toEqual([id]);
      });
    });
    describe('answers as bytes (docs/DESIGN.md "Answers stored as bytes")', () => {
      const nested = (t: Trainee, v: ApiVersion) => JSON.stringify(contractFor(v).output.serializeTrainee(t, { nested: true }));
      const item = (t: Trainee, v: ApiVersion) => JSON.stringify(contractFor(v).output.serializeTrainee(t, { nested: false }));

      it.each([...API_VERSIONS])('getTraineeAnswer is the %s answer of the trainee as it is now, by id in any letter case', async (v) => {
        const id = tid('Answer');
        const { events, expected } = decidedHistory(id, ukprn, 1);
        await rm.applyBatch(log.trainee(events));
        const answer = await rm.getTraineeAnswer(id.toUpperCase(), v);
        expect(answer?.ukprn).toBe(ukprn);
        expect(answer?.body.toString()).toBe(nested(expected, v));
        expect(await rm.getTraineeAnswer(`${id}-unknown`, v)).toBeNull();

        await rm.applyBatch(log.trainee([updated(id, { first_names: 'Zoë Ångström' }, '2026-03-01T00:00:00.000Z')]));
        const now = (await rm.getTrainee(id))!;
        expect(now.details.first_names).toBe('Zoë Ångström');
        expect((await rm.getTraineeAnswer(id, v))?.body.toString()).toBe(nested(now, v));
      });

      it.each([...API_VERSIONS])('listTraineeAnswers holds the %s list items of the listTrainees page, in its order', async (v) => {
        const labels = ['l1', 'l2', 'l3'];
        await rm.applyBatch(
          labels.flatMap((l, i) =>
            log.trainee(registration({ id: tid(l), ukprn, at: `2025-09-0${i + 1}T10:00:00.000Z`, details: { last_name: `Ünal${l}` } })),
          ),
        );
        for (const q of [
          listQuery(ukprn),
          listQuery(ukprn, { page: 2, perPage: 2, sortOrder: 'asc' }),
          listQuery(ukprn, { page: 3, perPage: 2 }),
        ]) {
          const [page, answers] = await Promise.all([rm.listTrainees(q), rm.listTraineeAnswers(q, v)]);
          expect(answers.totalCount).toBe(page.totalCount);
          expect(answers.items.map((b) => b.toString())).toEqual(page.items.map((t) => item(t, v)));
        }
        expect((await rm.listTraineeAnswers(listQuery(ukprn), v)).items).toHaveLength(3);
      });
    });
  });
}
