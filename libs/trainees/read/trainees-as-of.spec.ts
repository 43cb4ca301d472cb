import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type TraineeEvent, traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration, traineeDeferred, traineeUpdated } from '@app/trainees/decider/testing/trainee-events';
import { newEventId, toEventData } from '@app/event-sourcing';
import { asOfScanInThreads, SqliteEventStore } from '@app/stores/sqlite';
import type { TraineeListQuery, TraineeReadModel } from './trainee-read.port';
import { listTraineesAsOf, providerTraineesAsOf, readAhead, scanInThisThread, type TraineeAtInstant } from './trainees-as-of';

const UKPRN = '10000001';
const OTHER = '10000002';

/**
 * A provider's trainees at an instant (docs/DESIGN.md "A provider's trainees at an instant"):
 * replayed from each trainee's own stream, filtered, ordered and paged as the list's read models do.
 */
describe('a provider’s trainees at an instant', () => {
  let dir: string;
  let store: SqliteEventStore;
  /** The read model's answer: the ids it names per provider (the stores' query is tested by the contract suites). */
  const idsByProvider: Record<string, string[]> = { [UKPRN]: ['A', 'B', 'C', 'X'], [OTHER]: ['O'] };
  const readModel = { providerTraineeIds: async (ukprn: string) => idsByProvider[ukprn] ?? [] } as unknown as TraineeReadModel;

  const append = async (id: string, at: string, events: TraineeEvent[], revision: number | 'no_stream') =>
    store.appendToStream(traineeStreamId(id), toEventData(events, { occurredAt: at, providerUkprn: UKPRN }, newEventId), {
      expectedRevision: revision,
    });
  const register = (id: string, at: string, ukprn = UKPRN, itt_start_date = '2025-08-01') =>
    append(
      id,
      at,
      exampleRegistration({ trainee_id: id, ukprn, at, details: { itt_start_date, trainee_start_date: itt_start_date } }),
      'no_stream',
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trainees-as-of-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), synchronous: 'normal' });
    await register('A', '2025-09-01T10:00:00.000Z');
    // B and C share their updated_at: C, registered later, comes first (ties newest-created first).
    await register('B', '2025-09-02T10:00:00.000Z');
    await register('C', '2025-09-02T10:00:00.000Z');
    await register('O', '2025-09-01T10:00:00.000Z', OTHER);
    // X starts its course later than the instants asked about.
    await register('X', '2025-09-03T10:00:00.000Z', UKPRN, '2025-10-01');
    await append('A', '2025-09-05T10:00:00.000Z', [traineeUpdated({ trainee_id: 'A', at: '2025-09-05T10:00:00.000Z' })], 3);
    await append(
      'B',
      '2025-09-06T10:00:00.000Z',
      [traineeDeferred({ trainee_id: 'B', defer_date: '2025-09-06', at: '2025-09-06T10:00:00.000Z' })],
      3,
    );
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = (over: Partial<TraineeListQuery> = {}): TraineeListQuery => ({
    ukprn: UKPRN,
    academicCycle: 2025,
    page: 1,
    perPage: 50,
    sortOrder: 'desc',
    today: '2025-09-04',
    ...over,
  });
  const ids = async (q: TraineeListQuery, at: string) =>
    (await listTraineesAsOf(store, readModel, q, new Date(at), scanInThisThread(store))).items.map((t) => t.trainee_id);

  it('folds each trainee to the instant and leaves out those not registered yet', async () => {
    const at = new Date('2025-09-02T12:00:00Z');
    const found: TraineeAtInstant[] = [];
    for await (const t of providerTraineesAsOf(store, readModel, UKPRN, at)) found.push(t);
    expect(found.map((t) => t.trainee.trainee_id)).toEqual(['A', 'B', 'C']);
    expect(found.every((t) => t.trainee.state === 'submitted_for_trn')).toBe(true);
    expect(found[1].createdPosition).toBeLessThan(found[2].createdPosition);
  });

  it('refuses a search, whose names the sealed scan cannot read, and takes an empty one as none', async () => {
    await expect(ids(query({ search: ['doe'] }), '2025-09-04T00:00:00Z')).rejects.toThrow(RangeError);
    expect(await ids(query({ search: [] }), '2025-09-04T00:00:00Z')).toEqual(['X', 'C', 'B', 'A']);
  });

  it('orders by updated_at then newest-created first, both ways, and pages', async () => {
    expect(await ids(query(), '2025-09-04T00:00:00Z')).toEqual(['X', 'C', 'B', 'A']);
    expect(await ids(query({ sortOrder: 'asc' }), '2025-09-04T00:00:00Z')).toEqual(['A', 'C', 'B', 'X']);
    // After the update of A and the deferral of B, both move up.
    expect(await ids(query(), '2025-09-07T00:00:00Z')).toEqual(['B', 'A', 'X', 'C']);
    const page = await listTraineesAsOf(
      store,
      readModel,
      query({ perPage: 3, page: 2 }),
      new Date('2025-09-04T00:00:00Z'),
      scanInThisThread(store),
    );
    expect({ ids: page.items.map((t) => t.trainee_id), total: page.totalCount }).toEqual({ ids: ['A'], total: 4 });
    const past = await listTraineesAsOf(
      store,
      readModel,
      query({ perPage: 3, page: 3 }),
      new Date('2025-09-04T00:00:00Z'),
      scanInThisThread(store),
    );
    expect(past).toEqual({ items: [], totalCount: 4 });
  });

  it('applies the filters to the trainees as they stood, on the instant’s date', async () => {
    const at = '2025-09-07T00:00:00Z';
    expect(await ids(query({ statuses: ['deferred'], today: '2025-09-07' }), at)).toEqual(['B']);
    expect(await ids(query({ statuses: ['in_training'], today: '2025-09-07' }), at)).toEqual(['A', 'C']);
    expect(await ids(query({ statuses: ['course_not_yet_started'], today: '2025-09-07' }), at)).toEqual(['X']);
    expect(await ids(query({ statuses: ['deferred'], today: '2025-09-04' }), '2025-09-04T00:00:00Z')).toEqual([]);
    expect(await ids(query({ since: '2025-09-05T00:00:00.000Z', today: '2025-09-07' }), at)).toEqual(['B', 'A']);
    expect(await ids(query({ hasTrn: true, today: '2025-09-07' }), at)).toEqual([]);
    expect(await ids(query({ academicCycle: 2024, today: '2025-09-07' }), at)).toEqual([]);
  });

  it('finds the same when the streams are folded on threads of their own (the API’s scan on the embedded log), several at once', async () => {
    const scan = asOfScanInThreads(dir);
    const asked: [TraineeListQuery, string][] = [
      [query(), '2025-09-04T00:00:00Z'],
      [query({ sortOrder: 'asc' }), '2025-09-07T00:00:00Z'],
      [query({ statuses: ['in_training'], today: '2025-09-07' }), '2025-09-07T00:00:00Z'],
      [query({ perPage: 3, page: 2 }), '2025-09-04T00:00:00Z'],
    ];
    const threaded = await Promise.all(asked.map(([q, at]) => listTraineesAsOf(store, readModel, q, new Date(at), scan)));
    const here = await Promise.all(asked.map(([q, at]) => listTraineesAsOf(store, readModel, q, new Date(at), scanInThisThread(store))));
    expect(threaded.map((p) => p.items.map((t) => t.trainee_id))).toEqual([['X', 'C', 'B', 'A'], ['C', 'X', 'A', 'B'], ['A', 'C'], ['A']]);
    expect(threaded).toEqual(here);
  });

  it('never lists another provider’s trainee, even one the read model would name', async () => {
    idsByProvider[UKPRN].push('O');
    try {
      expect(await ids(query(), '2025-09-04T00:00:00Z')).not.toContain('O');
    } finally {
      idsByProvider[UKPRN].pop();
    }
  });
});

describe('readAhead: the streams of an as-of replay read several at once, yielded in order', () => {
  it('keeps at most `ahead` reads started and not yet yielded, and yields in the order given', async () => {
    let inFlight = 0;
    let most = 0;
    const read = async (n: number): Promise<number> => {
      inFlight++;
      most = Math.max(most, inFlight);
      // Later items answer sooner: the order yielded must still be the order given.
      await new Promise((resolve) => setTimeout(resolve, 20 - n));
      inFlight--;
      return n * 10;
    };
    const yielded: number[] = [];
    for await (const value of readAhead([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 4, read)) yielded.push(value);
    expect(yielded).toEqual([10, 20, 30, 40, 50, 60, 70, 80, 90, 100]);
    expect(most).toBe(4);
  });

  it('throws a read’s error when its turn comes, after the ones before it', async () => {
    const yielded: number[] = [];
    const reading = (async () => {
      for await (const value of readAhead([1, 2, 3], 3, async (n) => (n === 2 ? Promise.reject(new Error('no 2')) : n)))
        yielded.push(value);
    })();
    await expect(reading).rejects.toThrow('no 2');
    expect(yielded).toEqual([1]);
  });
});
