/**
 * The trainees of the benchmark's data set (bench/lib/dataset.ts), one at a time: the timeline of
 * each (provider, cycle, dates), then its whole history decided by the domain's own `decide` from
 * wire bodies (bench/lib/wire-commands.ts) and wrapped by `toEventData`: the registration, TRN,
 * updates, deferral, withdrawal, recommendation and award; and the history-replay trainee, whose
 * stream holds {@link HISTORY_STREAM_EVENTS} events. No registration reservation: the data set is a
 * log of settled trainees, whose claims the service has released (docs/DESIGN.md property 3).
 */
import { randomUUID } from 'node:crypto';
import {
  academicCycleOf,
  decide,
  evolveAll,
  initialTraineeState,
  lastNameKey,
  type TraineeEvent,
  type TraineeState,
  traineeStreamId,
} from '@app/trainees/decider';
import {
  DomainError,
  toEventData,
  type WriteContext,
  type EventData,
  type EventStore,
  type ExpectedRevision,
  newEventId,
} from '@app/event-sourcing';
import { fieldLabel, type ApiVersion, type School, type TraineeStatus } from '@app/trainees/record';
import { TraineeGenerator, isoDate } from './generator';
import { Random } from './random';
import { commandFromWire, type WireCommand } from './wire-commands';

/** A loaded trainee as the scenarios need it. */
export interface TraineeRef {
  id: string;
  cycle: number;
  state: TraineeStatus;
  hasTrn: boolean;
  /** ISO instant of the trainee's last change (its `updated_at`). */
  updatedAt: string;
}

/** A provider of the data set with its API token and the version its system speaks. */
export interface ProviderRef {
  ukprn: string;
  name: string;
  token: string;
  tokenId: string;
  version: ApiVersion;
  trainees: TraineeRef[];
}

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** Length of the history-replay trainee's stream. */
export const HISTORY_STREAM_EVENTS = 1000;

/** The timeline skeleton of one trainee, drawn before its events. */
export interface Plan {
  serial: number;
  provider: number;
  ittStart: string;
  startMs: number;
  endMs: number;
  twoYear: boolean;
  createdMs: number;
}

/** An append waiting for its turn in time order. */
export interface PendingAppend {
  at: number;
  stream: string;
  events: EventData[];
  expected: ExpectedRevision;
}

/** The timeline skeleton of one trainee: provider, cycle, dates. */
export function planTrainee(random: Random, serial: number, providerWeights: number[], currentCycle: number, nowMs: number): Plan {
  const provider = random.weighted(
    providerWeights.map((_, i) => i),
    providerWeights,
  );
  const cycle = random.weighted([currentCycle - 3, currentCycle - 2, currentCycle - 1, currentCycle], [20, 25, 27, 28]);
  const cycleStart = Date.UTC(cycle, 7, 1);
  // Most courses start late August to September; the rest anywhere in the cycle (not far in the future).
  const latest = Math.min(Date.UTC(cycle + 1, 6, 31), nowMs + 30 * DAY_MS);
  let startMs = random.chance(0.7) ? Date.UTC(cycle, 7, 25) + random.int(0, 36) * DAY_MS : cycleStart + random.int(0, 364) * DAY_MS;
  if (startMs > latest) startMs = cycleStart + random.int(0, Math.max(0, Math.floor((latest - cycleStart) / DAY_MS))) * DAY_MS;
  const ittStart = isoDate(startMs);
  const twoYear = random.chance(0.35);
  const endMs = Date.UTC(cycle + (twoYear ? 2 : 1), new Date(startMs).getUTCMonth(), new Date(startMs).getUTCDate()) - DAY_MS;
  let createdMs = startMs - random.int(0, 40) * DAY_MS + random.int(8 * HOUR_MS, 18 * HOUR_MS) + random.int(0, 999);
  if (createdMs > nowMs - HOUR_MS) createdMs = nowMs - random.int(HOUR_MS, 3 * DAY_MS);
  return { serial, provider, ittStart, startMs, endMs, twoYear, createdMs };
}

/** A 24-character base58 resource id, as the service makes them. */
export function resourceId(random: Random): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let out = '';
  for (let i = 0; i < 24; i++) out += alphabet[random.int(0, 57)];
  return out;
}

/** What the loader counts while it builds trainees. */
export type Stats = { appends: number; eventsByType: Record<string, number>; refusedActions: number; regenerated: number };

/**
 * Decides one trainee's whole history (registration, then the lifecycle actions of its timeline)
 * and queues its appends; returns what the scenarios need to know about it.
 */
export function buildTrainee(
  plan: Plan,
  provider: ProviderRef,
  generator: TraineeGenerator,
  random: Random,
  schools: ReadonlyMap<string, School>,
  nowMs: number,
  seen: Set<string>,
  stats: Stats,
  pending: PendingAppend[],
): TraineeRef {
  const version = provider.version;
  const ended = plan.endMs < nowMs;
  const traineeId = resourceId(random);
  const created = new Date(plan.createdMs).toISOString();
  const ctx = (at: number, byRegistry = false): WriteContext => ({
    occurredAt: new Date(at).toISOString(),
    providerUkprn: provider.ukprn,
    apiVersion: byRegistry ? null : version,
    requestId: byRegistry ? null : randomUUID(),
    tokenId: byRegistry ? null : provider.tokenId,
  });

  let registered: TraineeEvent[] | null = null;
  for (let attempt = 0; registered === null; attempt++) {
    if (attempt >= 20) throw new Error(`generator: 20 refused bodies in a row for trainee ${plan.serial}`);
    const input = generator.traineeInput({
      serial: plan.serial,
      version,
      ittStart: plan.ittStart,
      twoYear: plan.twoYear,
      placements: ended || random.chance(0.4) ? 2 : 1,
      degrees: random.chance(0.15) ? 2 : 1,
      ukprn: provider.ukprn,
    });
    const key = [
      provider.ukprn,
      input.date_of_birth,
      input.training_route,
      lastNameKey(String(input.last_name)),
      academicCycleOf(plan.ittStart),
      String(input.first_names).toLowerCase(),
    ].join('|');
    if (seen.has(key)) {
      stats.regenerated++;
      continue;
    }
    try {
      registered = decide(
        commandFromWire({
          type: 'RegisterTrainee',
          trainee_id: traineeId,
          ukprn: provider.ukprn,
          version,
          input,
          now: created,
          new_ids: Array.from({ length: 8 }, () => resourceId(random)),
          duplicate_candidates: [],
          schools,
        }),
        initialTraineeState,
      );
      seen.add(key);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      stats.regenerated++;
    }
  }
  let state: TraineeState = evolveAll(registered);
  if (!state.exists) throw new Error('registration produced no trainee');
  pending.push({
    at: plan.createdMs,
    stream: traineeStreamId(traineeId),
    events: toEventData(registered, ctx(plan.createdMs), newEventId),
    expected: 'no_stream',
  });
  count(stats, registered);
  let revision = registered.length - 1;

  // The lifecycle, in time order.
  const actions: { at: number; make: (now: string) => WireCommand; byRegistry?: boolean }[] = [];
  const between = (a: number, b: number): number => a + Math.floor(random.next() * Math.max(1, b - a));
  const base = { trainee_id: traineeId, ukprn: provider.ukprn, version };
  let trnAt: number | null = null;
  if (random.chance(0.95)) {
    const at = plan.createdMs + random.int(1, 10) * DAY_MS + random.int(0, 8 * HOUR_MS);
    if (at < nowMs) {
      trnAt = at;
      const trn = String(random.int(1_000_000, 9_999_999));
      actions.push({ at, make: (now) => ({ type: 'RecordTrnIssued', trainee_id: traineeId, trn, now }), byRegistry: true });
    }
  }
  const updates = random.weighted([0, 1, 2], [60, 30, 10]);
  for (let u = 0; u < updates; u++) {
    const at = between(plan.createdMs + HOUR_MS, Math.min(plan.endMs, nowMs));
    if (at >= nowMs) continue;
    const input = updateInput(random, plan.serial, u);
    actions.push({ at, make: (now) => ({ type: 'UpdateTrainee', ...base, input, now }) });
  }
  const withdrawInput = (at: number): Record<string, unknown> => ({
    [fieldLabel('withdrawal_date', version)]: isoDate(at),
    trigger: 'trainee',
    reasons: [
      random.pick([
        'trainee_workload_issues',
        'change_in_personal_or_health_circumstances',
        'does_not_want_to_become_a_teacher',
        'moved_to_different_itt_course',
      ]),
    ],
    future_interest: random.pick(['yes', 'no', 'unknown']),
  });
  if (ended) {
    const outcome = random.weighted(['recommend', 'withdraw', 'none'], [85, 5, 10]);
    if (outcome === 'recommend') {
      const at = Math.max(plan.startMs + DAY_MS, plan.endMs - random.int(0, 20) * DAY_MS) + random.int(9 * HOUR_MS, 17 * HOUR_MS);
      const metDate = isoDate(Math.max(plan.startMs, at - random.int(0, 10) * DAY_MS));
      actions.push({ at, make: (now) => ({ type: 'RecommendForAward', ...base, input: { qts_standards_met_date: metDate }, now }) });
      const awardAt = at + random.int(1, 14) * DAY_MS;
      if (trnAt !== null && awardAt < nowMs) {
        actions.push({
          at: awardAt,
          make: (now) => ({ type: 'RecordAward', trainee_id: traineeId, awarded_at: now, now }),
          byRegistry: true,
        });
      }
    } else if (outcome === 'withdraw') {
      const at = between(plan.startMs + DAY_MS, plan.endMs);
      actions.push({ at, make: (now) => ({ type: 'WithdrawTrainee', ...base, input: withdrawInput(at), now }) });
    }
  } else if (plan.startMs + DAY_MS < nowMs) {
    const outcome = random.weighted(['withdraw', 'defer', 'none'], [4, 3, 93]);
    const at = between(Math.max(plan.startMs, plan.createdMs) + DAY_MS, nowMs - HOUR_MS);
    if (outcome === 'withdraw') actions.push({ at, make: (now) => ({ type: 'WithdrawTrainee', ...base, input: withdrawInput(at), now }) });
    if (outcome === 'defer') {
      const input = { defer_date: isoDate(at), defer_reason: random.pick(['Health', 'Family circumstances', 'Financial reasons', null]) };
      actions.push({ at, make: (now) => ({ type: 'DeferTrainee', ...base, input, now }) });
    }
  }
  actions.sort((a, b) => a.at - b.at);
  for (const action of actions) {
    if (action.at >= nowMs) continue;
    try {
      const events = decide(commandFromWire(action.make(new Date(action.at).toISOString())), state);
      if (events.length === 0) continue;
      state = evolveAll(events, state);
      pending.push({
        at: action.at,
        stream: traineeStreamId(traineeId),
        events: toEventData(events, ctx(action.at, action.byRegistry), newEventId),
        expected: revision,
      });
      revision += events.length;
      count(stats, events);
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      stats.refusedActions++;
    }
  }
  if (!state.exists) throw new Error('trainee vanished');
  const t = state.trainee;
  return {
    id: traineeId,
    cycle: academicCycleOf(t.details.trainee_start_date || t.details.itt_start_date),
    state: t.state,
    hasTrn: t.trn !== null,
    updatedAt: t.updated_at,
  };
}

/** One realistic PATCH body of the loaded history: a changed contact or course detail. */
function updateInput(random: Random, serial: number, n: number): Record<string, unknown> {
  switch (random.int(0, 3)) {
    case 0:
      return { email: `updated.${serial}.${n}@example.com` };
    case 1:
      return { middle_names: random.pick(['Jo', 'Sam', 'Lee', 'Kim', 'Ray']) };
    case 2:
      return { study_mode: random.pick(['01', '02', '31']) };
    default:
      return { nationality: random.pick(['GB', 'IE', 'FR', 'PL', 'IN', 'NG']) };
  }
}

function count(stats: Stats, events: TraineeEvent[]): void {
  for (const e of events) stats.eventsByType[e.type] = (stats.eventsByType[e.type] ?? 0) + 1;
}

/**
 * Appends the history-replay trainee: a registration (4 events) and then single-field updates,
 * one append each, until its stream holds {@link HISTORY_STREAM_EVENTS} events. Returns its id.
 */
export async function appendHistoryTrainee(
  store: EventStore,
  provider: ProviderRef,
  generator: TraineeGenerator,
  schools: ReadonlyMap<string, School>,
  nowMs: number,
  stats: Stats,
): Promise<string> {
  const id = resourceId(generator.rng);
  const createdMs = nowMs - 30 * DAY_MS;
  const ittStart = isoDate(createdMs + 7 * DAY_MS);
  const input = generator.traineeInput({
    serial: 999_999_999,
    version: provider.version,
    ittStart,
    twoYear: false,
    placements: 1,
    degrees: 1,
    ukprn: provider.ukprn,
  });
  const ctx = (at: number): WriteContext => ({
    occurredAt: new Date(at).toISOString(),
    providerUkprn: provider.ukprn,
    apiVersion: provider.version,
    tokenId: provider.tokenId,
  });
  const registered = decide(
    commandFromWire({
      type: 'RegisterTrainee',
      trainee_id: id,
      ukprn: provider.ukprn,
      version: provider.version,
      input,
      now: new Date(createdMs).toISOString(),
      new_ids: [resourceId(generator.rng), resourceId(generator.rng)],
      duplicate_candidates: [],
      schools,
    }),
    initialTraineeState,
  );
  await store.appendToStream(traineeStreamId(id), toEventData(registered, ctx(createdMs), newEventId), { expectedRevision: 'no_stream' });
  count(stats, registered);
  let state = evolveAll(registered);
  let revision = registered.length - 1;
  for (let k = 0; revision < HISTORY_STREAM_EVENTS - 1; k++) {
    const at = createdMs + HOUR_MS + k * 30 * 60_000;
    const events = decide(
      commandFromWire({
        type: 'UpdateTrainee',
        trainee_id: id,
        ukprn: provider.ukprn,
        version: provider.version,
        input: { middle_names: `Revision ${k}` },
        now: new Date(at).toISOString(),
      }),
      state,
    );
    await store.appendToStream(traineeStreamId(id), toEventData(events, ctx(at), newEventId), { expectedRevision: revision });
    state = evolveAll(events, state);
    revision += events.length;
    count(stats, events);
    stats.appends++;
  }
  return id;
}
