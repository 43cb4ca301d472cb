import { randomBytes, randomInt } from 'node:crypto';
import { changedFields, type StoredChange } from '@app/changes';
import { decodeTraineeEvent, evolveAll } from '@app/trainees/decider';
import { LOG_START, type LogPosition, type RecordedEvent } from '@app/event-sourcing';
import { decidedHistory, EventLog, type ReadModelContractContext } from './read-model.contract';

/** The whole feed of `ukprn`, asserting the store answers one (a store of this code's version does). */
async function feedOf(
  rm: ReadModelContractContext['readModel'],
  ukprn: string,
  after = LOG_START,
  limit = 100_000,
): Promise<StoredChange[]> {
  const feed = await rm.listChanges(ukprn, after, limit);
  if (feed === null) throw new Error('the served trainee store has no change feed');
  return feed;
}

/**
 * Registers the change feed's part of the read-model contract (docs/change-feed.md "How it is
 * kept") for one adapter: `listChanges` answers a provider's entries of the applied trainee events
 * in position order, never another provider's, paged by position; redelivery and batch boundaries
 * change nothing; `changesBetween` answers every provider's entries in a range of positions (the
 * webhook dispatcher's read). `factory` is the read-model contract's.
 */
export function describeChangeFeedContract(name: string, factory: () => Promise<ReadModelContractContext>): void {
  describe(`Change feed contract: ${name} (docs/change-feed.md)`, () => {
    let ctx: ReadModelContractContext;
    let log: EventLog;
    let run: string;

    beforeEach(async () => {
      ctx = await factory();
      log = new EventLog(await ctx.readModel.checkpoint());
      run = `Cf${randomBytes(4).toString('hex')}`;
    });

    afterEach(async () => {
      await ctx.cleanup();
    });

    /** Two providers' interleaved histories of two trainees each, recorded. */
    function histories(): { mine: string; theirs: string; events: RecordedEvent[] } {
      const [mine, theirs] = [String(randomInt(10_000_000, 50_000_000)), String(randomInt(50_000_000, 100_000_000))];
      const events = [
        ...log.trainee(decidedHistory(`${run}-a`, mine, 2).events),
        ...log.trainee(decidedHistory(`${run}-b`, theirs, 1).events),
        ...log.trainee(decidedHistory(`${run}-c`, mine, 1).events),
      ];
      return { mine, theirs, events };
    }

    it("answers one entry per applied trainee event of the provider's trainees, in position order, and none of another's", async () => {
      const { mine, theirs, events } = histories();
      await ctx.readModel.applyBatch(events);
      const feed = await feedOf(ctx.readModel, mine);
      const expected = events.filter((e) => !e.streamId.endsWith(`${run}-b`));
      expect(feed.map((c) => [c.position, c.type, c.trainee_id])).toEqual(
        expected.map((e) => [e.position, e.type, e.streamId.slice('trainee-'.length)]),
      );
      expect(feed.every((c) => c.ukprn === mine)).toBe(true);
      expect((await feedOf(ctx.readModel, theirs)).every((c) => c.trainee_id === `${run}-b`)).toBe(true);
      const registered = feed[0];
      expect(registered).toMatchObject({ record: 'trainee', item_id: null, occurred_at: events[0].metadata.occurredAt });
      const afterRegistration = evolveAll([decodeTraineeEvent(events[0])!]);
      if (!afterRegistration.exists) throw new Error('the first event did not register a trainee');
      expect(registered.changed_fields).toEqual(changedFields('trainee', null, afterRegistration.trainee));
      expect(registered.changed_fields).toEqual(expect.arrayContaining(['first_names', 'last_name', 'date_of_birth']));
      expect(feed.find((c) => c.type === 'PlacementAdded')).toMatchObject({ record: 'placement', item_id: `P-${run}-a` });
    });

    it('pages by position: after and limit give the same entries as one read', async () => {
      const { mine, events } = histories();
      await ctx.readModel.applyBatch(events);
      const whole = await feedOf(ctx.readModel, mine);
      for (const limit of [1, 2, 5]) {
        const walked: StoredChange[] = [];
        for (let after = LOG_START; ;) {
          const page = await feedOf(ctx.readModel, mine, after, limit);
          expect(page.length).toBeLessThanOrEqual(limit);
          if (page.length === 0) break;
          walked.push(...page);
          after = page[page.length - 1].position;
        }
        expect(walked).toEqual(whole);
      }
    });

    it('is the same applied event by event, in one batch, or redelivered (docs/DESIGN.md property 5)', async () => {
      const { mine, events } = histories();
      for (const e of events) await ctx.readModel.applyBatch([e]);
      const once = await feedOf(ctx.readModel, mine);
      await ctx.readModel.applyBatch(events);
      await ctx.readModel.applyBatch(events.slice(2, 7));
      expect(await feedOf(ctx.readModel, mine)).toEqual(once);
      expect(once).toHaveLength(events.filter((e) => !e.streamId.endsWith(`${run}-b`)).length);
    });

    it("changesBetween answers every provider's entries in (after, upTo], oldest first, at most limit", async () => {
      const { mine, theirs, events } = histories();
      const start = await ctx.readModel.checkpoint();
      await ctx.readModel.applyBatch(events);
      const ours = new Set([mine, theirs]);
      const between = async (after: LogPosition, upTo: LogPosition, limit: number): Promise<StoredChange[]> => {
        const feed = await ctx.readModel.changesBetween(after, upTo, limit);
        if (feed === null) throw new Error('the served trainee store has no change feed');
        return feed;
      };
      const last = events[events.length - 1].position;
      const whole = (await between(start, last, 100_000)).filter((c) => ours.has(c.ukprn));
      expect(whole.map((c) => c.position)).toEqual(events.map((e) => e.position));
      expect(whole).toEqual(
        [...(await feedOf(ctx.readModel, mine)), ...(await feedOf(ctx.readModel, theirs))].sort((a, b) => a.position - b.position),
      );
      const [lower, upper] = [events[2].position, events[6].position];
      expect((await between(lower, upper, 100_000)).map((c) => c.position)).toEqual(events.slice(3, 7).map((e) => e.position));
      expect((await between(lower, upper, 2)).map((c) => c.position)).toEqual(events.slice(3, 5).map((e) => e.position));
      expect(await between(last, last, 10)).toEqual([]);
      expect((await between(events[9].position, last, 100_000)).map((c) => c.position)).toEqual(events.slice(10).map((e) => e.position));
    });
  });
}
