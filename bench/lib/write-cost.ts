/**
 * The cost of one write, step by step (BENCHMARKS.md "The cost of one write"): the API's CPU
 * profiles of a run of one scenario (`--only create --cpu-prof`: the main thread's and each worker
 * thread's), each sample given to the step of the first frame, from the sampled function up, that a
 * rule below names. The main thread's busy time is its CPU time (it does not wait on the disk), so
 * every thread's busy time is scaled by the main thread's CPU per request that a run without the
 * profiler measured from /proc (`apiCpu.mainUs`; the profiler slows every thread alike). A worker
 * thread's busy time counts its waits in SQLite calls too: for the log writer, mostly the disk's sync.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** A step and what names it: a test on a frame's source and function name. */
type Rule = [step: string, test: (url: string, fn: string) => boolean];

const has =
  (...parts: string[]) =>
  (url: string) =>
    parts.some((p) => url.includes(p));

/** The steps of the API's main thread, in the order they are tried on each frame. */
const MAIN_RULES: Rule[] = [
  ['garbage collection', (_, fn) => fn === '(garbage collector)'],
  [
    'read the trainee (snapshot, events after it)',
    (url, fn) => /^(snapshot|getTraineeSnapshot|startingPoint|readStream|refresh)$/.test(fn) || url.includes('stream-scan'),
  ],
  ['duplicate check, schools', (url, fn) => fn === 'duplicateCandidates' || fn === 'findByUrns' || url.includes('school-directory')],
  [
    'validate (wire checks, DTOs, rules)',
    has('class-validator', 'class-transformer', 'libphonenumber', '/validator/', '/contract/wire/', '/decider/rules/'),
  ],
  ['decide', has('/trainees/decider/', '/event-sourcing/', '/trainees/write/')],
  [
    'append (serialize, post to the log writer)',
    (url, fn) => url.includes('sqlite-rows') || url.includes('projection-thread/') || fn === 'postMessage',
  ],
  ['render the answer', has('/contract/answers/')],
  [
    'admission, auth, idempotency, metrics, traces',
    has(
      '/auth/',
      '/admission/',
      '/idempotency/',
      '/observability/',
      '/runtime/telemetry',
      '/runtime/tracing',
      'prom-client',
      '@opentelemetry',
    ),
  ],
  ['webhook dispatcher, registry process manager', has('/webhooks/', '/registry/', 'webhook-outbox')],
  [
    'HTTP (parse, route, send)',
    (url, fn) =>
      has('fastify', 'find-my-way', 'json-body', '_http_', 'node:net', 'node:stream', 'internal/streams')(url) ||
      fn === 'writev' ||
      fn === 'writeUtf8String',
  ],
  ['Nest, rxjs', has('@nestjs', 'rxjs')],
];

/** The steps of the log writer thread. */
const WRITER_RULES: Rule[] = [
  ['garbage collection', (_, fn) => fn === '(garbage collector)'],
  ['append: commit and sync (log writer thread)', () => true],
];

/** The steps of the projection thread. */
const PROJECTION_RULES: Rule[] = [
  ['garbage collection', (_, fn) => fn === '(garbage collector)'],
  ['project: render answers', has('/contract/answers/')],
  ['project: fold, change feed entries', has('/event-sourcing/', '/trainees/decider/', '/changes/', '/trainees/read/', 'trainee-rows')],
  [
    'project: read the events',
    (url, fn) => has('filtered-reads', 'sqlite-subscription')(url) || fn === 'toRecordedEvent' || fn === 'readBatch',
  ],
  ['project: write the read models', has('trainee-tables', 'sqlite-read-model', 'provider-tables', 'better-sqlite3')],
];

/** One thread's steps: busy ms per step, and the thread's busy ms. */
interface ThreadSteps {
  /** `main`, `log writer`, `projection`, or another worker's script name (`data-key-writer`, `wal-checkpointer`, …). */
  thread: string;
  busyMs: number;
  steps: Map<string, number>;
}

/** Reads a profile, tells its thread from its frames, and sums its samples (after `skipMs`) per step. */
export function stepsOf(file: string, skipMs: number): ThreadSteps {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const worker = profile.nodes.map((n) => WORKER_SCRIPT.exec(n.callFrame.url)?.[1]).find((name) => name !== undefined);
  const thread = worker === undefined ? 'main' : (THREAD_NAMES[worker] ?? worker);
  const rules = thread === 'main' ? MAIN_RULES : thread === 'log writer' ? WRITER_RULES : thread === 'projection' ? PROJECTION_RULES : [];
  const steps = new Map<string, number>();
  let busyMs = 0;
  let at = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    at += (profile.timeDeltas[i] ?? 0) / 1000;
    if (at < skipMs) continue;
    const leaf = byId.get(profile.samples[i])!;
    if (leaf.callFrame.functionName === '(idle)' || leaf.callFrame.functionName === '(program)') continue;
    // A sample in a worker script's own top level is a blocking wait there (the WAL checkpointer's `Atomics.wait`), not work.
    if (worker !== undefined && isScriptTop(leaf.callFrame)) continue;
    busyMs += ms;
    let step = 'other';
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const { url, functionName } = byId.get(id)!.callFrame;
      const rule = rules.find(([, test]) => test(url, functionName));
      if (rule) {
        step = rule[0];
        break;
      }
    }
    steps.set(step, (steps.get(step) ?? 0) + ms);
  }
  return { thread, busyMs, steps };
}

/** A worker thread's script (`dist/.../<name>.worker.js`). */
const WORKER_SCRIPT = /\/([\w-]+)\.worker\.js$/;

/** The table's names of the write path's two threads. */
const THREAD_NAMES: Record<string, string> = { 'log-writer': 'log writer', 'projection-thread': 'projection' };

function isScriptTop(frame: Profile['nodes'][number]['callFrame']): boolean {
  return frame.functionName === '' && WORKER_SCRIPT.test(frame.url);
}

/** A row of the table: a thread's step and its busy µs per request. */
export interface CostRow {
  thread: string;
  step: string;
  us: number;
}

/** The rows of the cost table: each thread's steps in µs per request, scaled by the main thread's CPU per request `mainUs`. */
export function costRows(threads: ThreadSteps[], mainUs: number): CostRow[] {
  const main = threads.find((t) => t.thread === 'main');
  if (!main || main.busyMs === 0) throw new Error('no profile of the main thread');
  const scale = mainUs / main.busyMs;
  const rows: CostRow[] = [];
  for (const t of threads) {
    for (const [step, ms] of [...t.steps].sort((a, b) => b[1] - a[1])) rows.push({ thread: t.thread, step, us: ms * scale });
  }
  return rows;
}
