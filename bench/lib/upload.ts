/**
 * The upload scenario (`--only upload`): one provider uploads a file of 1,000 new trainees, made
 * from the template as its staff would, and submits it once checked, first with nothing else going
 * on (the upload's own rows per second), then while the other providers GET their trainees; before
 * that, the same GETs alone. Measures the check's and the submit's rows per second, alone and beside
 * the GETs, and the other providers' p99 meanwhile against alone (docs/DESIGN.md "Uploads": the
 * upload must not starve them; the target: within 2×).
 *
 * The other providers send their GETs at a fixed rate, half of what the API answers for them alone
 * (measured first, as fast as it answers): a service below its capacity, where a p99 that grows
 * means the upload holds the event loop or the disk. At full speed any work beside the GETs takes
 * its share of the CPU, and the GETs' queue, so their p99, grows with that share whatever the
 * upload does between rows.
 */
import { csvRecord } from '@app/uploads/csv';
import { addTraineeColumns, templateRowOf } from '@app/uploads/write';
import type { Dataset } from './dataset';
import type { TraineeGenerator } from './generator';
import { runLoad, type LoadResult } from './load';
import { Random } from './random';
import type { Scenario } from './scenarios';

export const UPLOAD_SCENARIO = 'upload';
/** Rows of the uploaded file: the most a file may hold. */
export const UPLOAD_ROWS = 1_000;
/** The target: the other providers' GET p99 during the upload ÷ alone. */
export const UPLOAD_P99_RATIO_TARGET = 2;

/** What {@link measureUpload} measured. */
export interface UploadResult {
  rows: number;
  /** The other providers' GETs as fast as the API answers them, alone: their rate sets {@link rate}. */
  fullSpeed: LoadResult;
  /** The rate the other providers' GETs are sent at alone and during the upload: half {@link fullSpeed}'s req/s. */
  rate: number;
  /** The other providers' GETs at {@link rate} alone, for the bench's duration, and during the check and submit. */
  idle: LoadResult;
  during: LoadResult;
  /** From the POST to the upload checked, and from the submit to every row written, s; beside the other providers' GETs. */
  checkSeconds: number;
  submitSeconds: number;
  checkRowsPerSecond: number;
  submitRowsPerSecond: number;
  /** The same for a file of as many other trainees uploaded and submitted with no other request meanwhile. */
  alone: { checkSeconds: number; submitSeconds: number; checkRowsPerSecond: number; submitRowsPerSecond: number };
  p99RatioTarget: number;
}

/** The upload's status once its background work has moved it past `pending` / `in_progress`, polled every 50 ms. */
async function settled(url: string, token: string): Promise<{ status: string; error_count: number }> {
  for (;;) {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}: ${await res.text()}`);
    const { data } = (await res.json()) as { data: { status: string; error_count: number } };
    if (data.status !== 'pending' && data.status !== 'in_progress') return data;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Posts `file` as `uploader`'s add-trainees upload, waits until it is checked, submits it and waits until every row is written; the
 * seconds each took. Throws when the file does not check clean or the submit does not succeed.
 */
async function uploadAndSubmit(apiUrl: string, uploader: { version: string; token: string }, file: string) {
  const base = `${apiUrl}/api/${uploader.version}/trainee-uploads`;
  const auth = { authorization: `Bearer ${uploader.token}` };
  const checkStart = performance.now();
  const posted = await fetch(base, { method: 'POST', headers: { ...auth, 'content-type': 'text/csv' }, body: file });
  if (posted.status !== 202) throw new Error(`the upload answered ${posted.status}: ${await posted.text()}`);
  const { upload_id: id } = ((await posted.json()) as { data: { upload_id: string } }).data;
  const checked = await settled(`${base}/${id}`, uploader.token);
  const checkSeconds = (performance.now() - checkStart) / 1000;
  if (checked.status !== 'validated' || checked.error_count !== 0)
    throw new Error(`the bench's file checked ${checked.status} with ${checked.error_count} errors`);
  const submitStart = performance.now();
  const submitted = await fetch(`${base}/${id}/submit`, { method: 'POST', headers: auth });
  if (submitted.status !== 202) throw new Error(`the submit answered ${submitted.status}: ${await submitted.text()}`);
  const done = await settled(`${base}/${id}`, uploader.token);
  const submitSeconds = (performance.now() - submitStart) / 1000;
  if (done.status !== 'succeeded') throw new Error(`the bench's upload ended ${done.status}`);
  return { checkSeconds, submitSeconds, checkRowsPerSecond: UPLOAD_ROWS / checkSeconds, submitRowsPerSecond: UPLOAD_ROWS / submitSeconds };
}

/**
 * Uploads {@link UPLOAD_ROWS} new trainees of the data set's first provider (made by `generator`,
 * serials from `firstSerial`) to the API at `apiUrl` and submits them, while the other providers
 * GET one of their trainees at `load.connections`; before it, the same GETs alone for
 * `load.duration` s, and before those, another file of as many new trainees (serials after the
 * first file's) with nothing else going on. Throws when a file does not check clean or its submit
 * does not succeed.
 */
export async function measureUpload(
  apiUrl: string,
  dataset: Dataset,
  generator: TraineeGenerator,
  options: { seed: number; firstSerial: number },
  load: { connections: number; duration: number },
  log: (message: string) => void,
): Promise<UploadResult> {
  const [uploader, ...others] = dataset.providers;
  log(`bench: scenario ${UPLOAD_SCENARIO}: ${UPLOAD_ROWS} rows uploaded and submitted by one provider while ${others.length} others GET`);
  const random = new Random(options.seed);
  const getOthers: Scenario = {
    name: UPLOAD_SCENARIO,
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
  const columns = addTraineeColumns(uploader.version);
  const fileFrom = (firstSerial: number): string => {
    let file = csvRecord(columns);
    for (let i = 0; i < UPLOAD_ROWS; i++) {
      const data = generator.traineeInput({
        serial: firstSerial + i,
        version: uploader.version,
        ittStart: `${dataset.currentCycle}-09-01`,
        twoYear: false,
        placements: 1,
        degrees: 1,
        ukprn: uploader.ukprn,
      });
      const row = templateRowOf(data);
      file += csvRecord(columns.map((c) => row[c] ?? ''));
    }
    return file;
  };

  const alone = await uploadAndSubmit(apiUrl, uploader, fileFrom(options.firstSerial + UPLOAD_ROWS));
  const fullSpeed = await runLoad(apiUrl, getOthers, { connections: load.connections, duration: load.duration });
  const rate = Math.max(1, Math.round(fullSpeed.rps / 2));
  const idle = await runLoad(apiUrl, getOthers, { connections: load.connections, duration: load.duration, rate });
  let settle!: () => void;
  const ended = new Promise<void>((resolve) => (settle = resolve));
  const during = runLoad(apiUrl, getOthers, { connections: load.connections, duration: 3600, rate }, ended);
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const beside = await uploadAndSubmit(apiUrl, uploader, fileFrom(options.firstSerial));
    settle();
    const result: UploadResult = {
      rows: UPLOAD_ROWS,
      fullSpeed,
      rate,
      idle,
      during: await during,
      ...beside,
      alone,
      p99RatioTarget: UPLOAD_P99_RATIO_TARGET,
    };
    log(
      `bench:   alone: checked ${UPLOAD_ROWS} rows in ${alone.checkSeconds.toFixed(1)} s (${alone.checkRowsPerSecond.toFixed(0)} rows/s), ` +
        `submitted in ${alone.submitSeconds.toFixed(1)} s (${alone.submitRowsPerSecond.toFixed(0)} rows/s)`,
    );
    log(
      `bench:   beside the GETs: checked ${UPLOAD_ROWS} rows in ${beside.checkSeconds.toFixed(1)} s ` +
        `(${beside.checkRowsPerSecond.toFixed(0)} rows/s), ` +
        `submitted in ${beside.submitSeconds.toFixed(1)} s (${beside.submitRowsPerSecond.toFixed(0)} rows/s); other providers' GET p99 ` +
        `at ${rate} req/s (half of ${fullSpeed.rps.toFixed(0)} alone at full speed) ${idle.p99} ms alone, ` +
        `${result.during.p99} ms meanwhile (${result.during.non2xx} non-2xx)`,
    );
    return result;
  } finally {
    settle();
  }
}
