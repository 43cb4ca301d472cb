/**
 * The stream-length measurement (`--only patch_long_stream`): `PATCH /trainees/{id}` on trainees
 * whose streams hold about 3,000 events against the same PATCH on trainees of about 10 events.
 * A command starts from the trainee's snapshot and reads only the events after it (docs/DESIGN.md
 * "Bounded cost per trainee"); without the snapshot it would replay the whole stream, at a cost
 * growing with the stream. The target is the 3,000-event PATCH at most 1.2× the 10-event one
 * (mean latency; docs/DESIGN.md ruling 18: what commands do, measured as a ratio).
 *
 * Preparation (harness process, before the API starts): the trainees are appended to the event
 * store as the loader writes events (bench/lib/dataset.ts), each event decided by the domain's own
 * `decide` and wrapped by `toEventData`: a registration with one placement and one degree (4
 * events), a TRN from the registry (1), then single-field updates (`middle_names`) up to the length. They belong to a provider of the
 * data set (its token drives the load) and start in the oldest loaded cycle, so no list scenario
 * sees them.
 *
 * Load: one connection per side, the two sides alternating in rounds. A trainee's commands run one
 * at a time (a per-trainee lock in the API), so several connections on one trainee would measure
 * the queue in front of the lock (latency ≈ connections × the locked part) rather than the PATCH;
 * one connection measures each PATCH alone, on both sides alike, and its req/s is 1 ÷ latency. Each
 * PATCH appends one event, so each side cycles through a pool of trainees (round-robin) to keep the
 * streams near their nominal length: the 10-event pool is sized so that each trainee gains a few
 * events in a run; the four 3,000-event trainees gain what the long side's PATCHes add (about 1 % per
 * 10 s at 30 PATCHes/s, a third if a long PATCH becomes as quick as a short one). The longest stream
 * of each side at the end is reported beside the figures.
 */
import { randomUUID } from 'node:crypto';
import {
  academicCycleOf,
  decide,
  evolveAll,
  initialTraineeState,
  traineeStreamId,
  type TraineeEvent,
  type TraineeState,
} from '@app/trainees/decider';
import { DomainError, toEventData, type WriteContext, type EventData, type EventStore, newEventId } from '@app/event-sourcing';
import type { School } from '@app/trainees/record';
import type { PersonalData } from '@app/personal-data';
import { bulkStore } from './bulk-store';
import { type ProviderRef, resourceId } from './dataset-trainees';
import { isoDate, TraineeGenerator } from './generator';
import { combineLoads, runLoad, type LoadResult } from './load';
import type { Scenario } from './scenarios';
import { commandFromWire, type WireCommand } from './wire-commands';

/** The name `--only` selects the measurement by. */
export const STREAM_LENGTH_SCENARIO = 'patch_long_stream';
/** Events in each short trainee's stream when the run starts. */
export const SHORT_STREAM_EVENTS = 10;
/** Events in each long trainee's stream when the run starts. */
export const LONG_STREAM_EVENTS = 3000;
/** Target: mean PATCH latency on a long trainee ÷ on a short one, at most this (docs/DESIGN.md ruling 18). */
export const STREAM_RATIO_TARGET = 1.2;
/** Connections per side (see the file's comment). */
export const STREAM_CONNECTIONS = 1;
/**
 * Short trainees prepared per second of load (warm-up included): one connection makes a few hundred
 * 10-event PATCHes a second on this service, so each short trainee gains a few events in a run.
 */
const SHORT_POOL_PER_SECOND = 100;
/** Long trainees: 3,000 events each take about a second to prepare; four share the long side's PATCHes. */
const LONG_POOL = 4;

const DAY_MS = 86_400_000;
const NAMES = ['Alex', 'Sam', 'Jordan', 'Taylor', 'Morgan', 'Casey', 'Jamie', 'Robin', 'Charlie', 'Frankie'];

/** The prepared trainees of both sides and the provider whose token patches them. */
export interface StreamTrainees {
  provider: Pick<ProviderRef, 'ukprn' | 'token' | 'version'>;
  short: { ids: string[]; events: number };
  long: { ids: string[]; events: number };
}

/** Options of {@link prepareStreamTrainees}. */
export interface PrepareOptions {
  /** The stores' event store (used when the event store is not the embedded SQLite one). */
  eventStore: EventStore;
  /** The SQLite data dir, when the event store is the embedded one: appends then skip the per-commit fsync, as the loader's do. */
  sqliteDataDir: string | null;
  /** How `eventStore` seals personal data (its keys seal the bulk appends too); null when it does not. */
  personalData: PersonalData | null;
  provider: ProviderRef;
  schools: readonly School[];
  /** The oldest academic cycle of the data set (the trainees start in it). */
  cycle: number;
  /** Seconds of load per side (warm-up plus measured), which sizes the short pool. */
  loadSeconds: number;
  seed: number;
  now: Date;
}

/**
 * Appends the short pool ({@link SHORT_STREAM_EVENTS} events each, {@link SHORT_POOL_PER_SECOND}
 * trainees per second of load, at least 20) and {@link LONG_POOL} long trainees
 * ({@link LONG_STREAM_EVENTS} events each) for `provider`, and returns their ids. Throws if the
 * domain refuses what the generator made 20 times in a row.
 */
export async function prepareStreamTrainees(o: PrepareOptions): Promise<StreamTrainees> {
  const bulk = bulkStore(o.sqliteDataDir, o.eventStore, o.personalData);
  const store = bulk.store;
  const generator = new TraineeGenerator(o.seed, o.schools, { uniqueFirstNames: true });
  const schools = new Map(o.schools.map((s) => [s.urn, s]));
  const ittStartMs = Date.UTC(o.cycle, 8, 1);
  let serial = 900_000_000 + (o.seed % 1_000_000) * 100;
  const make = (events: number): Promise<string> =>
    appendTrainee(store, { provider: o.provider, generator, schools, serial: serial++, ittStartMs, nowMs: o.now.getTime(), events });
  try {
    const shortCount = Math.max(20, Math.ceil(SHORT_POOL_PER_SECOND * o.loadSeconds));
    const short: string[] = [];
    for (let i = 0; i < shortCount; i++) short.push(await make(SHORT_STREAM_EVENTS));
    const long: string[] = [];
    for (let i = 0; i < LONG_POOL; i++) long.push(await make(LONG_STREAM_EVENTS));
    return {
      provider: { ukprn: o.provider.ukprn, token: o.provider.token, version: o.provider.version },
      short: { ids: short, events: SHORT_STREAM_EVENTS },
      long: { ids: long, events: LONG_STREAM_EVENTS },
    };
  } finally {
    await bulk.close();
  }
}

/** Events per append when a prepared stream is written (its events are decided one by one before). */
const APPEND_BATCH = 500;

/**
 * One trainee of `events` events: registered (one placement, one degree) ten days before the ITT
 * start, its TRN issued a day later, then `middle_names` updates spread evenly up to a day ago.
 * Each event is decided by `decide` on the state before it, with its own time and metadata; the
 * events are appended in batches of {@link APPEND_BATCH} (a stream reads the same however its
 * events were appended). Returns the trainee's id.
 */
async function appendTrainee(
  store: EventStore,
  t: {
    provider: ProviderRef;
    generator: TraineeGenerator;
    schools: ReadonlyMap<string, School>;
    serial: number;
    ittStartMs: number;
    nowMs: number;
    events: number;
  },
): Promise<string> {
  const { provider, generator } = t;
  const id = resourceId(generator.rng);
  const createdMs = t.ittStartMs - 10 * DAY_MS;
  const ctx = (at: number, byRegistry = false): WriteContext => ({
    occurredAt: new Date(at).toISOString(),
    providerUkprn: provider.ukprn,
    apiVersion: byRegistry ? null : provider.version,
    requestId: byRegistry ? null : randomUUID(),
    tokenId: byRegistry ? null : provider.tokenId,
  });
  let registered: TraineeEvent[] | null = null;
  for (let attempt = 0; registered === null; attempt++) {
    if (attempt >= 20) throw new Error(`generator: 20 refused bodies in a row for stream trainee ${t.serial}`);
    const input = generator.traineeInput({
      serial: t.serial,
      version: provider.version,
      ittStart: isoDate(t.ittStartMs),
      twoYear: false,
      placements: 1,
      degrees: 1,
      ukprn: provider.ukprn,
    });
    try {
      registered = decide(
        commandFromWire({
          type: 'RegisterTrainee',
          trainee_id: id,
          ukprn: provider.ukprn,
          version: provider.version,
          input,
          now: new Date(createdMs).toISOString(),
          new_ids: Array.from({ length: 4 }, () => resourceId(generator.rng)),
          duplicate_candidates: [],
          schools: t.schools,
        }),
        initialTraineeState,
      );
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
    }
  }
  const written: EventData[] = toEventData(registered, ctx(createdMs), newEventId);
  let state: TraineeState = evolveAll(registered);
  const apply = (command: WireCommand, at: number, byRegistry = false): void => {
    const events = decide(commandFromWire(command), state);
    if (events.length !== 1) throw new Error(`stream trainee: ${command.type} decided ${events.length} events, expected 1`);
    written.push(...toEventData(events, ctx(at, byRegistry), newEventId));
    state = evolveAll(events, state);
  };
  const trnAt = createdMs + DAY_MS;
  apply(
    { type: 'RecordTrnIssued', trainee_id: id, trn: String(1_000_000 + (t.serial % 9_000_000)), now: new Date(trnAt).toISOString() },
    trnAt,
    true,
  );
  const updates = t.events - written.length;
  const step = Math.max(60_000, Math.floor((t.nowMs - DAY_MS - trnAt) / Math.max(1, updates)));
  for (let k = 0; k < updates; k++) {
    const at = trnAt + (k + 1) * step;
    apply(
      {
        type: 'UpdateTrainee',
        trainee_id: id,
        ukprn: provider.ukprn,
        version: provider.version,
        input: { middle_names: `Revision ${k}` },
        now: new Date(at).toISOString(),
      },
      at,
    );
  }
  if (written.length !== t.events) throw new Error(`stream trainee ${id}: ${written.length} events, expected ${t.events}`);
  for (let from = 0; from < written.length; from += APPEND_BATCH) {
    await store.appendToStream(traineeStreamId(id), written.slice(from, from + APPEND_BATCH), {
      expectedRevision: from === 0 ? 'no_stream' : from - 1,
    });
  }
  return id;
}

/** A side's PATCH load: round-robin over `ids`, each visit a new `first_names`. `visits` counts the PATCHes sent per trainee. */
function patchScenario(name: string, title: string, provider: StreamTrainees['provider'], ids: string[], visits: number[]): Scenario {
  let next = 0;
  return {
    name,
    title,
    ratioTarget: null,
    p99TargetMs: null,
    steps: [
      () => {
        const i = next++ % ids.length;
        const v = visits[i]++;
        return {
          method: 'PATCH',
          path: `/api/${provider.version}/trainees/${ids[i]}`,
          headers: { authorization: `Bearer ${provider.token}`, 'content-type': 'application/json' },
          // Consecutive visits of one trainee differ in the first name, so every PATCH changes it (one event).
          body: JSON.stringify({
            data: { first_names: `${NAMES[v % NAMES.length]} ${NAMES[Math.floor(v / NAMES.length) % NAMES.length]}` },
          }),
        };
      },
    ],
  };
}

/** One side of the measurement. */
export interface StreamSideResult {
  /** Trainees in the pool. */
  trainees: number;
  /** Events in each trainee's stream at the start. */
  events: number;
  /** The longest stream of the pool at the end (start + PATCHes sent to its busiest trainee). */
  eventsAtEnd: number;
  load: LoadResult;
}

/** Result of {@link measureStreamLength}. */
export interface StreamLengthResult {
  connections: number;
  short: StreamSideResult;
  long: StreamSideResult;
  /** Mean latency long ÷ short (the target's measure). */
  ratio: number;
  /** The same ratio per alternating round. */
  roundRatios: number[];
  /** p99 latency long ÷ short. */
  p99Ratio: number;
  ratioTarget: number;
}

/**
 * Checks one PATCH per side answers 200, warms both sides up for `warmup` s, then runs them
 * alternately, `rounds` times `duration / rounds` s each, one connection each, and returns both
 * sides and the ratio of their mean latencies. Throws when the check PATCH answers anything but 200.
 */
export async function measureStreamLength(
  apiUrl: string,
  trainees: StreamTrainees,
  settings: { duration: number; warmup: number; rounds: number },
  log: (message: string) => void,
): Promise<StreamLengthResult> {
  const shortVisits = trainees.short.ids.map(() => 0);
  const longVisits = trainees.long.ids.map(() => 0);
  const short = patchScenario(
    `${STREAM_LENGTH_SCENARIO}:short`,
    `PATCH, ${SHORT_STREAM_EVENTS}-event trainees`,
    trainees.provider,
    trainees.short.ids,
    shortVisits,
  );
  const long = patchScenario(
    `${STREAM_LENGTH_SCENARIO}:long`,
    `PATCH, ${LONG_STREAM_EVENTS}-event trainees`,
    trainees.provider,
    trainees.long.ids,
    longVisits,
  );
  log(
    `bench: ${STREAM_LENGTH_SCENARIO}: PATCH on ${trainees.long.ids.length} trainees of ${fmt(LONG_STREAM_EVENTS)} events vs ${fmt(trainees.short.ids.length)} of ${SHORT_STREAM_EVENTS}, ${STREAM_CONNECTIONS} connection each`,
  );
  for (const scenario of [short, long]) {
    const req = scenario.steps[0]({});
    const res = await fetch(apiUrl + req.path, { method: req.method, headers: req.headers, body: req.body });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${scenario.name}: ${req.method} ${req.path} answered ${res.status}: ${text.slice(0, 500)}`);
  }
  const load = { connections: STREAM_CONNECTIONS };
  if (settings.warmup > 0) {
    await runLoad(apiUrl, short, { ...load, duration: settings.warmup });
    await runLoad(apiUrl, long, { ...load, duration: settings.warmup });
  }
  const slice = { ...load, duration: settings.duration / settings.rounds };
  const shorts: LoadResult[] = [];
  const longs: LoadResult[] = [];
  for (let r = 0; r < settings.rounds; r++) {
    shorts.push(await runLoad(apiUrl, short, slice));
    longs.push(await runLoad(apiUrl, long, slice));
  }
  const s = combineLoads(shorts);
  const l = combineLoads(longs);
  const result: StreamLengthResult = {
    connections: STREAM_CONNECTIONS,
    short: {
      trainees: trainees.short.ids.length,
      events: trainees.short.events,
      eventsAtEnd: trainees.short.events + Math.max(...shortVisits),
      load: s,
    },
    long: {
      trainees: trainees.long.ids.length,
      events: trainees.long.events,
      eventsAtEnd: trainees.long.events + Math.max(...longVisits),
      load: l,
    },
    ratio: (l.mean ?? NaN) / (s.mean ?? NaN),
    roundRatios: longs.map((x, i) => (x.mean ?? NaN) / (shorts[i].mean ?? NaN)),
    p99Ratio: l.p99 / s.p99,
    ratioTarget: STREAM_RATIO_TARGET,
  };
  log(`bench:   ${formatStreamLength(result)}`);
  return result;
}

const fmt = (n: number, digits = 0): string => n.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** One side as text: `10-event trainees (streams 10 → 14): 310 req/s, mean 3.21 ms, p99 6 ms`. */
function side(x: StreamSideResult): string {
  const failed = x.load.non2xx + x.load.errors;
  return (
    `${fmt(x.events)}-event trainees (${fmt(x.trainees)}, streams ${fmt(x.events)} → ≤ ${fmt(x.eventsAtEnd)}): ${fmt(x.load.rps)} req/s, ` +
    `mean ${fmt(x.load.mean ?? NaN, 2)} ms, p99 ${fmt(x.load.p99, 1)} ms${failed > 0 ? ` (${failed} failed ${JSON.stringify(x.load.statusCodes)})` : ''}`
  );
}

/** The result in one line, as the console and the table print it. */
export function formatStreamLength(r: StreamLengthResult): string {
  return (
    `PATCH by stream length (${r.connections} connection per side): ${side(r.short)}; ${side(r.long)}; ` +
    `mean latency ratio ${r.ratio.toFixed(2)}× (target ≤ ${r.ratioTarget}× ${r.ratio <= r.ratioTarget ? 'met' : 'MISSED'}; p99 ratio ${r.p99Ratio.toFixed(2)}×` +
    `${r.roundRatios.length > 1 ? `; rounds ${r.roundRatios.map((x) => x.toFixed(2)).join(', ')}` : ''})`
  );
}

/** The result as a Markdown bullet for BENCHMARKS.md. */
export function markdownStreamLength(r: StreamLengthResult): string {
  const row = (x: StreamSideResult): string =>
    `${fmt(x.events)} events (${fmt(x.trainees)} trainees, ≤ ${fmt(x.eventsAtEnd)} at the end): ${fmt(x.load.rps)} req/s, mean ${fmt(x.load.mean ?? NaN, 2)} ms, p99 ${fmt(x.load.p99, 1)} ms`;
  return (
    `- PATCH on a ${fmt(r.long.events)}-event trainee vs a ${fmt(r.short.events)}-event one (${r.connections} connection per side, alternating): ` +
    `${row(r.short)}; ${row(r.long)}; mean latency ratio **${r.ratio.toFixed(2)}×** (target ≤ ${r.ratioTarget}× ${r.ratio <= r.ratioTarget ? '✓' : '✗'}), p99 ratio ${r.p99Ratio.toFixed(2)}×.`
  );
}

/** The oldest academic cycle among `cycles` (the keys of the data set's trainees by cycle); without any, `today`'s cycle minus three. */
export function oldestCycle(cycles: readonly string[], today: string): number {
  const known = cycles.map(Number).filter((c) => Number.isInteger(c));
  return known.length > 0 ? Math.min(...known) : academicCycleOf(today) - 3;
}
