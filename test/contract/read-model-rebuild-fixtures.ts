/**
 * What the rebuild suites of the read-model contract share (test/contract/read-model-rebuild.contract.ts,
 * test/contract/read-model-rebuild-swap.contract.ts): the seeded log, the snapshot of every read
 * they compare, the projection info they check, and the test that runs only where the read model
 * is a {@link RebuildableStore}.
 */
import type { RecordedEvent } from '@app/event-sourcing';
import { startCycle } from '@app/trainees/decider';
import { type Trainee } from '@app/trainees/record';
import { EXAMPLE_DETAILS } from '@app/trainees/decider/testing/trainee-events';
import type { ProviderEvent } from '@app/providers/decider';
import type { ProviderRecord, TokenRecord } from '@app/providers/read';
import type { ProjectionInfo, ProjectionName } from '@app/runtime/projector';
import type { RebuildableStore } from '@app/runtime/rebuild';
import type { TraineeListPage } from '@app/trainees/read';
import { decidedHistory, type EventLog, isRebuildable, listQuery, type MemoryEventStore } from './read-model-fixtures';
import type { ContractReadModel, ReadModelContractContext } from './read-model.contract';

/** The token hash (64 hex digits) of `label` in test run `run`. */
export function rebuildHash(run: string, label: string): string {
  return `${run}rb${label}`.padEnd(64, '0').toLowerCase();
}

/** Applies a batch as the live projector does, through `reader`, and logs it in `events` (what a rebuild reads). */
export async function applyLive(events: MemoryEventStore, batch: RecordedEvent[], reader: ContractReadModel): Promise<void> {
  events.add(batch);
  await reader.applyBatch(batch);
}

/** What {@link seedRebuild} applied. */
export interface Seeded {
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

/** What {@link seedRebuild} works with: the test's log, run, provider and live apply. */
export interface SeedScope {
  log: EventLog;
  run: string;
  ukprn: string;
  live: (batch: RecordedEvent[]) => Promise<void>;
}

/**
 * Applies, live, `count` trainee histories of {@link decidedHistory} (0 to 2 updates each), a
 * provider with two tokens (one revoked) and an event of another category, recorded one
 * event at a time round robin (streams interleave in the log as concurrent writers make
 * them) and applied in batches of 1 to 7 events. The last event is a trainee event.
 */
export async function seedRebuild(scope: SeedScope, count = 8): Promise<Seeded> {
  const { log, run, ukprn, live } = scope;
  const tid = (label: string): string => `${run}-${label}`;
  const rbHash = (label: string): string => rebuildHash(run, label);
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

/** Everything the read ports answer about the seeded data. */
export interface Snapshot {
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

/** The {@link Snapshot} of the data seeded for provider `ukprn`, read through `reader`. */
export async function snapshotOf(reader: ContractReadModel, ukprn: string, s: Seeded): Promise<Snapshot> {
  return {
    trainees: await Promise.all(s.ids.map((id) => reader.getTrainee(id))),
    listDesc: await reader.listTrainees(listQuery(ukprn, { academicCycle: s.cycle })),
    listAscPage2: await reader.listTrainees(listQuery(ukprn, { academicCycle: s.cycle, sortOrder: 'asc', page: 2, perPage: 3 })),
    duplicates: (
      await reader.findDuplicateCandidates(ukprn, EXAMPLE_DETAILS.date_of_birth, EXAMPLE_DETAILS.training_route, EXAMPLE_DETAILS.last_name)
    ).map((t) => t.trainee_id),
    provider: await reader.getProvider(ukprn),
    providers: await reader.listProviders(),
    tokens: await reader.listTokens(ukprn),
    byHash: await Promise.all(s.hashes.map((h) => reader.findTokenByHash(h))),
    byId: await Promise.all(s.tokens.map((t) => reader.getToken(t))),
  };
}

/** The projection info of `projection` in `store`; throws when it has none. */
export async function info(store: RebuildableStore, projection: ProjectionName): Promise<ProjectionInfo> {
  const found = (await store.projectionInfo()).find((p) => p.name === projection);
  if (!found) throw new Error(`projectionInfo has no ${projection}`);
  return found;
}

/**
 * The rebuild tests of adapter `name` on the read model and context `current` answers during the
 * test: each runs when the read model is a RebuildableStore (and, with `needsReopen`, when the
 * runner can open a second instance); otherwise says so and checks nothing.
 */
export function rebuildTestOf(
  name: string,
  current: () => { rm: ContractReadModel; ctx: ReadModelContractContext },
): (title: string, body: (store: ContractReadModel & RebuildableStore) => Promise<void>, options?: { needsReopen?: boolean }) => void {
  return (title, body, options = {}) => {
    it(title, async () => {
      const { rm, ctx } = current();
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
}
