/**
 * The read-model contract's first rebuild suite (test/contract/read-model.contract.ts; docs/DESIGN.md
 * "Read models"): a blue/green rebuild of each projection through `RebuildableStore` and
 * `rebuildProjection`, reading the log from an in-memory `MemoryEventStore` that holds every event
 * the test applied. Here: the full rebuild, a rebuild stopped and resumed under live writes, and a
 * rebuild for another code version that every instance follows.
 */
import type { RecordedEvent } from '@app/event-sourcing';
import { keepsRebuildRuns, rebuildProjection } from '@app/runtime/rebuild';
import {
  type ContractRun,
  decidedHistory,
  type EventLog,
  isRebuildable,
  MemoryEventStore,
  openContractRun,
  updated,
} from './read-model-fixtures';
import {
  applyLive,
  info,
  rebuildHash,
  rebuildTestOf,
  seedRebuild,
  type Seeded,
  type Snapshot,
  snapshotOf,
} from './read-model-rebuild-fixtures';
import type { ContractReadModel, ReadModelContractContext } from './read-model.contract';

/**
 * Registers the first rebuild suite of the read-model contract for adapter `name` (its tests run
 * when the read model is also a RebuildableStore); `factory` is called before each test and the
 * returned `cleanup` after it.
 */
export function describeRebuildContract(name: string, factory: () => Promise<ReadModelContractContext>): void {
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
      const rbHash = (label: string): string => rebuildHash(run, label);

      rebuildTest(
        'rebuilds each projection into a new store that answers every read as the live store did (docs/DESIGN.md property 5)',
        async (store) => {
          const s = await seed();
          const before = await snapshot(rm, s);
          expect(before.trainees).toEqual(s.expected);
          expect(before.duplicates).toEqual(s.ids);
          expect(before.listDesc.totalCount).toBe(s.ids.length);
          expect(before.tokens.map((t) => t.status)).toEqual(['revoked', 'active']);
          const trainees0 = await info(store, 'trainees');
          const providers0 = await info(store, 'providers');
          const [code, pcode] = [trainees0.code_version, providers0.code_version];
          expect(trainees0).toEqual({
            name: 'trainees',
            code_version: code,
            version: code,
            store: `v${code}`,
            checkpoint: log.position,
            documents: s.ids.length,
            rebuild_needed: false,
            skipped_events: 0,
            rebuilding: null,
          });
          expect(providers0).toEqual({
            name: 'providers',
            code_version: pcode,
            version: pcode,
            store: `v${pcode}`,
            checkpoint: log.position,
            documents: 1,
            rebuild_needed: false,
            skipped_events: 0,
            rebuilding: null,
          });

          const trainees = await rebuildProjection(events, store, 'trainees', { batchSize: 4 });
          expect(trainees).toMatchObject({
            interrupted: false,
            store: `v${code}_g2`,
            previous: `v${code}`,
            dropped: true,
            events: s.projected,
          });
          expect(await snapshot(rm, s)).toEqual(before);
          expect(await info(store, 'trainees')).toEqual({ ...trainees0, store: `v${code}_g2` });
          expect(await info(store, 'providers')).toEqual(providers0);

          const providers = await rebuildProjection(events, store, 'providers', { batchSize: 3 });
          expect(providers).toMatchObject({
            interrupted: false,
            store: `v${pcode}_g2`,
            previous: `v${pcode}`,
            dropped: true,
            events: s.projected,
          });
          expect(await snapshot(rm, s)).toEqual(before);
          expect(await info(store, 'providers')).toEqual({ ...providers0, store: `v${pcode}_g2` });
          expect(await rm.checkpoint()).toBe(log.position);
          if (ctx.storeExists) {
            expect(await ctx.storeExists('trainees', `v${code}`)).toBe(false);
            expect(await ctx.storeExists('trainees', `v${code}_g2`)).toBe(true);
            expect(await ctx.storeExists('providers', `v${pcode}`)).toBe(false);
            expect(await ctx.storeExists('providers', `v${pcode}_g2`)).toBe(true);
          }
        },
      );

      rebuildTest(
        'stops between batches when asked and resumes from the new store’s checkpoint; until the swap the old store serves and takes live writes',
        async (store) => {
          const s = await seed();
          const before = await snapshot(rm, s);
          const code = (await info(store, 'trainees')).code_version;
          const providers0 = await info(store, 'providers');
          let batches = 0;
          const first = await rebuildProjection(events, store, 'trainees', { batchSize: 5, shouldStop: () => ++batches > 2 });
          expect(first).toMatchObject({ interrupted: true, store: `v${code}_g2`, events: 10, previous: null, dropped: false });
          // The run is recorded beside the read models (docs/observability.md "Rebuilds").
          if (keepsRebuildRuns(store)) {
            expect(await store.rebuildRuns.all()).toEqual([
              expect.objectContaining({ projection: 'trainees', store: `v${code}_g2`, state: 'interrupted', events: 10 }),
            ]);
          }
          expect(await info(store, 'trainees')).toMatchObject({
            version: code,
            store: `v${code}`,
            rebuilding: `v${code}_g2`,
            rebuild_needed: false,
            checkpoint: log.position,
            documents: s.ids.length,
          });
          expect(await info(store, 'providers')).toEqual(providers0);
          expect(await snapshot(rm, s)).toEqual(before);

          // Live writes while the rebuild is stopped: an update, a new trainee, a new token.
          const late = decidedHistory(tid('rblate'), ukprn, 1);
          const token = tid('rbtok3');
          const batch = [
            ...log.trainee([updated(s.ids[0], { middle_names: 'WhileStopped' }, '2026-03-01T00:00:00.000Z')]),
            ...log.trainee(late.events),
            ...log.provider([
              {
                type: 'TokenIssued',
                data: { ukprn, token_id: token, token_hash: rbHash('c'), expires_at: null, at: '2025-01-05T09:00:00.000Z' },
              },
            ]),
          ];
          await live(batch);
          s.ids.push(late.expected.trainee_id);
          s.tokens.push(token);
          s.hashes.push(rbHash('c'));
          s.projected += batch.length;
          const liveState = await snapshot(rm, s);
          expect(liveState.trainees[0]?.details.middle_names).toBe('WhileStopped');
          expect(liveState.trainees[s.ids.length - 1]).toEqual(late.expected);
          expect(await info(store, 'trainees')).toMatchObject({ store: `v${code}`, rebuilding: `v${code}_g2`, checkpoint: log.position });

          const second = await rebuildProjection(events, store, 'trainees', { batchSize: 5 });
          expect(second).toMatchObject({
            interrupted: false,
            store: `v${code}_g2`,
            previous: `v${code}`,
            dropped: true,
            events: s.projected - 10,
          });
          if (keepsRebuildRuns(store)) {
            const [run] = await store.rebuildRuns.all();
            expect(run).toMatchObject({ projection: 'trainees', store: `v${code}_g2`, state: 'finished', events: s.projected - 10 });
            expect(Date.parse(run.updated_at)).toBeGreaterThanOrEqual(Date.parse(run.started_at));
            expect(run.seconds).toBeGreaterThanOrEqual(0);
          }
          expect(await snapshot(rm, s)).toEqual(liveState);
          expect(await info(store, 'trainees')).toMatchObject({
            version: code,
            store: `v${code}_g2`,
            rebuilding: null,
            rebuild_needed: false,
            checkpoint: log.position,
            documents: s.ids.length,
          });
          expect(await info(store, 'providers')).toMatchObject({ store: providers0.store, rebuilding: null, checkpoint: log.position });
        },
      );

      rebuildTest(
        'reports a store built by another code version as rebuild_needed, serves it until the rebuild, and every instance follows the swap',
        async (store) => {
          const s = await seed();
          const before = await snapshot(rm, s);
          const code = (await info(store, 'trainees')).code_version;
          const upgraded = await ctx.reopen!({ codeVersions: { trainees: code + 1 } });
          if (!isRebuildable(upgraded)) throw new Error('reopen returned a read model that is not a RebuildableStore');
          expect(await info(upgraded, 'trainees')).toMatchObject({
            code_version: code + 1,
            version: code,
            store: `v${code}`,
            rebuild_needed: true,
            rebuilding: null,
          });
          expect(await info(upgraded, 'providers')).toMatchObject({ rebuild_needed: false, rebuilding: null });
          expect(await snapshot(upgraded, s)).toEqual(before);
          // A writer of the new version does not start from the old version's documents.
          expect(await upgraded.getTraineeSnapshot(s.ids[0])).toBeNull();
          expect((await rm.getTraineeSnapshot(s.ids[0]))?.trainee).toEqual(before.trainees[0]);

          let batches = 0;
          const first = await rebuildProjection(events, upgraded, 'trainees', { batchSize: 6, shouldStop: () => ++batches > 1 });
          expect(first).toMatchObject({ interrupted: true, store: `v${code + 1}`, events: 6 });
          expect(await info(store, 'trainees')).toMatchObject({
            version: code,
            store: `v${code}`,
            rebuilding: `v${code + 1}`,
            rebuild_needed: false,
          });
          expect(await info(upgraded, 'trainees')).toMatchObject({
            version: code,
            store: `v${code}`,
            rebuilding: `v${code + 1}`,
            rebuild_needed: true,
          });

          const second = await rebuildProjection(events, upgraded, 'trainees', { batchSize: 6 });
          expect(second).toMatchObject({
            interrupted: false,
            store: `v${code + 1}`,
            previous: `v${code}`,
            dropped: true,
            events: s.projected - 6,
          });
          expect(await info(upgraded, 'trainees')).toMatchObject({
            code_version: code + 1,
            version: code + 1,
            store: `v${code + 1}`,
            rebuild_needed: false,
            rebuilding: null,
            documents: s.ids.length,
            checkpoint: log.position,
          });
          // The first instance, built for the old version, reads the new store and reports the mismatch from its side.
          expect(await snapshot(rm, s)).toEqual(before);
          expect(await snapshot(upgraded, s)).toEqual(before);
          expect(await info(store, 'trainees')).toMatchObject({
            code_version: code,
            version: code + 1,
            store: `v${code + 1}`,
            rebuild_needed: true,
          });
          expect((await upgraded.getTraineeSnapshot(s.ids[0]))?.trainee).toEqual(before.trainees[0]);
          expect(await rm.getTraineeSnapshot(s.ids[0])).toBeNull();

          // Live batches through either instance now land in the new store.
          const update = log.trainee([updated(s.ids[1], { middle_names: 'AfterSwap' }, '2026-03-02T00:00:00.000Z')]);
          await live(update);
          expect((await upgraded.getTrainee(s.ids[1]))?.details.middle_names).toBe('AfterSwap');
          expect(await upgraded.checkpoint()).toBe(update[0].position);
          if (ctx.storeExists) expect(await ctx.storeExists('trainees', `v${code}`)).toBe(false);
        },
        { needsReopen: true },
      );
    });
  });
}
