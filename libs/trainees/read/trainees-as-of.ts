import { setImmediate } from 'node:timers/promises';
import { startCycle, traineeStreamId } from '@app/trainees/decider';
import type { Trainee } from '@app/trainees/record';
import type { EventStore, StoredLog } from '@app/event-sourcing';
import { traineeAsOf } from './trainee-history';
import { matchesStatus } from './list-status';
import type { TraineeListQuery, TraineeReadModel } from './trainee-read.port';

/** A trainee as it stood at the instant, with the list's tie-break. */
export interface TraineeAtInstant {
  trainee: Trainee;
  /** Global position of the event that registered the trainee (the list orders ties newest-created first). */
  createdPosition: number;
}

/**
 * The provider's trainees as they stood at `instant`, in id order (binary), each folded from its own stream (docs/DESIGN.md "A
 * provider's trainees at an instant"); those not yet registered then are left out. From the event store, opened; from the log as
 * stored, sealed (`[sealed]`, the disabilities map nonsense), no data key read. The event loop gets a turn every
 * {@link TRAINEES_PER_TURN} trainees, as the embedded store reads synchronously.
 */
export async function* providerTraineesAsOf(
  log: StreamReader,
  trainees: TraineeReadModel,
  ukprn: string,
  instant: Date,
): AsyncGenerator<TraineeAtInstant> {
  yield* traineesAsOf(log, await trainees.providerTraineeIds(ukprn), ukprn, instant);
}

/** What the replays read: a stream, whole (the event store, opened, or the log as stored, sealed). */
export type StreamReader = Pick<EventStore | StoredLog, 'readStream'>;

async function* traineesAsOf(
  store: StreamReader,
  traineeIds: readonly string[],
  ukprn: string,
  instant: Date,
): AsyncGenerator<TraineeAtInstant> {
  let read = 0;
  for await (const events of readAhead(traineeIds, STREAMS_READ_AHEAD, (id) => store.readStream(traineeStreamId(id)))) {
    if (++read % TRAINEES_PER_TURN === 0) await setImmediate();
    if (events.length === 0) continue;
    const trainee = traineeAsOf(events, instant);
    if (trainee && trainee.ukprn === ukprn) yield { trainee, createdPosition: events[0].position };
  }
}

/** Trainees replayed between two turns of the event loop (about 5 ms of work). */
const TRAINEES_PER_TURN = 64;

/** Streams read ahead of the replay, so a server store (one gRPC call a stream) serves them together. */
export const STREAMS_READ_AHEAD = 16;

/** `read` of each item, yielded in order, with at most `ahead` started and not yet yielded; a rejection is thrown in its turn. */
export async function* readAhead<T, R>(items: readonly T[], ahead: number, read: (item: T) => Promise<R>): AsyncGenerator<R> {
  const started: Promise<R>[] = [];
  let next = 0;
  while (next < items.length || started.length > 0) {
    while (started.length < ahead && next < items.length) {
      const reading = read(items[next++]);
      reading.catch(() => undefined); // thrown when yielded, not as an unhandled rejection before
      started.push(reading);
    }
    yield await started.shift()!;
  }
}

/** `YYYY-MM-DD` of an instant in UTC: the list's "today" at that instant. */
export function utcDateOf(instant: Date): string {
  return instant.toISOString().slice(0, 10);
}

/** Whether the list query keeps the trainee, as the read models' queries filter (docs/reference/API-FACTS.md §14). */
export function matchesListQuery(trainee: Trainee, q: TraineeListQuery): boolean {
  if (trainee.ukprn !== q.ukprn || startCycle(trainee.details) !== q.academicCycle) return false;
  if (q.since !== undefined && trainee.updated_at < q.since) return false;
  if (q.hasTrn !== undefined && Boolean(trainee.trn) !== q.hasTrn) return false;
  if (q.statuses && q.statuses.length > 0 && !q.statuses.some((s) => matchesStatus(trainee, s, q.today))) return false;
  return true;
}

/** A page of the list at an instant: the page's trainees as they stood then, in list order, and the count of every match. */
export interface TraineeAsOfPage {
  items: Trainee[];
  totalCount: number;
}

/** A trainee the list query kept at the instant: its id and its sort keys. */
export interface AsOfMatch {
  id: string;
  updatedAt: string;
  createdPosition: number;
}

/**
 * Which of the provider's `traineeIds` `q` keeps at `instant`, with sort keys, unordered, folded sealed (no filter reads a personal
 * field): the part of {@link listTraineesAsOf} that costs the provider's size, which may run on another thread.
 */
export async function matchesAsOf(
  storedLog: StoredLog,
  traineeIds: readonly string[],
  q: TraineeListQuery,
  instant: Date,
): Promise<AsOfMatch[]> {
  const matches: AsOfMatch[] = [];
  for await (const { trainee, createdPosition } of traineesAsOf(storedLog, traineeIds, q.ukprn, instant)) {
    if (matchesListQuery(trainee, q)) matches.push({ id: trainee.trainee_id, updatedAt: trainee.updated_at, createdPosition });
  }
  return matches;
}

/** Finds the matches of {@link matchesAsOf} (its arguments but the log): in this thread ({@link scanInThisThread}), or on another. */
export type AsOfScan = (traineeIds: readonly string[], q: TraineeListQuery, instant: Date) => Promise<AsOfMatch[]>;

export const AS_OF_SCAN = Symbol('AS_OF_SCAN');

/** The {@link AsOfScan} that folds the streams of `storedLog` in the calling thread ({@link matchesAsOf}). */
export function scanInThisThread(storedLog: StoredLog): AsOfScan {
  return (traineeIds, q, instant) => matchesAsOf(storedLog, traineeIds, q, instant);
}

/**
 * The page of `q` as the list would have answered it at `instant` (`q.today`: the instant's UTC date), ties newest-created first.
 * The matches are found sealed by `scan`; only the page's trainees are folded again from `eventStore`, opened. RangeError for a query
 * with a search, which reads the personal fields the scan leaves sealed.
 */
export async function listTraineesAsOf(
  eventStore: EventStore,
  trainees: TraineeReadModel,
  q: TraineeListQuery,
  instant: Date,
  scan: AsOfScan,
): Promise<TraineeAsOfPage> {
  if (q.search && q.search.length > 0) throw new RangeError('the list at an instant cannot search: its scan reads no personal field');
  const matches = await scan(await trainees.providerTraineeIds(q.ukprn), q, instant);
  const dir = q.sortOrder === 'asc' ? 1 : -1;
  matches.sort((a, b) => (a.updatedAt !== b.updatedAt ? (a.updatedAt < b.updatedAt ? -dir : dir) : b.createdPosition - a.createdPosition));
  const totalCount = matches.length;
  const offset = (q.page - 1) * q.perPage;
  if (q.perPage < 1 || offset >= totalCount) return { items: [], totalCount };
  const items: Trainee[] = [];
  const page = matches.slice(offset, offset + q.perPage).map((m) => m.id);
  for await (const events of readAhead(page, STREAMS_READ_AHEAD, (id) => eventStore.readStream(traineeStreamId(id)))) {
    const trainee = traineeAsOf(events, instant);
    if (trainee) items.push(trainee);
  }
  return { items, totalCount };
}
