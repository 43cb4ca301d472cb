/**
 * The HTTP scenarios: what a provider's student record system sends. Each scenario is a sequence
 * of request steps that every autocannon connection repeats; a step draws its provider (weighted
 * by the provider's size: big providers call more), trainee and body at random from the loaded
 * data set, in the API version that provider's system speaks.
 */
import type { Dataset } from './dataset';
import type { ProviderRef, TraineeRef } from './dataset-trainees';
import type { CursorCodec } from '@app/changes';
import { logPosition } from '@app/event-sourcing';
import { isoDate, TraineeGenerator } from './generator';
import { Random } from './random';

/** One HTTP request of a scenario. */
export interface ScenarioRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** A benchmark scenario: the request steps a connection repeats, and its target ratio to the ceiling. */
export interface Scenario {
  name: string;
  title: string;
  /** Each step makes the next request; `context` is per connection and per round of the steps. */
  steps: ((context: Record<string, unknown>) => ScenarioRequest)[];
  /** Required req/s ratio to the ceiling (the targets of BENCHMARKS.md), or null when none is set. */
  ratioTarget: number | null;
  /**
   * Required p99 latency at the run's connections, ms (GET < 10, writes < 40: BENCHMARKS.md "Today"), or null when none is set.
   */
  p99TargetMs: number | null;
}

const FROZEN_IN_V2026_1 = new Set(['recommended_for_award', 'withdrawn', 'awarded']);
const IN_TRAINING = new Set(['submitted_for_trn', 'trn_received', 'recommended_for_award']);
const NEW_FIRST_NAMES = ['Alex', 'Sam', 'Jordan', 'Taylor', 'Morgan', 'Casey', 'Jamie', 'Robin', 'Charlie', 'Frankie'];

/** Chooses providers in proportion to a weight, from a fixed list. */
class ProviderPicker {
  private readonly cumulative: number[] = [];
  private readonly total: number;

  constructor(
    private readonly random: Random,
    readonly providers: ProviderRef[],
    weight: (p: ProviderRef) => number,
  ) {
    let sum = 0;
    for (const p of providers) this.cumulative.push((sum += weight(p)));
    this.total = sum;
    if (providers.length === 0 || sum === 0) throw new Error('no provider has data for this scenario');
  }

  pick(): ProviderRef {
    const r = this.random.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid] > r) hi = mid;
      else lo = mid + 1;
    }
    return this.providers[lo];
  }
}

/**
 * Builds the scenarios over a loaded data set. `generator` makes the create bodies (serials from
 * `firstSerial` up, so emails never repeat the loaded ones); `now` fixes "today" for them.
 */
export function buildScenarios(
  dataset: Dataset,
  generator: TraineeGenerator,
  options: { seed: number; firstSerial: number; now: Date; cursors: CursorCodec },
): Scenario[] {
  const random = new Random(options.seed);
  const current = dataset.currentCycle;
  const previous = current - 1;
  const auth = (p: ProviderRef, json = false): Record<string, string> =>
    json ? { authorization: `Bearer ${p.token}`, 'content-type': 'application/json' } : { authorization: `Bearer ${p.token}` };
  const base = (p: ProviderRef): string => `/api/${p.version}/trainees`;

  // Per provider: trainees of the current cycle, of the previous cycle in training with a TRN, and those a PATCH may change.
  const currentOf = new Map<ProviderRef, TraineeRef[]>();
  const trainingOf = new Map<ProviderRef, number>();
  const patchableOf = new Map<ProviderRef, TraineeRef[]>();
  const sinceOf = new Map<ProviderRef, string>();
  for (const p of dataset.providers) {
    const cur = p.trainees.filter((t) => t.cycle === current);
    currentOf.set(p, cur);
    trainingOf.set(p, p.trainees.filter((t) => t.cycle === previous && t.hasTrn && IN_TRAINING.has(t.state)).length);
    patchableOf.set(p, p.version === 'v2026.1' ? p.trainees.filter((t) => !FROZEN_IN_V2026_1.has(t.state)) : p.trainees);
    // A sync client asks for what changed since its last sync: about one page of the current cycle.
    const recent = cur
      .map((t) => t.updatedAt)
      .sort()
      .reverse();
    sinceOf.set(p, recent[Math.min(49, recent.length - 1)] ?? new Date(options.now.getTime() - 86_400_000).toISOString());
  }
  const bySize = (p: ProviderRef): number => p.trainees.length;
  const anyProvider = new ProviderPicker(random, dataset.providers, bySize);
  const withCurrent = new ProviderPicker(
    random,
    dataset.providers.filter((p) => currentOf.get(p)!.length > 0),
    (p) => currentOf.get(p)!.length,
  );
  const withTraining = new ProviderPicker(
    random,
    dataset.providers.filter((p) => trainingOf.get(p)! > 0),
    (p) => trainingOf.get(p)!,
  );
  const withPatchable = new ProviderPicker(
    random,
    dataset.providers.filter((p) => patchableOf.get(p)!.length > 0),
    (p) => patchableOf.get(p)!.length,
  );
  const syncing = new ProviderPicker(
    random,
    dataset.providers.filter((p) => currentOf.get(p)!.length > 0 && patchableOf.get(p)!.length > 0),
    bySize,
  );

  let serial = options.firstSerial;
  const nowMs = options.now.getTime();
  const cycleStart = Date.UTC(current, 7, 1);
  const createBody = (p: ProviderRef): string => {
    const startMs = cycleStart + random.int(0, Math.max(0, Math.floor((nowMs - cycleStart) / 86_400_000))) * 86_400_000;
    const data = generator.traineeInput({
      serial: serial++,
      version: p.version,
      ittStart: isoDate(startMs),
      twoYear: random.chance(0.35),
      placements: 1,
      degrees: 1,
      ukprn: p.ukprn,
    });
    return JSON.stringify({ data });
  };
  const patchRequest = (p: ProviderRef): ScenarioRequest => ({
    method: 'PATCH',
    path: `${base(p)}/${random.pick(patchableOf.get(p)!).id}`,
    headers: auth(p, true),
    body: JSON.stringify({ data: { first_names: `${random.pick(NEW_FIRST_NAMES)} ${random.pick(NEW_FIRST_NAMES)}` } }),
  });
  const createRequest = (p: ProviderRef): ScenarioRequest => ({
    method: 'POST',
    path: base(p),
    headers: auth(p, true),
    body: createBody(p),
  });

  return [
    {
      name: 'get',
      title: 'GET one trainee (placements, degrees)',
      ratioTarget: 0.35,
      p99TargetMs: 10,
      steps: [
        () => {
          const p = anyProvider.pick();
          return { method: 'GET', path: `${base(p)}/${random.pick(p.trainees).id}`, headers: auth(p) };
        },
      ],
    },
    {
      name: 'list',
      title: 'list, per_page 50, no filter (current cycle, pages 1-10)',
      ratioTarget: 0.3,
      p99TargetMs: null,
      steps: [
        () => {
          const p = withCurrent.pick();
          const pages = Math.min(10, Math.ceil(currentOf.get(p)!.length / 50));
          return { method: 'GET', path: `${base(p)}?per_page=50&page=${random.int(1, pages)}`, headers: auth(p) };
        },
      ],
    },
    {
      name: 'list_filtered',
      title: `list, per_page 50, filters (cycle ${previous}, in_training, has_trn, asc)`,
      ratioTarget: 0.3,
      p99TargetMs: null,
      steps: [
        () => {
          const p = withTraining.pick();
          const pages = Math.min(5, Math.ceil(trainingOf.get(p)! / 50));
          return {
            method: 'GET',
            path: `${base(p)}?academic_cycle=${previous}&status=in_training&has_trn=true&sort_order=asc&per_page=50&page=${random.int(1, pages)}`,
            headers: auth(p),
          };
        },
      ],
    },
    {
      name: 'create',
      title: 'create (POST, one placement, one degree)',
      ratioTarget: 0.08,
      p99TargetMs: 40,
      steps: [() => createRequest(anyProvider.pick())],
    },
    {
      name: 'patch',
      title: 'PATCH one field (first_names)',
      ratioTarget: 0.06,
      p99TargetMs: 40,
      steps: [() => patchRequest(withPatchable.pick())],
    },
    {
      name: 'sync',
      title: 'provider sync: list since, then PATCH, then POST',
      ratioTarget: 0.2,
      p99TargetMs: 40,
      steps: [
        (ctx) => {
          const p = syncing.pick();
          ctx.provider = p;
          return { method: 'GET', path: `${base(p)}?since=${encodeURIComponent(sinceOf.get(p)!)}&per_page=50`, headers: auth(p) };
        },
        (ctx) => patchRequest(ctx.provider as ProviderRef),
        (ctx) => createRequest(ctx.provider as ProviderRef),
      ],
    },
    {
      name: 'feed',
      title: 'change feed, pages of 100 (GET /changes?after=, from anywhere in the log)',
      ratioTarget: null,
      p99TargetMs: null,
      steps: [
        () => {
          const p = anyProvider.pick();
          // Cursors of positions across the first 90 % of the log: full pages for every provider (its changes are spread over it).
          const after = options.cursors.encode(p.ukprn, logPosition(random.int(0, Math.floor(dataset.eventCount * 0.9))));
          return { method: 'GET', path: `/api/${p.version}/changes?limit=100&after=${after}`, headers: auth(p) };
        },
      ],
    },
  ];
}
