import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newEventId, toEventData } from '@app/event-sourcing';
import { evolveAll, NotFound, traineeStreamId, type TraineeEvent } from '@app/trainees/decider';
import { exampleHistoryIn, exampleRegistration, EXAMPLE_WITHDRAWAL } from '@app/trainees/decider/testing/trainee-events';
import type { TraineeEnding } from '@app/trainees/read';
import type { Trainee } from '@app/trainees/record';
import { SqliteEventStore } from '@app/stores/sqlite';
import type { ErasurePorts } from './erase-trainee';
import { applyRetention, courseEndedOn, cutoffProblem, endedBefore, RETENTION_PAGE } from './retention';

/** The example trainee after `events`. */
function traineeAfter(events: TraineeEvent[]): Trainee {
  const state = evolveAll(events);
  if (!state.exists) throw new Error('no trainee');
  return state.trainee;
}

describe('the retention policy (docs/operations.md "Retention")', () => {
  it('takes the award’s date, the withdrawal’s, else the ITT end date as the day the course ended', () => {
    const awarded = traineeAfter(exampleHistoryIn('awarded'));
    expect(courseEndedOn(awarded)).toBe(awarded.awarded_at!.slice(0, 10));
    const withdrawn = traineeAfter(exampleHistoryIn('withdrawn'));
    expect(courseEndedOn(withdrawn)).toBe(EXAMPLE_WITHDRAWAL.date);
    const training = traineeAfter(exampleHistoryIn('trn_received'));
    expect(courseEndedOn(training)).toBe(training.details.itt_end_date);
  });

  it('takes a real date not after today as the cut-off, and says why it refuses another', () => {
    expect(cutoffProblem('2019-08-01', '2026-05-01')).toBeNull();
    expect(cutoffProblem('2026-05-01', '2026-05-01')).toBeNull();
    expect(cutoffProblem('2026-05-02', '2026-05-01')).toBe('after today: a course that ends later has not ended');
    for (const bad of ['2019-02-30', '2019-8-01', '01/08/2019', '']) expect(cutoffProblem(bad, '2026-05-01')).toBe('not a date YYYY-MM-DD');
  });

  it('finds every trainee whose course ended before the cut-off, reading the read model a page at a time', async () => {
    const all: TraineeEnding[] = Array.from({ length: RETENTION_PAGE * 2 + 5 }, (_, i) => ({
      trainee_id: `T${String(i).padStart(5, '0')}`,
      ukprn: '10000001',
      state: 'awarded',
      ended_on: i % 3 === 0 ? '2018-07-31' : '2024-07-31',
    }));
    const asked: (string | null)[] = [];
    const readModel = {
      listEndings: async (after: string | null, limit: number) => {
        asked.push(after);
        return all.filter((t) => after === null || t.trainee_id > after).slice(0, limit);
      },
    };
    const due = await endedBefore(readModel, '2019-08-01');
    expect(due).toEqual(all.filter((t) => t.ended_on < '2019-08-01'));
    expect(asked).toEqual([null, all[RETENTION_PAGE - 1].trainee_id, all[2 * RETENTION_PAGE - 1].trainee_id]);
  });

  describe('applyRetention', () => {
    let dir: string;
    let store: SqliteEventStore;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'retention-'));
      store = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), synchronous: 'normal' });
    });
    afterEach(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('erases each trainee due with a reason naming the policy, and goes on past one it cannot erase', async () => {
      const stream = traineeStreamId('T1');
      await store.appendToStream(stream, toEventData(exampleRegistration(), { occurredAt: '2018-01-01T00:00:00.000Z' }, newEventId));
      const destroyed: string[] = [];
      const ports: ErasurePorts = {
        eventStore: store,
        resolveId: async () => null,
        destroyKey: async (id) => (destroyed.push(id), true),
        forgetProjected: async () => undefined,
        forgetAnswers: async () => 0,
        forgetDeliveries: async () => 0,
        forgetUploads: async () => ({ purged: 0, purgedWhenSubmitted: 0 }),
        clock: () => new Date('2026-05-01T00:00:00.000Z'),
      };
      const ending = (trainee_id: string): TraineeEnding => ({ trainee_id, ukprn: '10000001', state: 'awarded', ended_on: '2018-07-31' });
      let told = 0;
      const run = await applyRetention(ports, [ending('T404'), ending('T1')], '2019-08-01', 'ops', () => told++);
      expect(run).toEqual({ erased: 1, failures: [`T404: ${new NotFound('Trainee').message}`] });
      expect(told).toBe(2);
      expect(destroyed).toEqual(['T1']);
      const events = await store.readStream(stream);
      expect(events.at(-1)).toMatchObject({
        type: 'TraineeErased',
        data: { trainee_id: 'T1', reason: 'Retention policy: course ended 2018-07-31, before 2019-08-01', erased_by: 'ops' },
      });
    });
  });
});
