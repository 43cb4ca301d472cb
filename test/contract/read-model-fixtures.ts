/**
 * What the read-model contract's suites share (test/contract/read-model.contract.ts): the event
 * log they build recorded events with, the in-memory log the rebuild tests read, the trainee
 * histories they apply (literal events: the example trainee of
 * libs/trainees/decider/testing/trainee-events.ts under each test's ids), and each test's fresh
 * read model with the ids that keep its data apart.
 */
import { randomBytes, randomInt } from 'node:crypto';
import {
  chainEvent,
  newEventId,
  toEventData,
  type AppendResult,
  type EventStore,
  type ReadAllOptions,
  type RecordedEvent,
  type Subscription,
  logPosition,
  LOG_START,
  type LogPosition,
} from '@app/event-sourcing';
import { evolveAll, type TraineeEvent, type TraineeState, traineeStreamId } from '@app/trainees/decider';
import type { Trainee, TraineeDetails } from '@app/trainees/record';
import {
  degreeAdded,
  placementAdded,
  traineeRegistered,
  traineeSubmittedForTrn,
  traineeUpdated,
} from '@app/trainees/decider/testing/trainee-events';
import { type ProviderEvent, providerStreamId } from '@app/providers/decider';
import type { RebuildableStore } from '@app/runtime/rebuild';
import type { TraineeListQuery } from '@app/trainees/read';
import type { ContractReadModel, ReadModelContractContext } from './read-model.contract';

/**
 * Builds {@link RecordedEvent}s as an event store would record them: the codec's envelope (UUID,
 * schema version, `occurredAt` = the event's own `at`), the stream's next revision (from 0) and
 * the next global position (strictly increasing, with gaps of 1–3).
 */
export class EventLog {
  private lastPosition: number;
  private readonly revisions = new Map<string, number>();
  private readonly hashes = new Map<string, string>();
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
      // Chained as an event store stores it (docs/DESIGN.md "Verifiable history").
      const chained = chainEvent(this.hashes.get(streamId) ?? null, {
        streamId,
        revision,
        id: envelope.id,
        type: envelope.type,
        data: JSON.stringify(envelope.data),
        metadata: JSON.stringify(envelope.metadata),
      });
      this.hashes.set(streamId, chained.hash);
      const metadata = JSON.parse(chained.metadata) as RecordedEvent['metadata'];
      return { ...envelope, metadata, streamId, streamRevision: revision, position: logPosition(this.lastPosition) };
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

  async headPosition(): Promise<LogPosition> {
    return this.events[this.events.length - 1]?.position ?? LOG_START;
  }

  async appendToStream(): Promise<AppendResult> {
    throw new Error('MemoryEventStore: appendToStream is not used by the read-model contract');
  }

  async readStream(streamId: string, options: { fromRevision?: number; maxCount?: number } = {}): Promise<RecordedEvent[]> {
    const from = options.fromRevision ?? 0;
    return this.events.filter((e) => e.streamId === streamId && e.streamRevision >= from).slice(0, options.maxCount ?? Infinity);
  }

  subscribeToAll(): Subscription {
    throw new Error('MemoryEventStore: subscribeToAll is not used by the read-model contract');
  }

  async close(): Promise<void> {
    this.beforeRead = null;
  }
}

/** True when the read model also implements the rebuild port. */
export function isRebuildable(rm: ContractReadModel): rm is ContractReadModel & RebuildableStore {
  const r = rm as Partial<RebuildableStore>;
  return typeof r.projectionInfo === 'function' && typeof r.beginRebuild === 'function';
}

/** Options of {@link registration}. */
interface RegistrationOptions {
  id: string;
  ukprn: string;
  /** ISO instant of the registration (its created_at and updated_at). */
  at: string;
  /** Overrides of the example's details; `trainee_start_date` defaults to `itt_start_date`. */
  details?: Partial<TraineeDetails>;
  /** false: the trainee stays `draft` (no TraineeSubmittedForTrn). Default true. */
  submitted?: boolean;
}

/**
 * A trainee's registration events, without placement or degree: TraineeRegistered (the example's
 * details with overrides), then TraineeSubmittedForTrn unless `submitted` is false, both at `at`.
 */
export function registration(o: RegistrationOptions): TraineeEvent[] {
  const details: Partial<TraineeDetails> = { ...o.details };
  if (o.details?.itt_start_date && !o.details.trainee_start_date) details.trainee_start_date = o.details.itt_start_date;
  const events: TraineeEvent[] = [traineeRegistered({ trainee_id: o.id, ukprn: o.ukprn, at: o.at, details })];
  if (o.submitted !== false) events.push(traineeSubmittedForTrn({ trainee_id: o.id, at: o.at }));
  return events;
}

/** A TraineeUpdated event of trainee `id` with `changes`, at `at`. */
export function updated(id: string, changes: Partial<TraineeDetails>, at: string): TraineeEvent {
  return traineeUpdated({ trainee_id: id, changes, at });
}

/**
 * The history the API records for trainee `id` of provider `ukprn`, as literal events: the
 * example trainee registered on 2026-01-01 (first names `Name<id>`) with its placement `P-<id>`,
 * its degree `D-<id>` and its submission for a TRN, then `updates` updates of `middle_names`
 * (`M1`, `M2`, …, on 2026-02-01, 02-02, …). Returns the events and the expected document
 * (`evolveAll` of them).
 */
export function decidedHistory(id: string, ukprn: string, updates: number): { events: TraineeEvent[]; expected: Trainee } {
  const at = '2026-01-01T00:00:00.000Z';
  const events: TraineeEvent[] = [
    traineeRegistered({ trainee_id: id, ukprn, at, details: { first_names: `Name${id}` } }),
    placementAdded({ trainee_id: id, at, placement: { placement_id: `P-${id}`, created_at: at, updated_at: at } }),
    degreeAdded({ trainee_id: id, at, degree: { degree_id: `D-${id}`, created_at: at, updated_at: at } }),
    traineeSubmittedForTrn({ trainee_id: id, at }),
  ];
  for (let u = 1; u <= updates; u++) events.push(updated(id, { middle_names: `M${u}` }, `2026-02-0${u}T00:00:00.000Z`));
  const state: TraineeState = evolveAll(events);
  if (!state.exists) throw new Error('history did not create a trainee');
  return { events, expected: state.trainee };
}

/** Interleaves several streams' recorded events (round robin), as concurrent writers would. */
export function interleave(...streams: RecordedEvent[][]): RecordedEvent[] {
  const out: RecordedEvent[] = [];
  for (let i = 0; out.length < streams.reduce((n, s) => n + s.length, 0); i++) {
    for (const s of streams) if (i < s.length) out.push(s[i]);
  }
  return out.sort((a, b) => a.position - b.position);
}

/** Ten random hexadecimal digits. */
export function randomHex(): string {
  return randomBytes(5).toString('hex');
}

/** A random 8-digit UKPRN. */
export function randomUkprn(): string {
  return String(randomInt(10_000_000, 100_000_000));
}

/** The document `evolve` builds from these events (a test oracle). */
export function evolveAllTrainee(events: TraineeEvent[]): Trainee {
  const state = evolveAll(events);
  if (!state.exists) throw new Error('events did not create a trainee');
  return state.trainee;
}

/** A list query of one provider with broad defaults: cycle 2025, page 1 of 50, newest first. */
export function listQuery(ukprn: string, overrides: Partial<TraineeListQuery> = {}): TraineeListQuery {
  return { ukprn, academicCycle: 2025, page: 1, perPage: 50, sortOrder: 'desc', today: '2025-09-15', ...overrides };
}

/** A test's fresh read model, the log that places its events after the store's checkpoint, and the ids that keep its data apart. */
export interface ContractRun {
  ctx: ReadModelContractContext;
  rm: ReadModelContractContext['readModel'];
  log: EventLog;
  /** Unique per test: prefix of every trainee and token id. */
  run: string;
  /** A random UKPRN, the test's provider. */
  ukprn: string;
}

/** Opens a {@link ContractRun} on the read model `factory` makes (the caller closes it with `ctx.cleanup()`). */
export async function openContractRun(factory: () => Promise<ReadModelContractContext>): Promise<ContractRun> {
  const ctx = await factory();
  return {
    ctx,
    rm: ctx.readModel,
    log: new EventLog(await ctx.readModel.checkpoint()),
    run: `Ct${randomHex()}`,
    ukprn: randomUkprn(),
  };
}
