/**
 * The upload burst scenario (`--only upload_burst`): one provider sends ten files of 1 MiB holding
 * one trainee row and blank lines (each refused at the bound on records), and two providers send
 * ten files of 1,000 new trainees between them (five each, the default quota of files waiting for
 * their check), all at once, while the other providers GET one of their trainees at a fixed rate;
 * first the same GETs alone. Measures the other providers' GET p99 during the burst against alone
 * (target: within 2×), the longest block of the API's event loop alone and during the burst (its
 * `nodejs_eventloop_lag_max_seconds`, `monitorEventLoopDelay` at 10 ms resolution, reset by each
 * scrape), and, in this process, the longest block of the event loop while each kind of file is
 * parsed (`monitorEventLoopDelay` at 1 ms resolution). Runs on an API process of its own on the
 * same data dir, with its metrics listener (`PROJECTOR=external`: it only adds uploads).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { parseUploadCsv, csvRecord } from '@app/uploads/csv';
import { UPLOAD_BYTES_MAX, UPLOAD_RECORDS_MAX, UPLOAD_ROWS_MAX } from '@app/uploads/decider';
import { addTraineeColumns, templateRowOf } from '@app/uploads/write';
import type { Dataset } from './dataset';
import type { TraineeGenerator } from './generator';
import { runLoad, type LoadResult } from './load';
import { ApiProcess, freePort } from './processes';
import { Random } from './random';
import type { Scenario } from './scenarios';

export const UPLOAD_BURST_SCENARIO = 'upload_burst';
/** The target: the other providers' GET p99 during the burst ÷ alone. */
export const UPLOAD_BURST_RATIO_TARGET = 2;
/** Files of each kind in the burst. */
const FILES = 10;

/** What {@link measureUploadBurst} measured. */
export interface UploadBurstResult {
  files: { blankLines: number; rows: number; rowsPerFile: number; blankLineBytes: number; rowFileBytes: number };
  /** The burst's POSTs by status. */
  answers: Record<string, number>;
  rate: number;
  fullSpeed: LoadResult;
  idle: LoadResult;
  during: LoadResult;
  /** From the first POST to every accepted file checked, s. */
  burstSeconds: number;
  /** The API's longest event-loop block, ms: over the GETs alone, and over the burst. */
  apiLoopMaxMs: { idle: number | null; during: number | null };
  /**
   * This process's longest event-loop block while parsing each kind of file, ms (1 ms resolution),
   * and over turns of 1 ms of work each: the machine's own noise.
   */
  parseBlockMaxMs: { blankLines: number; rows: number; oneMsTurns: number };
  p99RatioTarget: number;
}

/** The API's `nodejs_eventloop_lag_max_seconds` since its last scrape, in ms; null when it cannot be read. */
async function loopMaxMs(metricsUrl: string): Promise<number | null> {
  try {
    const text = await (await fetch(metricsUrl)).text();
    const m = /^nodejs_eventloop_lag_max_seconds\s+([\d.e+-]+)$/m.exec(text);
    return m ? Number(m[1]) * 1000 : null;
  } catch {
    return null;
  }
}

/**
 * The longest block of this process's event loop while `parse` runs, ms: a histogram of its delays
 * at 1 ms resolution, enabled 20 ms before (its first sample only starts it) and read 20 ms after.
 */
async function blockWhile(parse: () => Promise<unknown>): Promise<number> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  await sleep(20);
  await Promise.resolve()
    .then(parse)
    .catch(() => undefined);
  await sleep(20);
  histogram.disable();
  return histogram.max / 1e6;
}

/** One trainee row, then blank lines to 1 MiB: past the bound on records. */
function blankLineFile(columns: readonly string[], row: Record<string, string>): string {
  const head = csvRecord(columns) + csvRecord(columns.map((c) => row[c] ?? ''));
  return head + '\r\n'.repeat(Math.floor((UPLOAD_BYTES_MAX - head.length) / 2));
}

/** The status of each upload of `ids` polled until none is `pending`. */
async function allChecked(base: string, uploads: { id: string; token: string }[]): Promise<void> {
  for (const u of uploads) {
    for (;;) {
      const res = await fetch(`${base}/${u.id}`, { headers: { authorization: `Bearer ${u.token}` } });
      const { data } = (await res.json()) as { data: { status: string } };
      if (data.status !== 'pending') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Runs the burst (see the top of this file) on an API process of its own over `dataDir`, with
 * `env`, the data set's first two providers uploading (trainees made by `generator`, serials from
 * `firstSerial`) and the others reading.
 */
export async function measureUploadBurst(
  repoRoot: string,
  dataDir: string,
  env: Record<string, string>,
  dataset: Dataset,
  generator: TraineeGenerator,
  options: { seed: number; firstSerial: number },
  load: { connections: number; duration: number },
  log: (message: string) => void,
): Promise<UploadBurstResult> {
  const [a, b, ...others] = dataset.providers;
  const columns = addTraineeColumns(a.version);
  let serial = options.firstSerial;
  const rowOf = (ukprn: string) =>
    templateRowOf(
      generator.traineeInput({
        serial: serial++,
        version: a.version,
        ittStart: `${dataset.currentCycle}-09-01`,
        twoYear: false,
        placements: 1,
        degrees: 1,
        ukprn,
      }),
    );
  const rowFile = (ukprn: string) => {
    let file = csvRecord(columns);
    for (let i = 0; i < UPLOAD_ROWS_MAX; i++) {
      const row = rowOf(ukprn);
      file += csvRecord(columns.map((c) => row[c] ?? ''));
    }
    return file;
  };
  const blank = blankLineFile(columns, rowOf(a.ukprn));
  const rowFiles = Array.from({ length: FILES }, (_, i) => ({ provider: i % 2 === 0 ? a : b, text: rowFile((i % 2 === 0 ? a : b).ukprn) }));
  const parseOptions = { columns, maxBytes: UPLOAD_BYTES_MAX, maxRows: UPLOAD_ROWS_MAX, maxRecords: UPLOAD_RECORDS_MAX };
  const blankBytes = Buffer.from(blank);
  const rowBytes = Buffer.from(rowFiles[0].text);
  const parseBlockMaxMs = {
    blankLines: await blockWhile(() => parseUploadCsv(blankBytes, parseOptions)),
    rows: await blockWhile(() => parseUploadCsv(rowBytes, parseOptions)),
    // The machine's own noise: the same histogram over 200 ms of turns of 1 ms of work each.
    oneMsTurns: await blockWhile(async () => {
      for (const end = performance.now() + 200; performance.now() < end; await new Promise((r) => setImmediate(r))) {
        for (const t = performance.now(); performance.now() - t < 1;);
      }
    }),
  };

  const metricsPort = await freePort();
  log(
    `bench: scenario ${UPLOAD_BURST_SCENARIO}: ${FILES} blank-line files and ${FILES} ${UPLOAD_ROWS_MAX}-row files while ${others.length} providers GET`,
  );
  const api = await ApiProcess.start({
    repoRoot,
    dataDir,
    env: { ...env, PROJECTOR: 'external', METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' },
    cpuProfDir: null,
    logFile: join(dataDir, 'api-upload-burst.log'),
  });
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  try {
    const random = new Random(options.seed);
    const getOthers: Scenario = {
      name: UPLOAD_BURST_SCENARIO,
      title: 'GET one trainee of another provider',
      ratioTarget: null,
      p99TargetMs: null,
      steps: [
        () => {
          const p = others[random.int(0, others.length - 1)];
          const id = p.trainees[random.int(0, p.trainees.length - 1)].id;
          return { method: 'GET', path: `/api/${p.version}/trainees/${id}`, headers: { authorization: `Bearer ${p.token}` } };
        },
      ],
    };
    const fullSpeed = await runLoad(api.url, getOthers, { connections: load.connections, duration: load.duration });
    const rate = Math.max(1, Math.round(fullSpeed.rps / 2));
    await loopMaxMs(metricsUrl);
    const idle = await runLoad(api.url, getOthers, { connections: load.connections, duration: load.duration, rate });
    const idleLoop = await loopMaxMs(metricsUrl);

    let settle!: () => void;
    const ended = new Promise<void>((resolve) => (settle = resolve));
    const during = runLoad(api.url, getOthers, { connections: load.connections, duration: 3600, rate }, ended);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const base = `${api.url}/api/${a.version}/trainee-uploads`;
      const post = async (token: string, text: string) => {
        const res = await fetch(base, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
          body: text,
        });
        const body = (await res.json()) as { data?: { upload_id: string } };
        return { status: res.status, id: body.data?.upload_id ?? null, token };
      };
      const start = performance.now();
      const posted = await Promise.all([
        ...Array.from({ length: FILES }, () => post(a.token, blank)),
        ...rowFiles.map((f) => post(f.provider.token, f.text)),
      ]);
      await allChecked(
        base,
        posted.flatMap((p) => (p.id ? [{ id: p.id, token: p.token }] : [])),
      );
      const burstSeconds = (performance.now() - start) / 1000;
      const duringLoop = await loopMaxMs(metricsUrl);
      settle();
      const answers: Record<string, number> = {};
      for (const p of posted) answers[p.status] = (answers[p.status] ?? 0) + 1;
      const result: UploadBurstResult = {
        files: {
          blankLines: FILES,
          rows: FILES,
          rowsPerFile: UPLOAD_ROWS_MAX,
          blankLineBytes: Buffer.byteLength(blank),
          rowFileBytes: Buffer.byteLength(rowFiles[0].text),
        },
        answers,
        rate,
        fullSpeed,
        idle,
        during: await during,
        burstSeconds,
        apiLoopMaxMs: { idle: idleLoop, during: duringLoop },
        parseBlockMaxMs,
        p99RatioTarget: UPLOAD_BURST_RATIO_TARGET,
      };
      log(
        `bench:   answers ${JSON.stringify(answers)}, every accepted file checked in ${burstSeconds.toFixed(1)} s; other providers' ` +
          `GET p99 at ${rate} req/s ${idle.p99} ms alone, ${result.during.p99} ms meanwhile (${result.during.non2xx} non-2xx); ` +
          `API event loop longest block ${idleLoop?.toFixed(0) ?? '?'} ms alone, ${duringLoop?.toFixed(0) ?? '?'} ms meanwhile; parse block here ` +
          `${parseBlockMaxMs.blankLines.toFixed(1)} ms (blank lines), ${parseBlockMaxMs.rows.toFixed(1)} ms (1,000 rows), ` +
          `${parseBlockMaxMs.oneMsTurns.toFixed(1)} ms over turns of 1 ms of work (the machine's noise)`,
      );
      return result;
    } finally {
      settle();
      await during.catch(() => undefined);
    }
  } finally {
    await api.stop();
  }
}
