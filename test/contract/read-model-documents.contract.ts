/**
 * The read-model contract's suite of trainee documents (test/contract/read-model.contract.ts):
 * applyBatch and getTrainee, the writer's snapshot, the checkpoint and a batch it cannot apply. Rule
 * sources: docs/DESIGN.md "Read models" and property 5; docs/reference/API-FACTS.md §1.10
 * (case-insensitive ids); the ports' documentation.
 */
import type { Trainee } from '@app/trainees/record';
import { traineeStreamId } from '@app/trainees/decider';
import { PROJECTION_VERSIONS } from '@app/runtime/projector';
import {
  type ContractRun,
  decidedHistory,
  type EventLog,
  evolveAllTrainee,
  interleave,
  listQuery,
  openContractRun,
  registration,
  updated,
} from './read-model-fixtures';
import type { ReadModelContractContext } from './read-model.contract';

/**
 * Registers the trainee-document suite of the read-model contract for adapter `name`; `factory`
 * is called before each test and the returned `cleanup` after it.
 */
export function describeTraineeDocumentsContract(name: string, factory: () => Promise<ReadModelContractContext>): void {
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
    const getAll = (ids: string[]): Promise<(Trainee | null)[]> => Promise.all(ids.map((id) => rm.getTrainee(id)));

    describe('applyBatch and getTrainee', () => {
      it('stores the document evolve builds and finds it by id in any letter case (docs/reference/API-FACTS.md §1.10)', async () => {
        const id = tid('MiXeD');
        const { events, expected } = decidedHistory(id, ukprn, 2);
        await rm.applyBatch(log.trainee(events));

        const exact = await rm.getTrainee(id);
        expect(exact).toEqual(expected);
        expect(exact).toMatchObject({ trainee_id: id, ukprn, state: 'submitted_for_trn', details: { middle_names: 'M2' } });
        expect(exact?.placements).toHaveLength(1);
        expect(exact?.degrees).toHaveLength(1);
        expect(await rm.getTrainee(id.toUpperCase())).toEqual(expected);
        expect(await rm.getTrainee(id.toLowerCase())).toEqual(expected);
        expect(await rm.getTrainee(`${id}-unknown`)).toBeNull();
      });

      it('re-applying a batch and redelivering part of it leave identical documents (idempotent apply)', async () => {
        const a = decidedHistory(tid('a'), ukprn, 3);
        const b = decidedHistory(tid('b'), ukprn, 2);
        const events = interleave(log.trainee(a.events), log.trainee(b.events));
        await rm.applyBatch(events);
        const once = await getAll([tid('a'), tid('b')]);
        expect(once).toEqual([a.expected, b.expected]);
        const listOnce = await rm.listTrainees(listQuery(ukprn));

        await rm.applyBatch(events);
        await rm.applyBatch(events.slice(2, 7));
        await rm.applyBatch(events.slice(0, 1));
        for (const e of events) await rm.applyBatch([e]);

        expect(await getAll([tid('a'), tid('b')])).toEqual(once);
        const listAgain = await rm.listTrainees(listQuery(ukprn));
        expect(listAgain).toEqual(listOnce);
        expect(listAgain.totalCount).toBe(2);
      });

      it('an overlapping redelivery after a partial apply builds the same document as one apply', async () => {
        const { events, expected } = decidedHistory(tid('p'), ukprn, 3);
        const recorded = log.trainee(events);
        await rm.applyBatch(recorded.slice(0, 4));
        const partial = await rm.getTrainee(tid('p'));
        expect(partial).toEqual(evolveAllTrainee(events.slice(0, 4)));
        await rm.applyBatch(recorded.slice(2));
        expect(await rm.getTrainee(tid('p'))).toEqual(expected);
      });

      it('applying event by event builds the same document as applying the whole stream at once (docs/DESIGN.md property 5)', async () => {
        const { events, expected } = decidedHistory(tid('e'), ukprn, 3);
        for (const e of log.trainee(events)) await rm.applyBatch([e]);
        expect(await rm.getTrainee(tid('e'))).toEqual(expected);
      });

      it('an old event redelivered after newer ones does not roll the document back', async () => {
        const id = tid('old');
        const recorded = log.trainee([
          ...registration({ id, ukprn, at: '2025-09-01T10:00:00.000Z' }),
          updated(id, { middle_names: 'First' }, '2025-09-02T10:00:00.000Z'),
          updated(id, { middle_names: 'Second' }, '2025-09-03T10:00:00.000Z'),
        ]);
        await rm.applyBatch(recorded);
        await rm.applyBatch([recorded[2]]);
        await rm.applyBatch(recorded.slice(0, 1));
        expect(await rm.getTrainee(id)).toMatchObject({
          details: { middle_names: 'Second' },
          state: 'submitted_for_trn',
          created_at: '2025-09-01T10:00:00.000Z',
          updated_at: '2025-09-03T10:00:00.000Z',
        });
      });
    });

    describe('getTraineeSnapshot (the snapshot a writer starts from)', () => {
      it('is the document evolve builds, as JSON, the stream revision of the last event applied and its hash, over several batches', async () => {
        const id = tid('Snap');
        const { events, expected } = decidedHistory(id, ukprn, 3);
        const other = decidedHistory(tid('other'), ukprn, 1);
        const recorded = interleave(log.trainee(events), log.trainee(other.events));
        await rm.applyBatch(recorded.slice(0, 4));
        await rm.applyBatch(recorded.slice(4));

        const snapshot = await rm.getTraineeSnapshot(id);
        const hashOf = (streamId: string) => recorded.filter((e) => e.streamId === streamId).at(-1)!.metadata.hash;
        expect(hashOf(`trainee-${id}`)).toMatch(/^[0-9a-f]{64}$/);
        expect(snapshot).toStrictEqual({
          trainee: JSON.parse(JSON.stringify(expected)) as Trainee,
          head: { revision: events.length - 1, link: hashOf(`trainee-${id}`) },
        });
        expect(snapshot?.trainee).toEqual(await rm.getTrainee(id));
        expect(await rm.getTraineeSnapshot(tid('other'))).toStrictEqual({
          trainee: JSON.parse(JSON.stringify(other.expected)) as Trainee,
          head: { revision: other.events.length - 1, link: hashOf(`trainee-${tid('other')}`) },
        });
      });

      it('moves with each later event; a redelivered batch leaves it as it was', async () => {
        const id = tid('moving');
        const first = log.trainee(registration({ id, ukprn, at: '2025-09-01T10:00:00.000Z' }));
        await rm.applyBatch(first);
        expect((await rm.getTraineeSnapshot(id))?.head.revision).toBe(1);

        const later = log.trainee([
          updated(id, { middle_names: 'Later' }, '2025-09-02T10:00:00.000Z'),
          updated(id, { middle_names: 'Latest' }, '2025-09-03T10:00:00.000Z'),
        ]);
        await rm.applyBatch(later);
        const snapshot = await rm.getTraineeSnapshot(id);
        expect(snapshot).toMatchObject({
          head: { revision: 3 },
          trainee: { details: { middle_names: 'Latest' }, updated_at: '2025-09-03T10:00:00.000Z' },
        });

        await rm.applyBatch([...first, ...later]);
        await rm.applyBatch(later.slice(0, 1));
        expect(await rm.getTraineeSnapshot(id)).toEqual(snapshot);
      });

      it('finds the trainee by id in any letter case, and answers null for an unknown id (docs/reference/API-FACTS.md §1.10)', async () => {
        const id = tid('CaSe');
        await rm.applyBatch(log.trainee(registration({ id, ukprn, at: '2025-09-01T10:00:00.000Z' })));
        const exact = await rm.getTraineeSnapshot(id);
        expect(exact).toMatchObject({ trainee: { trainee_id: id }, head: { revision: 1 } });
        expect(await rm.getTraineeSnapshot(id.toUpperCase())).toEqual(exact);
        expect(await rm.getTraineeSnapshot(id.toLowerCase())).toEqual(exact);
        expect(await rm.getTraineeSnapshot(`${id}-unknown`)).toBeNull();
      });

      it('answers null where the served trainee projection was built by another version than the code’s (and only the trainee projection’s version counts)', async () => {
        if (!ctx.reopen) {
          console.warn(`${name}: the runner cannot open a second instance: version test of getTraineeSnapshot not run`);
          return;
        }
        const id = tid('versioned');
        const { events, expected } = decidedHistory(id, ukprn, 1);
        const recorded = log.trainee(events);
        await rm.applyBatch(recorded);
        const hash = recorded.at(-1)!.metadata.hash;
        const newerTrainees = await ctx.reopen({ codeVersions: { trainees: PROJECTION_VERSIONS.trainees + 1 } });
        const newerProviders = await ctx.reopen({ codeVersions: { providers: PROJECTION_VERSIONS.providers + 1 } });

        expect(await newerTrainees.getTraineeSnapshot(id)).toBeNull();
        expect(await newerTrainees.getTrainee(id)).toEqual(expected);
        const head = { revision: events.length - 1, link: hash };
        expect(await newerProviders.getTraineeSnapshot(id)).toEqual({ trainee: expected, head });
        expect(await rm.getTraineeSnapshot(id)).toEqual({ trainee: expected, head });
      });
    });

    describe('checkpoint', () => {
      it('is the position of the last event applied and never moves back', async () => {
        const first = log.trainee(registration({ id: tid('c1'), ukprn, at: '2025-09-01T10:00:00.000Z' }));
        await rm.applyBatch(first);
        expect(await rm.checkpoint()).toBe(first[first.length - 1].position);

        const second = log.trainee(registration({ id: tid('c2'), ukprn, at: '2025-09-01T11:00:00.000Z' }));
        await rm.applyBatch(second);
        const high = second[second.length - 1].position;
        expect(high).toBeGreaterThan(first[first.length - 1].position);
        expect(await rm.checkpoint()).toBe(high);

        await rm.applyBatch(first);
        expect(await rm.checkpoint()).toBe(high);
        await rm.applyBatch([]);
        expect(await rm.checkpoint()).toBe(high);
      });

      it('advances past events of types the read models do not project', async () => {
        const other = log.other(`registrationguard-${run}`, 'RegistrationClaimed', { trainee_id: tid('g') });
        await rm.applyBatch([other]);
        expect(await rm.checkpoint()).toBe(other.position);
        expect(await rm.getTrainee(tid('g'))).toBeNull();
      });
    });

    describe('a batch it cannot apply (docs/operations.md "Health")', () => {
      it('throws and leaves the checkpoint where it was, so the projector retries the batch and never skips it', async () => {
        await rm.applyBatch(log.trainee(registration({ id: tid('p1'), ukprn, at: '2025-09-01T10:00:00.000Z' })));
        const at = await rm.checkpoint();
        const bad = log.other(traineeStreamId(tid('p2')), 'TraineeRegistered', {});
        const after = log.trainee(registration({ id: tid('p3'), ukprn, at: '2025-09-01T11:00:00.000Z' }));
        await expect(rm.applyBatch([bad, ...after])).rejects.toThrow();
        expect(await rm.checkpoint()).toBe(at);
        const another = await ctx.reopen?.();
        if (another) expect(await another.checkpoint()).toBe(at);
      });
    });
  });
}
