/**
 * The read-model contract's rebuild suite of the swap (test/contract/read-model.contract.ts;
 * docs/DESIGN.md "Read models"): through `RebuildableStore` and `rebuildProjection`, reading the log
 * from an in-memory `MemoryEventStore` that holds every event the test applied. Here: every read
 * during and after the swap, the old store kept with `keepOld`, and another instance reading the
 * new store as soon as the swap is done.
 */
import type { RecordedEvent } from '@app/event-sourcing';
import { rebuildProjection, type RebuildableStore, type RebuildTarget } from '@app/runtime/rebuild';
import { type ContractRun, type EventLog, MemoryEventStore, openContractRun, updated } from './read-model-fixtures';
import { applyLive, info, rebuildTestOf, seedRebuild, type Seeded, type Snapshot, snapshotOf } from './read-model-rebuild-fixtures';
import type { ContractReadModel, ReadModelContractContext } from './read-model.contract';

/**
 * Registers the swap suite of the read-model contract's rebuild tests for adapter `name` (its tests
 * run when the read model is also a RebuildableStore); `factory` is called before each test and
 * the returned `cleanup` after it.
 */
export function describeRebuildSwapContract(name: string, factory: () => Promise<ReadModelContractContext>): void {
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

    describe('rebuild (blue/green through RebuildableStore and rebuildProjection; docs/DESIGN.md "Read models")', () => {
      /** The test's log: every event applied through `live`, what a rebuild reads. */
      let events: MemoryEventStore;

      beforeEach(() => {
        events = new MemoryEventStore();
      });

      /** Applies a batch as the live projector does, through `reader` (default the factory's read model), and logs it. */
      const live = (batch: RecordedEvent[], reader: ContractReadModel = rm): Promise<void> => applyLive(events, batch, reader);
      const rebuildTest = rebuildTestOf(name, () => ({ rm, ctx }));
      const seed = (count?: number): Promise<Seeded> => seedRebuild({ log, run, ukprn, live }, count);
      const snapshot = (reader: ContractReadModel, s: Seeded): Promise<Snapshot> => snapshotOf(reader, ukprn, s);

      rebuildTest(
        'keeps every read working during and after the swap, and an event applied live while the swap runs is in the new store',
        async (store) => {
          const s = await seed();
          const before = await snapshot(rm, s);
          // Another instance (another process's view) that has read the old store just before.
          const other = ctx.reopen ? await ctx.reopen() : null;
          if (other) expect(await snapshot(other, s)).toEqual(before);
          const readers = other ? [rm, other] : [rm];
          const changing = 2;
          const oldName = before.trainees[changing]?.details.middle_names;
          /** What no event applied during the rebuild changes (the changing trainee moves in the lists). */
          const steady = (snap: Snapshot) => ({
            ...snap,
            trainees: snap.trainees.filter((_, i) => i !== changing),
            listDesc: { totalCount: snap.listDesc.totalCount, ids: snap.listDesc.items.map((t) => t.trainee_id).sort() },
            listAscPage2: snap.listAscPage2.totalCount,
          });
          const failures: string[] = [];
          const check = async (phase: string): Promise<void> => {
            for (const [i, reader] of readers.entries()) {
              try {
                const now = await snapshot(reader, s);
                expect(steady(now)).toEqual(steady(before));
                expect([oldName, 'DuringSwap']).toContain(now.trainees[changing]?.details.middle_names);
              } catch (error) {
                failures.push(`${phase}, reader ${i}: ${String(error)}`);
              }
            }
          };

          const update = log.trainee([updated(s.ids[changing], { middle_names: 'DuringSwap' }, '2026-03-03T00:00:00.000Z')]);
          let swapReads = 0;
          let liveDuringSwap: Promise<void> = Promise.resolve();
          // The store as rebuildProjection sees it, with reads after every batch of the rebuild and
          // before every read of the swap's catch-up; before the first, the event is logged and
          // applied live (not awaited: a store may hold it back until the swap is done).
          const watched: RebuildableStore = {
            projectionInfo: () => store.projectionInfo(),
            beginRebuild: async (projection) => {
              const target = await store.beginRebuild(projection);
              const wrapped: RebuildTarget = {
                name: target.name,
                store: target.store,
                version: target.version,
                checkpoint: () => target.checkpoint(),
                applyBatch: async (batch) => {
                  await target.applyBatch(batch);
                  await check(`after a rebuild batch up to ${batch[batch.length - 1].position}`);
                },
                swap: (readAfter, options) =>
                  target.swap(async (position) => {
                    await check(`before swap read ${++swapReads}`);
                    if (swapReads === 1) {
                      events.add(update);
                      liveDuringSwap = rm.applyBatch(update);
                    }
                    return readAfter(position);
                  }, options),
              };
              return wrapped;
            },
          };
          const outcome = await rebuildProjection(events, watched, 'trainees', { batchSize: 5 });
          await liveDuringSwap;
          expect(outcome).toMatchObject({
            interrupted: false,
            previous: `v${(await info(store, 'trainees')).code_version}`,
            dropped: true,
          });
          expect(swapReads).toBeGreaterThanOrEqual(2);
          expect(failures).toEqual([]);

          const after = await snapshot(rm, s);
          expect(after.trainees[changing]?.details.middle_names).toBe('DuringSwap');
          expect(steady(after)).toEqual(steady(before));
          if (other) expect(await snapshot(other, s)).toEqual(after);
          expect(await rm.checkpoint()).toBe(update[0].position);
          expect(await info(store, 'trainees')).toMatchObject({ store: outcome.store, rebuilding: null, checkpoint: update[0].position });

          // The next live batch goes to the new store.
          const next = log.trainee([updated(s.ids[changing], { middle_names: 'AfterSwap' }, '2026-03-04T00:00:00.000Z')]);
          await live(next);
          for (const reader of readers) expect((await reader.getTrainee(s.ids[changing]))?.details.middle_names).toBe('AfterSwap');
          expect(await info(store, 'trainees')).toMatchObject({ store: outcome.store, checkpoint: next[0].position });
        },
      );

      rebuildTest(
        'keeps the old store with keepOld, names the next store past it, and drops the store the next swap replaces',
        async (store) => {
          const s = await seed();
          const before = await snapshot(rm, s);
          const code = (await info(store, 'trainees')).code_version;
          const pcode = (await info(store, 'providers')).code_version;

          const kept = await rebuildProjection(events, store, 'trainees', { keepOld: true, batchSize: 7 });
          expect(kept).toMatchObject({ interrupted: false, store: `v${code}_g2`, previous: `v${code}`, dropped: false });
          expect(await snapshot(rm, s)).toEqual(before);
          if (ctx.storeExists) {
            expect(await ctx.storeExists('trainees', `v${code}`)).toBe(true);
            expect(await ctx.storeExists('trainees', `v${code}_g2`)).toBe(true);
          }

          const next = await rebuildProjection(events, store, 'trainees', { batchSize: 7 });
          expect(next).toMatchObject({ interrupted: false, store: `v${code}_g3`, previous: `v${code}_g2`, dropped: true });
          expect(await snapshot(rm, s)).toEqual(before);
          expect(await info(store, 'trainees')).toMatchObject({
            store: `v${code}_g3`,
            rebuilding: null,
            documents: s.ids.length,
            checkpoint: log.position,
          });
          if (ctx.storeExists) {
            expect(await ctx.storeExists('trainees', `v${code}`)).toBe(true);
            expect(await ctx.storeExists('trainees', `v${code}_g2`)).toBe(false);
            expect(await ctx.storeExists('trainees', `v${code}_g3`)).toBe(true);
          }

          const providers = await rebuildProjection(events, store, 'providers', { keepOld: true });
          expect(providers).toMatchObject({ interrupted: false, store: `v${pcode}_g2`, previous: `v${pcode}`, dropped: false });
          expect(await snapshot(rm, s)).toEqual(before);
          if (ctx.storeExists) expect(await ctx.storeExists('providers', `v${pcode}`)).toBe(true);
        },
      );

      rebuildTest(
        'another instance reads the new store as soon as the swap is done, even with the old store kept (docs/DESIGN.md "What the MongoDB read model guarantees")',
        async (store) => {
          const s = await seed();
          // Another process's view, which has just read the store being swapped out.
          const other = (await ctx.reopen!()) as ContractReadModel;
          const changing = 1;
          expect((await other.getTrainee(s.ids[changing]))?.details.middle_names).toBe(s.expected[changing].details.middle_names);

          await rebuildProjection(events, store, 'trainees', { keepOld: true, batchSize: 7 });
          const update = log.trainee([updated(s.ids[changing], { middle_names: 'AfterSwap' }, '2026-03-04T00:00:00.000Z')]);
          await live(update);

          // Read at once (no wait): the kept old store still holds the old document.
          expect((await other.getTrainee(s.ids[changing]))?.details.middle_names).toBe('AfterSwap');
          expect((await other.getTraineeSnapshot(s.ids[changing]))?.head.revision).toBe(update[0].streamRevision);
        },
        { needsReopen: true },
      );
    });
  });
}
