/**
 * The `census` line (BENCHMARKS.md "Census of a provider"): `admin report as-of`'s work for the
 * provider of the data set nearest 10,000 trainees (`writeCensus`: its trainees named by the read
 * model, each one's stream replayed to the instant, a CSV record each, written to a sink), and the
 * as-of list's first page (`listTraineesAsOf`, what GET /trainees?as_of= runs). Offline, on the
 * loaded stores, before the API starts. Each run opens the stores afresh, as a CLI process does, so
 * every trainee's data key is read and unwrapped again (the opening of the stores is not timed).
 * The ceiling is the 2 s a 10k-trainee provider's census may take; run the bench at two data sizes
 * to see that other providers' trainees do not add to it.
 */
import { Writable } from 'node:stream';
import type { Stores } from '@app/composition';
import { currentAcademicCycle } from '@app/trainees/decider';
import { listTraineesAsOf, scanInThisThread, utcDateOf } from '@app/trainees/read';
import { writeCensus } from '../../apps/admin/src/census/census';
import type { Dataset } from './dataset';

export const CENSUS_SCENARIO = 'census';

/** The most a 10,000-trainee provider's census may take, in seconds (BENCHMARKS.md "Census of a provider"). */
export const CENSUS_CEILING_SECONDS = 2;

/** The size of provider the ceiling is stated for. */
const CENSUS_PROVIDER_SIZE = 10_000;

/** Result of {@link measureCensus}. */
export interface CensusResult {
  ukprn: string;
  /** The provider's trainees (the read model's), and every trainee of the data set. */
  providerTrainees: number;
  totalTrainees: number;
  rows: number;
  csvBytes: number;
  runs: number;
  /** `writeCensus` in CSV: median and slowest of the runs, seconds. */
  medianSeconds: number;
  maxSeconds: number;
  /** The median ÷ {@link CENSUS_CEILING_SECONDS}, and the same for a provider of exactly 10,000 (scaled linearly). */
  ratio: number;
  ratioPer10k: number;
  /** `listTraineesAsOf`, the first page of 50 of the current cycle: median seconds and its ratio to the ceiling. */
  listMedianSeconds: number;
  listRatio: number;
}

/** A sink that counts what is written to it. */
class CountingSink extends Writable {
  bytes = 0;
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.bytes += Buffer.byteLength(chunk);
    done();
  }
}

/**
 * Measures the census and the as-of list `runs` times each at `instant` (after one warm-up run of
 * each), each run on stores opened by `open` and closed after it.
 */
export async function measureCensus(open: () => Promise<Stores>, dataset: Dataset, instant: Date, runs = 3): Promise<CensusResult> {
  const sizes = await withStores(open, (s) =>
    Promise.all(dataset.providers.map(async (p) => ({ ukprn: p.ukprn, n: (await s.readModel.providerTraineeIds(p.ukprn)).length }))),
  );
  const { ukprn, n } = sizes.reduce((a, b) => (Math.abs(b.n - CENSUS_PROVIDER_SIZE) < Math.abs(a.n - CENSUS_PROVIDER_SIZE) ? b : a));
  const census: number[] = [];
  const list: number[] = [];
  let rows = 0;
  let csvBytes = 0;
  const today = utcDateOf(instant);
  for (let i = 0; i <= runs; i++) {
    await withStores(open, async (s) => {
      const sink = new CountingSink();
      const t0 = performance.now();
      rows = await writeCensus(s, ukprn, instant, 'csv', sink);
      if (i > 0) census.push((performance.now() - t0) / 1000);
      csvBytes = sink.bytes;
    });
    await withStores(open, async (s) => {
      const query = { ukprn, academicCycle: currentAcademicCycle(today), page: 1, perPage: 50, sortOrder: 'desc' as const, today };
      const t0 = performance.now();
      await listTraineesAsOf(s.eventStore, s.readModel, query, instant, scanInThisThread(s.storedLog));
      if (i > 0) list.push((performance.now() - t0) / 1000);
    });
  }
  const medianSeconds = median(census);
  const listMedianSeconds = median(list);
  return {
    ukprn,
    providerTrainees: n,
    totalTrainees: dataset.traineeCount,
    rows,
    csvBytes,
    runs,
    medianSeconds,
    maxSeconds: Math.max(...census),
    ratio: medianSeconds / CENSUS_CEILING_SECONDS,
    ratioPer10k: (medianSeconds * (CENSUS_PROVIDER_SIZE / Math.max(1, n))) / CENSUS_CEILING_SECONDS,
    listMedianSeconds,
    listRatio: listMedianSeconds / CENSUS_CEILING_SECONDS,
  };
}

/** The census line of the bench's table. */
export function formatCensus(c: CensusResult): string {
  return (
    `census (admin report as-of, CSV) of provider ${c.ukprn}: ${c.rows} of its ${c.providerTrainees} trainees (data set ${c.totalTrainees}), ` +
    `${(c.csvBytes / 1024).toFixed(0)} KiB: median ${c.medianSeconds.toFixed(2)} s (max ${c.maxSeconds.toFixed(2)}) = ${c.ratio.toFixed(2)} × ` +
    `the ${CENSUS_CEILING_SECONDS} s ceiling (${c.ratioPer10k.toFixed(2)} × scaled to 10,000 trainees); ` +
    `GET /trainees?as_of= first page: ${c.listMedianSeconds.toFixed(2)} s = ${c.listRatio.toFixed(2)} ×`
  );
}

/** The census's target line: the median of a provider near 10,000 trainees under the ceiling. */
export function censusTarget(c: CensusResult): { what: string; target: string; measured: string; met: boolean } {
  return {
    what: `census of a provider (${c.providerTrainees} trainees of ${c.totalTrainees}) ÷ ${CENSUS_CEILING_SECONDS} s`,
    target: '< 1',
    measured: `${c.medianSeconds.toFixed(2)} s = ${c.ratio.toFixed(2)}`,
    met: c.ratio < 1,
  };
}

async function withStores<T>(open: () => Promise<Stores>, fn: (stores: Stores) => Promise<T>): Promise<T> {
  const stores = await open();
  try {
    return await fn(stores);
  } finally {
    await stores.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
