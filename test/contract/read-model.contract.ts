import { newEventId } from '@app/event-sourcing';
/**
 * The contract every read-model adapter must pass (docs/DESIGN.md "Read models"; the ports in
 * libs/read-model/src/read-model.port.ts). The SQLite adapter is the reference behaviour.
 *
 * Written against the ports only, so it also runs on a shared, non-empty server database: every
 * test uses trainee ids, token ids and UKPRNs with a random suffix, and event positions start
 * after the store's current checkpoint, never at an absolute number.
 *
 * Events are built as an event store records them (see {@link EventLog}): domain events wrapped
 * by the codec's `toEventData`, revisions counted per stream from 0, positions strictly
 * increasing with gaps (EventStoreDB's commit positions have gaps).
 *
 * The blue/green rebuild tests ("rebuild", docs/DESIGN.md "Read models") run when the factory's read
 * model is also a {@link RebuildableStore}; they drive it only through that port and the generic
 * `rebuildProjection`, reading the log from an in-memory {@link MemoryEventStore} that holds every
 * event the test applied. A rebuild re-reads the whole log, so these tests need a store that only
 * the test feeds (both runners give each test a fresh one).
 */
import { API_VERSIONS, type ApiVersion } from '@app/trainees/record';
import { commandFromWire, contractFor } from '@app/trainees/contract';
import { randomBytes, randomInt } from 'node:crypto';
import v2025Example from '../fixtures/post-trainee-v2025.0.json';
import { decide, evolveAll, startCycle, type Trainee, type TraineeEvent, type TraineeState, traineeStreamId } from '@app/trainees/decider';
import { type ProviderEvent, providerStreamId } from '@app/providers/decider';
import { toEventData } from '@app/event-sourcing';
import type { TraineeDetails } from '@app/trainees/record';
import type { AppendResult, EventStore, ReadAllOptions, RecordedEvent, Subscription } from '@app/event-sourcing';
import {
  keepsParkedEvents,
  PROJECTION_VERSIONS,
  type ProjectionInfo,
  type ProjectionName,
  type ProjectionStore,
} from '@app/runtime/projector';
import { rebuildProjection, keepsRebuildRuns, type RebuildableStore, type RebuildTarget } from '@app/runtime/rebuild';
import type { ProviderReadModel, ProviderRecord, TokenRecord } from '@app/providers/read';
import type { StatusFilter, TraineeListPage, TraineeListQuery, TraineeReadModel } from '@app/trainees/read';
import type { ChangeFeed } from '@app/changes';

/** The read model ports the contract drives. */
export type ContractReadModel = TraineeReadModel & ChangeFeed & ProviderReadModel & ProjectionStore;

/**
 * What the contract needs from an adapter: the read model (all three ports, and
 * {@link RebuildableStore} for the rebuild tests) and its cleanup; optionally a second instance
 * on the same data and a look at which stores exist, for the rebuild tests that need them.
 */
export interface ReadModelContractContext {
  readModel: ContractReadModel | (ContractReadModel & RebuildableStore);
  /** Closes the read model (and every instance `reopen` opened) and removes its data. */
  cleanup(): Promise<void>;
  /**
   * Opens another instance on the same data, as another process would, building the given
   * projection versions (`codeVersions`, default the code's). Without it the rebuild tests that
   * need a second instance or a version change are not run.
   */
  reopen?(options?: { codeVersions?: Partial<Record<ProjectionName, number>> }): Promise<ContractReadModel>;
  /**
   * Whether store `store` of projection `name` still has any of its tables or collections.
   * Without it the rebuild tests check the dropped/kept outcome only as the swap reports it.
   */
  storeExists?(name: ProjectionName, store: string): Promise<boolean>;
}

/**
 * Builds {@link RecordedEvent}s as an event store would record them: the codec's envelope (UUID,
 * schema version, `occurredAt` = the event's own `at`), the stream's next revision (from 0) and
 * the next global position (strictly increasing, with gaps of 1–3).
 */
export class EventLog {
  private lastPosition: number;
  private readonly revisions = new Map<string, number>();
  private appended = 0;

  /** Takes the position after which the first event is placed (use the store's checkpoint). */
  constructor(after: number) {
    this.lastPosition = after;
  }

  /** The position of the last event built, or the starting position when none. */
  get position(): number {
    return this.lastPosition;
  }

  /** Records trainee events (all of one trainee) on `trainee-<id>`. */
  trainee(events: TraineeEvent[]): RecordedEvent[] {
    return this.record(traineeStreamId(events[0].data.trainee_id), events);
  }

  /** Records provider events (all of one provider) on `provider-<ukprn>`. */
  provider(events: ProviderEvent[]): RecordedEvent[] {
    return this.record(providerStreamId(events[0].data.ukprn), events);
  }

  /** Records an event the read models do not project (another stream category and type). */
  other(streamId: string, type: string, data: Record<string, unknown>): RecordedEvent {
    const [recorded] = this.record(streamId, [{ type, data: { ...data, at: '2025-01-01T00:00:00.000Z' } }], true);
    return recorded;
  }

  private record(streamId: string, events: { type: string; data: { at: string } }[], raw = false): RecordedEvent[] {
    return events.map((event) => {
      const [envelope] = raw
        ? [{ id: `raw-${randomHex()}`, type: event.type, data: event.data, metadata: { schemaVersion: 1, occurredAt: event.data.at } }]
        : toEventData([event as TraineeEvent | ProviderEvent], { occurredAt: event.data.at }, newEventId);
      const revision = (this.revisions.get(streamId) ?? -1) + 1;
      this.revisions.set(streamId, revision);
      this.lastPosition += 1 + (this.appended++ % 3);
      return { ...envelope, streamId, streamRevision: revision, position: this.lastPosition };
    });
  }
}

/**
 * The global log of the events a test applied, in memory: what `rebuildProjection` reads
 * (`readAll` with an exclusive `fromPosition`, `maxCount` and the stream-prefix / event-type
 * filter, OR-ed as the port says; `headPosition`). Writing through the port and subscribing are
 * not part of the contract and throw. `beforeRead`, when set, runs before each `readAll`.
 */
export class MemoryEventStore implements EventStore {
  private readonly events: RecordedEvent[] = [];
  beforeRead: ((fromPosition: number) => Promise<void> | void) | null = null;

  /** Adds recorded events (positions must be above every stored one). */
  add(events: RecordedEvent[]): void {
    for (const e of events) {
      const last = this.events[this.events.length - 1];
      if (last && e.position <= last.position) throw new Error(`position ${e.position} is not after ${last.position}`);
      this.events.push(e);
    }
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const from = options.fromPosition ?? 0;
    await this.beforeRead?.(from);
    const prefixes = options.filter?.streamPrefixes ?? [];
    const types = options.filter?.eventTypes ?? [];
    const matches = (e: RecordedEvent) =>
      (prefixes.length === 0 && types.length === 0) || prefixes.some((p) => e.streamId.startsWith(p)) || types.includes(e.type);
    return this.events.filter((e) => e.position > from && matches(e)).slice(0, options.maxCount ?? 1000);
  }

  async headPosition(): Promise<number> {
    return this.events[this.events.length - 1]?.position ?? 0;
  }

  async appendToStream(): Promise<AppendResult> {
    throw new Error('MemoryEventStore: appendToStream is not used by the read-model contract');
  }

  async readStream(streamId: string): Promise<RecordedEvent[]> {
    return this.events.filter((e) => e.streamId === streamId);
  }

  subscribeToAll(): Subscription {
    throw new Error('MemoryEventStore: subscribeToAll is not used by the read-model contract');
  }

  async close(): Promise<void> {
    this.beforeRead = null;
  }
}

/** True when the read model also implements the rebuild port. */
function isRebuildable(rm: ContractReadModel): rm is ContractReadModel & RebuildableStore {
  const r = rm as Partial<RebuildableStore>;
  return typeof r.projectionInfo === 'function' && typeof r.beginRebuild === 'function';
}

/** A realistic registration decided by the domain from the v2025.0 fixture (as the SQLite spec does). */
const TEMPLATE_EVENTS: TraineeEvent[] = decide(
  commandFromWire({
    type: 'RegisterTrainee',
    trainee_id: 'TEMPLATE',
    ukprn: '10000001',
    version: 'v2025.0',
    input: JSON.parse(JSON.stringify(v2025Example.data)) as Record<string, unknown>,
    now: '2026-01-01T00:00:00.000Z',
    new_ids: ['P1', 'D1'],
    duplicate_candidates: [],
  }),
  { exists: false },
);
const TEMPLATE_DETAILS: TraineeDetails = (() => {
  const registered = TEMPLATE_EVENTS.find((e) => e.type === 'TraineeRegistered');
  if (!registered || registered.type !== 'TraineeRegistered') throw new Error('fixture did not register a trainee');
  return registered.data.details;
})();

/** Options of {@link registration}. */
interface RegistrationOptions {
  id: string;
  ukprn: string;
  /** ISO instant of the registration (its created_at and updated_at). */
  at: string;
  /** Overrides of the fixture's details; `trainee_start_date` defaults to `itt_start_date`. */
  details?: Partial<TraineeDetails>;
  /** false: the trainee stays `draft` (no TraineeSubmittedForTrn). Default true. */
  submitted?: boolean;
}

/**
 * A trainee's registration events: TraineeRegistered (fixture details with overrides), then
 * TraineeSubmittedForTrn unless `submitted` is false, both at `at`.
 */
function registration(o: RegistrationOptions): TraineeEvent[] {
  const details: TraineeDetails = { ...TEMPLATE_DETAILS, ...o.details };
  if (o.details?.itt_start_date && !o.details.trainee_start_date) details.trainee_start_date = o.details.itt_start_date;
  const events: TraineeEvent[] = [
    { type: 'TraineeRegistered', data: { trainee_id: o.id, ukprn: o.ukprn, record_source: 'api', details, at: o.at } },
  ];
  if (o.submitted !== false) events.push({ type: 'TraineeSubmittedForTrn', data: { trainee_id: o.id, at: o.at } });
  return events;
}

/** A TraineeUpdated event. */
function updated(id: string, changes: Partial<TraineeDetails>, at: string): TraineeEvent {
  return { type: 'TraineeUpdated', data: { trainee_id: id, changes, at } };
}

/**
 * A full registration decided by the domain (with placement and degree) followed by `updates`
 * updates decided by the domain, as the API writes them. Returns the events and the expected
 * document (`evolveAll` of them).
 */
export function decidedHistory(id: string, ukprn: string, updates: number): { events: TraineeEvent[]; expected: Trainee } {
  const events = decide(
    commandFromWire({
      type: 'RegisterTrainee',
      trainee_id: id,
      ukprn,
      version: 'v2025.0',
      input: { ...(JSON.parse(JSON.stringify(v2025Example.data)) as Record<string, unknown>), first_names: `Name${id}` },
      now: '2026-01-01T00:00:00.000Z',
      new_ids: [`P-${id}`, `D-${id}`],
      duplicate_candidates: [],
    }),
    { exists: false },
  );
  let state: TraineeState = evolveAll(events);
  for (let u = 1; u <= updates; u++) {
    const changes = decide(
      commandFromWire({
        type: 'UpdateTrainee',
        trainee_id: id,
        ukprn,
        version: 'v2025.0',
        input: { middle_names: `M${u}` },
        now: `2026-02-0${u}T00:00:00.000Z`,
      }),
      state,
    );
    state = evolveAll(changes, state);
    events.push(...changes);
  }
  if (!state.exists) throw new Error('history did not create a trainee');
  return { events, expected: state.trainee };
}

/** Interleaves several streams' recorded events (round robin), as concurrent writers would. */
function interleave(...streams: RecordedEvent[][]): RecordedEvent[] {
  const out: RecordedEvent[] = [];
  for (let i = 0; out.length < streams.reduce((n, s) => n + s.length, 0); i++) {
    for (const s of streams) if (i < s.length) out.push(s[i]);
  }
  return out.sort((a, b) => a.position - b.position);
}

function randomHex(): string {
  return randomBytes(5).toString('hex');
}

/** A random 8-digit UKPRN. */
function randomUkprn(): string {
  return String(randomInt(10_000_000, 100_000_000));
}

/**
 * Registers the read-model contract suite for one adapter. `factory` is called before each test
 * and the returned `cleanup` after it. Rule sources: docs/DESIGN.md "Read models" and properties 1, 5
 * and 6; docs/reference/API-FACTS.md §1.10 (case-insensitive ids), §14 (list filters, paging, order), §14.4
 * (status filters); the ports' documentation.
 */
export function describeReadModelContract(name: string, factory: () => Promise<ReadModelContractContext>): void {
  describe(`Read-model contract: ${name}`, () => {
    let ctx: ReadModelContractContext;
    let rm: ReadModelContractContext['readModel'];
    let log: EventLog;
    /** Unique per test: prefix of every trainee and token id. */
    let run: string;
    let ukprn: string;

    const tid = (label: string): string => `${run}-${label}`;
    const getAll = (ids: string[]): Promise<(Trainee | null)[]> => Promise.all(ids.map((id) => rm.getTrainee(id)));

    beforeEach(async () => {
      ctx = await factory();
      rm = ctx.readModel;
      log = new EventLog(await rm.checkpoint());
      run = `Ct${randomHex()}`;
      ukprn = randomUkprn();
    });

    afterEach(async () => {
      await ctx.cleanup();
    });

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
      it('is the document evolve builds, as JSON, and the stream revision of the last event applied, over several batches', async () => {
        const id = tid('Snap');
        const { events, expected } = decidedHistory(id, ukprn, 3);
        const other = decidedHistory(tid('other'), ukprn, 1);
        const recorded = interleave(log.trainee(events), log.trainee(other.events));
        await rm.applyBatch(recorded.slice(0, 4));
        await rm.applyBatch(recorded.slice(4));

        const snapshot = await rm.getTraineeSnapshot(id);
        expect(snapshot).toStrictEqual({ trainee: JSON.parse(JSON.stringify(expected)) as Trainee, revision: events.length - 1 });
        expect(snapshot?.trainee).toEqual(await rm.getTrainee(id));
        expect(await rm.getTraineeSnapshot(tid('other'))).toStrictEqual({
          trainee: JSON.parse(JSON.stringify(other.expected)) as Trainee,
          revision: other.events.length - 1,
        });
      });

      it('moves with each later event; a redelivered batch leaves it as it was', async () => {
        const id = tid('moving');
        const first = log.trainee(registration({ id, ukprn, at: '2025-09-01T10:00:00.000Z' }));
        await rm.applyBatch(first);
        expect((await rm.getTraineeSnapshot(id))?.revision).toBe(1);

        const later = log.trainee([
          updated(id, { middle_names: 'Later' }, '2025-09-02T10:00:00.000Z'),
          updated(id, { middle_names: 'Latest' }, '2025-09-03T10:00:00.000Z'),
        ]);
        await rm.applyBatch(later);
        const snapshot = await rm.getTraineeSnapshot(id);
        expect(snapshot).toMatchObject({
          revision: 3,
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
        expect(exact).toMatchObject({ trainee: { trainee_id: id }, revision: 1 });
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
        await rm.applyBatch(log.trainee(events));
        const newerTrainees = await ctx.reopen({ codeVersions: { trainees: PROJECTION_VERSIONS.trainees + 1 } });
        const newerProviders = await ctx.reopen({ codeVersions: { providers: PROJECTION_VERSIONS.providers + 1 } });

        expect(await newerTrainees.getTraineeSnapshot(id)).toBeNull();
        expect(await newerTrainees.getTrainee(id)).toEqual(expected);
        expect(await newerProviders.getTraineeSnapshot(id)).toEqual({ trainee: expected, revision: events.length - 1 });
        expect(await rm.getTraineeSnapshot(id)).toEqual({ trainee: expected, revision: events.length - 1 });
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

    describe('parked events (issue 12, "Honest health")', () => {
      it('records a parked event once, moves the checkpoint past it, and keeps it for another instance', async () => {
        const before = log.trainee(registration({ id: tid('p1'), ukprn, at: '2025-09-01T10:00:00.000Z' }));
        await rm.applyBatch(before);
        const bad = log.other(traineeStreamId(tid('p2')), 'TraineeRegistered', {});
        expect(keepsParkedEvents(rm)).toBe(true);
        if (!keepsParkedEvents(rm)) return;
        const record = {
          projection: 'trainees' as const,
          stream_id: bad.streamId,
          revision: bad.streamRevision,
          type: bad.type,
          position: bad.position,
          error: 'cannot fold',
          attempts: 5,
          parked_at: '2026-05-01T00:00:00.000Z',
        };
        await rm.parkEvent(record);
        await rm.parkEvent({ ...record, error: 'parked again', attempts: 0 });
        expect(await rm.checkpoint()).toBe(bad.position);
        expect(await rm.parkedEvents()).toEqual([record]);
        const another = await ctx.reopen?.();
        if (another && keepsParkedEvents(another)) expect(await another.parkedEvents()).toEqual([record]);
      });
    });

    describe('providers and tokens', () => {
      const hash = (label: string): string => `${run}${label}`.padEnd(64, '0').toLowerCase();

      it('shows a registered provider, issued tokens and a revocation, batch by batch', async () => {
        const [t1, t2] = [tid('tok1'), tid('tok2')];
        await rm.applyBatch(
          log.provider([{ type: 'ProviderRegistered', data: { ukprn, name: 'Contract University', at: '2025-01-01T09:00:00.000Z' } }]),
        );
        expect(await rm.getProvider(ukprn)).toEqual({ ukprn, name: 'Contract University', created_at: '2025-01-01T09:00:00.000Z' });
        expect(await rm.listTokens(ukprn)).toEqual([]);

        await rm.applyBatch(
          log.provider([
            { type: 'TokenIssued', data: { ukprn, token_id: t1, token_hash: hash('a'), expires_at: null, at: '2025-01-02T09:00:00.000Z' } },
          ]),
        );
        await rm.applyBatch(
          log.provider([
            { type: 'TokenIssued', data: { ukprn, token_id: t2, token_hash: hash('b'), expires_at: null, at: '2025-01-03T09:00:00.000Z' } },
          ]),
        );
        const unused = { expires_at: null, last_used_at: null };
        const active1 = { token_id: t1, ukprn, status: 'active', issued_at: '2025-01-02T09:00:00.000Z', revoked_at: null, ...unused };
        const active2 = { token_id: t2, ukprn, status: 'active', issued_at: '2025-01-03T09:00:00.000Z', revoked_at: null, ...unused };
        expect(await rm.findTokenByHash(hash('a'))).toEqual(active1);
        expect(await rm.getToken(t2)).toEqual(active2);

        await rm.applyBatch(log.provider([{ type: 'TokenRevoked', data: { ukprn, token_id: t1, at: '2025-01-04T09:00:00.000Z' } }]));
        const revoked1 = { ...active1, status: 'revoked', revoked_at: '2025-01-04T09:00:00.000Z' };
        expect(await rm.findTokenByHash(hash('a'))).toEqual(revoked1);
        expect(await rm.getToken(t1)).toEqual(revoked1);
        expect(await rm.listTokens(ukprn)).toEqual([revoked1, active2]);
        expect(await rm.getProvider(ukprn)).toEqual({ ukprn, name: 'Contract University', created_at: '2025-01-01T09:00:00.000Z' });
        expect((await rm.listProviders()).filter((p) => p.ukprn === ukprn)).toEqual([
          { ukprn, name: 'Contract University', created_at: '2025-01-01T09:00:00.000Z' },
        ]);
      });

      it('applies registration, issue and revocation in one batch, and a redelivered issue does not reactivate a revoked token', async () => {
        const [t1, t2] = [tid('one'), tid('two')];
        const batch = log.provider([
          { type: 'ProviderRegistered', data: { ukprn, name: 'One Batch SCITT', at: '2025-02-01T09:00:00.000Z' } },
          { type: 'TokenIssued', data: { ukprn, token_id: t1, token_hash: hash('c'), expires_at: null, at: '2025-02-01T09:01:00.000Z' } },
          { type: 'TokenIssued', data: { ukprn, token_id: t2, token_hash: hash('d'), expires_at: null, at: '2025-02-01T09:02:00.000Z' } },
          { type: 'TokenRevoked', data: { ukprn, token_id: t1, at: '2025-02-01T09:03:00.000Z' } },
        ]);
        await rm.applyBatch(batch);
        const revoked1 = {
          token_id: t1,
          ukprn,
          status: 'revoked',
          issued_at: '2025-02-01T09:01:00.000Z',
          revoked_at: '2025-02-01T09:03:00.000Z',
          expires_at: null,
          last_used_at: null,
        };
        const active2 = {
          token_id: t2,
          ukprn,
          status: 'active',
          issued_at: '2025-02-01T09:02:00.000Z',
          revoked_at: null,
          expires_at: null,
          last_used_at: null,
        };
        expect(await rm.listTokens(ukprn)).toEqual([revoked1, active2]);

        await rm.applyBatch([batch[1]]);
        await rm.applyBatch(batch);
        await rm.applyBatch(batch.slice(0, 2));
        expect(await rm.findTokenByHash(hash('c'))).toEqual(revoked1);
        expect(await rm.listTokens(ukprn)).toEqual([revoked1, active2]);
        expect(await rm.getProvider(ukprn)).toEqual({ ukprn, name: 'One Batch SCITT', created_at: '2025-02-01T09:00:00.000Z' });
      });

      it('keeps a token’s expiry and its latest use, whatever the order or redelivery of uses (API-FACTS §2.6, §2.7)', async () => {
        const [t1, t2] = [tid('exp1'), tid('exp2')];
        const used = (token_id: string, on: string): ProviderEvent => ({
          type: 'TokenUsed',
          data: { ukprn, token_id, on, at: `${on}T08:00:00.000Z` },
        });
        const batch = log.provider([
          { type: 'ProviderRegistered', data: { ukprn, name: 'Expiring SCITT', at: '2025-05-01T09:00:00.000Z' } },
          {
            type: 'TokenIssued',
            data: { ukprn, token_id: t1, token_hash: hash('x'), expires_at: '2025-11-01', at: '2025-05-01T09:01:00.000Z' },
          },
          {
            type: 'TokenIssued',
            data: { ukprn, token_id: t2, token_hash: hash('y'), expires_at: '2025-06-01', at: '2025-05-01T09:02:00.000Z' },
          },
          used(t1, '2025-05-03'),
          used(t1, '2025-05-02'),
          used(t2, '2025-05-02'),
        ]);
        await rm.applyBatch(batch.slice(0, 4));
        await rm.applyBatch(batch.slice(4));
        expect(await rm.getToken(t1)).toMatchObject({ expires_at: '2025-11-01', last_used_at: '2025-05-03T08:00:00.000Z' });
        expect(await rm.findTokenByHash(hash('y'))).toMatchObject({ expires_at: '2025-06-01', last_used_at: '2025-05-02T08:00:00.000Z' });

        await rm.applyBatch(log.provider([{ type: 'TokenRevoked', data: { ukprn, token_id: t1, at: '2025-05-04T09:00:00.000Z' } }]));
        await rm.applyBatch(batch);
        expect(await rm.listTokens(ukprn)).toEqual([
          {
            token_id: t1,
            ukprn,
            status: 'revoked',
            issued_at: '2025-05-01T09:01:00.000Z',
            revoked_at: '2025-05-04T09:00:00.000Z',
            expires_at: '2025-11-01',
            last_used_at: '2025-05-03T08:00:00.000Z',
          },
          {
            token_id: t2,
            ukprn,
            status: 'active',
            issued_at: '2025-05-01T09:02:00.000Z',
            revoked_at: null,
            expires_at: '2025-06-01',
            last_used_at: '2025-05-02T08:00:00.000Z',
          },
        ]);
      });

      it('lists tokens by issue time then token id, and keeps providers apart', async () => {
        const other = randomUkprn();
        const [late, tieB, tieA, foreign] = [tid('late'), tid('tie-b'), tid('tie-a'), tid('foreign')];
        await rm.applyBatch(
          interleave(
            log.provider([
              { type: 'ProviderRegistered', data: { ukprn, name: 'Ordered', at: '2025-03-01T09:00:00.000Z' } },
              {
                type: 'TokenIssued',
                data: { ukprn, token_id: late, token_hash: hash('e'), expires_at: null, at: '2025-03-05T09:00:00.000Z' },
              },
              {
                type: 'TokenIssued',
                data: { ukprn, token_id: tieB, token_hash: hash('f'), expires_at: null, at: '2025-03-06T09:00:00.000Z' },
              },
              {
                type: 'TokenIssued',
                data: { ukprn, token_id: tieA, token_hash: hash('g'), expires_at: null, at: '2025-03-06T09:00:00.000Z' },
              },
            ]),
            log.provider([
              { type: 'ProviderRegistered', data: { ukprn: other, name: 'Other', at: '2025-03-01T09:00:00.000Z' } },
              {
                type: 'TokenIssued',
                data: { ukprn: other, token_id: foreign, token_hash: hash('h'), expires_at: null, at: '2025-03-04T09:00:00.000Z' },
              },
            ]),
          ),
        );
        expect((await rm.listTokens(ukprn)).map((t) => t.token_id)).toEqual([late, tieA, tieB]);
        expect((await rm.listTokens(other)).map((t) => t.token_id)).toEqual([foreign]);
        expect(await rm.findTokenByHash(hash('h'))).toMatchObject({ token_id: foreign, ukprn: other });
      });

      it('lists providers ordered by UKPRN', async () => {
        const [low, high] = ['1', '9'].map((d) => `${d}${randomUkprn().slice(1)}`);
        await rm.applyBatch(
          log.provider([{ type: 'ProviderRegistered', data: { ukprn: high, name: 'High', at: '2025-04-01T09:00:00.000Z' } }]),
        );
        await rm.applyBatch(
          log.provider([{ type: 'ProviderRegistered', data: { ukprn: low, name: 'Low', at: '2025-04-02T09:00:00.000Z' } }]),
        );
        const all = await rm.listProviders();
        expect(all.filter((p) => p.ukprn === low || p.ukprn === high)).toEqual([
          { ukprn: low, name: 'Low', created_at: '2025-04-02T09:00:00.000Z' },
          { ukprn: high, name: 'High', created_at: '2025-04-01T09:00:00.000Z' },
        ]);
        const ukprns = all.map((p) => p.ukprn);
        expect(ukprns).toEqual([...ukprns].sort());
      });

      it('answers null or empty for unknown providers, tokens and hashes', async () => {
        expect(await rm.getProvider(randomUkprn())).toBeNull();
        expect(await rm.getToken(tid('none'))).toBeNull();
        expect(await rm.findTokenByHash(hash('none'))).toBeNull();
        expect(await rm.listTokens(ukprn)).toEqual([]);
      });
    });

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
    });

    describe('findDuplicateCandidates', () => {
      it('matches provider, date of birth, route and last name ignoring case and spacing, oldest-created first', async () => {
        const other = randomUkprn();
        const route = TEMPLATE_DETAILS.training_route;
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
        const route = TEMPLATE_DETAILS.training_route;
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

    describe('rebuild (blue/green through RebuildableStore and rebuildProjection; docs/DESIGN.md "Read models")', () => {
      /** The test's log: every event applied through `live`, what a rebuild reads. */
      let events: MemoryEventStore;

      beforeEach(() => {
        events = new MemoryEventStore();
      });

      /** Applies a batch as the live projector does, through `reader` (default the factory's read model), and logs it. */
      const live = async (batch: RecordedEvent[], reader: ContractReadModel = rm): Promise<void> => {
        events.add(batch);
        await reader.applyBatch(batch);
      };

      /**
       * A rebuild test: runs when the read model is a RebuildableStore (and, with `needsReopen`,
       * when the runner can open a second instance); otherwise says so and checks nothing.
       */
      const rebuildTest = (
        title: string,
        body: (store: ContractReadModel & RebuildableStore) => Promise<void>,
        options: { needsReopen?: boolean } = {},
      ): void => {
        it(title, async () => {
          if (!isRebuildable(rm)) {
            console.warn(`${name} is not a RebuildableStore: rebuild test not run: ${title}`);
            return;
          }
          if (options.needsReopen && !ctx.reopen) {
            console.warn(`${name}: the runner cannot open a second instance: rebuild test not run: ${title}`);
            return;
          }
          await body(rm);
        });
      };

      const rbHash = (label: string): string => `${run}rb${label}`.padEnd(64, '0').toLowerCase();

      interface Seeded {
        /** Trainee ids, oldest-created first. */
        ids: string[];
        expected: Trainee[];
        tokens: string[];
        hashes: string[];
        /** Academic cycle of the trainees. */
        cycle: number;
        /** Projected events in the log (what a full rebuild reads). */
        projected: number;
      }

      /**
       * Applies, live, `count` trainee histories decided by the domain (0 to 2 updates each), a
       * provider with two tokens (one revoked) and an event of another category, recorded one
       * event at a time round robin (streams interleave in the log as concurrent writers make
       * them) and applied in batches of 1 to 7 events. The last event is a trainee event.
       */
      async function seed(count = 8): Promise<Seeded> {
        const ids = Array.from({ length: count }, (_, i) => tid(`rb${i}`));
        const histories = ids.map((id, i) => decidedHistory(id, ukprn, i % 3));
        const tokens = [tid('rbtok1'), tid('rbtok2')];
        const hashes = [rbHash('a'), rbHash('b')];
        const providerEvents: ProviderEvent[] = [
          { type: 'ProviderRegistered', data: { ukprn, name: 'Rebuild University', at: '2025-01-01T09:00:00.000Z' } },
          {
            type: 'TokenIssued',
            data: { ukprn, token_id: tokens[0], token_hash: hashes[0], expires_at: null, at: '2025-01-02T09:00:00.000Z' },
          },
          {
            type: 'TokenIssued',
            data: { ukprn, token_id: tokens[1], token_hash: hashes[1], expires_at: '2025-07-03', at: '2025-01-03T09:00:00.000Z' },
          },
          { type: 'TokenRevoked', data: { ukprn, token_id: tokens[0], at: '2025-01-04T09:00:00.000Z' } },
          { type: 'TokenUsed', data: { ukprn, token_id: tokens[1], on: '2025-01-05', at: '2025-01-05T09:00:00.000Z' } },
        ];
        const recorded: RecordedEvent[] = [];
        const longest = Math.max(providerEvents.length, ...histories.map((h) => h.events.length));
        for (let i = 0; i < longest; i++) {
          if (i < providerEvents.length) recorded.push(...log.provider([providerEvents[i]]));
          for (const h of histories) if (i < h.events.length) recorded.push(...log.trainee([h.events[i]]));
          if (i === 1) recorded.push(log.other(`registrationguard-${run}`, 'RegistrationClaimed', { trainee_id: ids[0] }));
        }
        for (let i = 0, size = 1; i < recorded.length; i += size, size = (size % 7) + 1) await live(recorded.slice(i, i + size));
        return {
          ids,
          expected: histories.map((h) => h.expected),
          tokens,
          hashes,
          cycle: startCycle(histories[0].expected.details),
          projected: recorded.length - 1,
        };
      }

      interface Snapshot {
        trainees: (Trainee | null)[];
        listDesc: TraineeListPage;
        listAscPage2: TraineeListPage;
        duplicates: string[];
        provider: ProviderRecord | null;
        providers: ProviderRecord[];
        tokens: TokenRecord[];
        byHash: (TokenRecord | null)[];
        byId: (TokenRecord | null)[];
      }

      /** Everything the read ports answer about the seeded data, read through `reader`. */
      const snapshot = async (reader: ContractReadModel, s: Seeded): Promise<Snapshot> => ({
        trainees: await Promise.all(s.ids.map((id) => reader.getTrainee(id))),
        listDesc: await reader.listTrainees(listQuery(ukprn, { academicCycle: s.cycle })),
        listAscPage2: await reader.listTrainees(listQuery(ukprn, { academicCycle: s.cycle, sortOrder: 'asc', page: 2, perPage: 3 })),
        duplicates: (
          await reader.findDuplicateCandidates(
            ukprn,
            TEMPLATE_DETAILS.date_of_birth,
            TEMPLATE_DETAILS.training_route,
            TEMPLATE_DETAILS.last_name,
          )
        ).map((t) => t.trainee_id),
        provider: await reader.getProvider(ukprn),
        providers: await reader.listProviders(),
        tokens: await reader.listTokens(ukprn),
        byHash: await Promise.all(s.hashes.map((h) => reader.findTokenByHash(h))),
        byId: await Promise.all(s.tokens.map((t) => reader.getToken(t))),
      });

      const info = async (store: RebuildableStore, projection: ProjectionName): Promise<ProjectionInfo> => {
        const found = (await store.projectionInfo()).find((p) => p.name === projection);
        if (!found) throw new Error(`projectionInfo has no ${projection}`);
        return found;
      };

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
        'another instance reads the new store as soon as the swap is done, even with the old store kept (issue 16, row 1)',
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
          expect((await other.getTraineeSnapshot(s.ids[changing]))?.revision).toBe(update[0].streamRevision);
        },
        { needsReopen: true },
      );
    });
  });
}

/** The document `evolve` builds from these events (a test oracle). */
function evolveAllTrainee(events: TraineeEvent[]): Trainee {
  const state = evolveAll(events);
  if (!state.exists) throw new Error('events did not create a trainee');
  return state.trainee;
}

/** A list query of one provider with broad defaults: cycle 2025, page 1 of 50, newest first. */
function listQuery(ukprn: string, overrides: Partial<TraineeListQuery> = {}): TraineeListQuery {
  return { ukprn, academicCycle: 2025, page: 1, perPage: 50, sortOrder: 'desc', today: '2025-09-15', ...overrides };
}
