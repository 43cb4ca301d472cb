/**
 * The read-model contract's suite of what a read store does beyond serving reads
 * (test/contract/read-model.contract.ts; libs/runtime/projector/projection-store.port.ts
 * `ReadModelStore`, `CheckpointStore`; libs/trainees/read/trainee-read.port.ts `listEndings`):
 * forgetting an erased trainee (docs/DESIGN.md "Personal data"), the retention run's pages of
 * endings (docs/operations.md "Retention") and the named checkpoints of other log consumers.
 */
import { LOG_START, logPosition, type RecordedEvent } from '@app/event-sourcing';
import { ERASED } from '@app/personal-data';
import { courseEndedOn } from '@app/personal-data/erasure';
import { FLAGGED_PERSONAL_FIELDS, type TraineeEvent } from '@app/trainees/decider';
import { trnIssued } from '@app/trainees/decider/testing/trainee-events';
import type { TraineeEnding } from '@app/trainees/read';
import { API_VERSIONS } from '@app/trainees/record';
import { type ContractRun, decidedHistory, type EventLog, evolveAllTrainee, openContractRun } from './read-model-fixtures';
import type { ReadModelContractContext } from './read-model.contract';

/** `stream` as read once the trainee's key is destroyed: its TRN and names read {@link ERASED}. */
function readAfterErasure(stream: readonly RecordedEvent[]): RecordedEvent[] {
  return stream.map((e) => {
    const data = { ...(e.data as Record<string, unknown>) };
    if (typeof data.trn === 'string') data.trn = ERASED;
    if (data.details) data.details = { ...(data.details as object), first_names: ERASED, last_name: ERASED };
    return { ...e, data };
  });
}

/**
 * Registers the read-store suite of the read-model contract for adapter `name`; `factory` is
 * called before each test and the returned `cleanup` after it.
 */
export function describeReadStoreContract(name: string, factory: () => Promise<ReadModelContractContext>): void {
  describe(`Read-model contract, the read store: ${name}`, () => {
    let ctx: ReadModelContractContext;
    let rm: ContractRun['rm'];
    let log: EventLog;
    let run: string;
    let ukprn: string;

    beforeEach(async () => {
      ({ ctx, rm, log, run, ukprn } = await openContractRun(factory));
    });

    afterEach(async () => {
      await ctx.cleanup();
    });

    const tid = (label: string): string => `${run}-${label}`;

    /** A trainee's history with its TRN, recorded; then its erasure, recorded after it. */
    function erasable(id: string): { history: RecordedEvent[]; erasure: RecordedEvent } {
      const events: TraineeEvent[] = [...decidedHistory(id, ukprn, 2).events, trnIssued({ trainee_id: id, trn: '7654321' })];
      const history = log.trainee(events);
      const [erasure] = log.trainee([
        { type: 'TraineeErased', data: { trainee_id: id, reason: 'Request DPO-1', erased_by: 'dpo', at: '2026-03-01T00:00:00.000Z' } },
      ]);
      return { history, erasure };
    }

    describe('eraseTrainee', () => {
      it("forgets the trainee's document and answers and keeps its feed entries without its TRN; another trainee keeps all", async () => {
        const [gone, kept] = [tid('gone'), tid('kept')];
        const erased = erasable(gone);
        const other = log.trainee(decidedHistory(kept, ukprn, 1).events);
        await rm.applyBatch([...erased.history, ...other]);
        const keptBefore = await rm.getTrainee(kept);
        const feedBefore = (await rm.listChanges(ukprn, LOG_START, 1000))!;
        expect(feedBefore.filter((c) => c.trainee_id === gone).some((c) => c.trn === '7654321')).toBe(true);

        await rm.eraseTrainee(gone, ukprn, readAfterErasure([...erased.history, erased.erasure]));
        await rm.applyBatch([erased.erasure]);

        expect(await rm.getTrainee(gone)).toBeNull();
        expect(await rm.getTraineeSnapshot(gone)).toBeNull();
        for (const v of API_VERSIONS) expect(await rm.getTraineeAnswer(gone, v)).toBeNull();
        expect(await rm.providerTraineeIds(ukprn)).toEqual([kept]);
        const feed = (await rm.listChanges(ukprn, LOG_START, 1000))!;
        const forgotten = feed.filter((c) => c.trainee_id === gone);
        expect(forgotten.map((c) => [c.position, c.type, c.state])).toEqual(
          feedBefore.filter((c) => c.trainee_id === gone).map((c) => [c.position, c.type, c.state]),
        );
        expect(forgotten.every((c) => c.trn === null)).toBe(true);
        // One rule for every entry (docs/change-feed.md "An erased trainee's changes"): no personal field named.
        const personal = new Set([...FLAGGED_PERSONAL_FIELDS.trainee, ...FLAGGED_PERSONAL_FIELDS.degree]);
        expect(forgotten.map((c) => c.changed_fields)).toEqual(
          feedBefore.filter((c) => c.trainee_id === gone).map((c) => c.changed_fields.filter((f) => !personal.has(f))),
        );
        expect(forgotten[0].changed_fields).toEqual(expect.arrayContaining(['training_route', 'itt_start_date']));
        expect(forgotten[0].changed_fields).not.toContain('last_name');
        expect(await rm.getTrainee(kept)).toEqual(keptBefore);
        expect(feed.filter((c) => c.trainee_id === kept)).toEqual(feedBefore.filter((c) => c.trainee_id === kept));
      });

      it('changes nothing more when run again, and refuses a stream that does not end in an erasure', async () => {
        const gone = tid('gone');
        const erased = erasable(gone);
        await rm.applyBatch([...erased.history, erased.erasure]);
        const stream = readAfterErasure([...erased.history, erased.erasure]);
        await rm.eraseTrainee(gone, ukprn, stream);
        const once = await rm.listChanges(ukprn, LOG_START, 1000);
        await rm.eraseTrainee(gone, ukprn, stream);
        expect(await rm.listChanges(ukprn, LOG_START, 1000)).toEqual(once);
        expect(await rm.getTrainee(gone)).toBeNull();
        await expect(rm.eraseTrainee(gone, ukprn, stream.slice(0, -1))).rejects.toThrow();
      });
    });

    describe('listEndings', () => {
      it("pages every provider's trainees in trainee-id order, each with the date its course ended", async () => {
        const ids = ['c', 'a', 'd', 'b'].map(tid);
        const histories = ids.map((id, i) => decidedHistory(id, i % 2 ? ukprn : `${ukprn.slice(0, 7)}${(Number(ukprn[7]) + 1) % 10}`, 1));
        await rm.applyBatch(histories.flatMap((h) => log.trainee(h.events)));
        const walked: string[] = [];
        for (let after: string | null = null; ;) {
          const page: TraineeEnding[] = await rm.listEndings(after, 3);
          expect(page.length).toBeLessThanOrEqual(3);
          if (page.length === 0) break;
          for (const ending of page) {
            const at = ids.indexOf(ending.trainee_id);
            if (at < 0) continue;
            const trainee = evolveAllTrainee(histories[at].events);
            expect(ending).toEqual({
              trainee_id: trainee.trainee_id,
              ukprn: trainee.ukprn,
              state: trainee.state,
              ended_on: courseEndedOn(trainee),
            });
          }
          walked.push(...page.map((e) => e.trainee_id));
          after = page[page.length - 1].trainee_id;
        }
        expect(walked.filter((id) => ids.includes(id))).toEqual([...ids].sort());
        expect([...walked].sort()).toEqual(walked);
      });
    });

    describe('readCheckpoint and writeCheckpoint', () => {
      it("keeps each consumer's position, only forward, as another connection sees", async () => {
        const consumer = `${run}-consumer`;
        expect(await rm.readCheckpoint(consumer)).toBe(0);
        await rm.writeCheckpoint(consumer, logPosition(50));
        await rm.writeCheckpoint(consumer, logPosition(30));
        expect(await rm.readCheckpoint(consumer)).toBe(50);
        expect(await rm.readCheckpoint(`${run}-another`)).toBe(0);
        if (ctx.reopen) expect(await (await ctx.reopen()).readCheckpoint(consumer)).toBe(50);
      });
    });
  });
}
