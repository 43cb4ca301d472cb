import { setImmediate } from 'node:timers/promises';
import { startCycle, traineeStreamId } from '@app/trainees/decider';
import type { Trainee } from '@app/trainees/record';
import type { EventStore, StoredLog } from '@app/event-sourcing';
import { traineeAsOf } from './trainee-history';
import { matchesStatus } from './list-status';
import type { TraineeListQuery, TraineeReadModel } from './trainee-read.port';

/**
 * A provider's trainees as they stood at an instant (docs/DESIGN.md "A provider's trainees at an
 * instant"): the read model names the provider's trainees (every trainee registered for it and not
 * erased: ruling 15), and each one's own stream is replayed up to the instant (`traineeAsOf`). No
 * other provider's stream is read, so the cost follows the provider's trainees and events only.
 */

/** A trainee as it stood at the instant, with the list's tie-break. */
export interface TraineeAtInstant {
  trainee: Trainee;
  /** Global position of the event that registered the trainee (the list orders ties newest-created first). */
  createdPosition: number;
}

/**
 * The provider's trainees as they stood at `instant`, one at a time in trainee-id order (binary),
 * each read and folded from its own stream: those that did not exist yet at the instant are left
 * out, as is any whose owner then was another provider. Memory: the provider's trainee ids and
 * {@link STREAMS_READ_AHEAD} streams read ahead ({@link readAhead}: a server store serves them at
 * once). The embedded store reads synchronously, so it gives the event loop a turn every
 * {@link TRAINEES_PER_TURN} trainees: other requests are answered while a large provider is replayed.
 *
 * `log` is either port: the event store gives the trainees with their personal data opened; the
 * log as stored (`StoredLog`) gives them sealed, each personal field holding `[sealed]` or, for a
 * trainee's map of disabilities, nonsense, every other field exact, and no data key read
 * (docs/DESIGN.md "Personal data": about two thirds of a sealed trainee's replay is opening it).
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

/** {@link providerTraineesAsOf} of the trainees `traineeIds` (the provider's, as its read model names them). */
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

/**
 * Streams read at once ahead of the replay: a server store (EventStoreDB: one gRPC call a stream)
 * serves them together instead of one round trip after another; the embedded store reads each at once.
 */
export const STREAMS_READ_AHEAD = 16;

/**
 * `read` of each of `items`, yielded in the order of `items`, with at most `ahead` reads started and
 * not yet yielded. A read's rejection is thrown when its turn to be yielded comes.
 */
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

/**
 * Whether the trainee is one the list query keeps: the provider, the academic cycle its course
 * starts in, `since` (updated_at ≥ since), `hasTrn` and the `statuses` (any of them) on `q.today`,
 * as the read models' list queries filter (docs/reference/API-FACTS.md §14).
 */
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
 * Which of `traineeIds` (the provider `q.ukprn`'s, as its read model names them) the list query `q`
 * keeps at `instant`, with their sort keys, unordered: each stream read from the log as stored and
 * folded sealed (no personal field is read by a filter or the order, so no data key is read). The
 * part of {@link listTraineesAsOf} whose cost is the provider's size; it can run on a thread of its
 * own (`AsOfScan`).
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

/** The injection token of the API's {@link AsOfScan}. */
export const AS_OF_SCAN = Symbol('AS_OF_SCAN');

/** The {@link AsOfScan} that folds the streams of `storedLog` in the calling thread ({@link matchesAsOf}). */
export function scanInThisThread(storedLog: StoredLog): AsOfScan {
  return (traineeIds, q, instant) => matchesAsOf(storedLog, traineeIds, q, instant);
}

/**
 * The page of the list query `q` as the list would have answered it at `instant` (q.today should be
 * the instant's UTC date): the provider's trainees folded to the instant ({@link providerTraineesAsOf}),
 * kept by {@link matchesListQuery}, ordered by updated_at in `q.sortOrder`, ties newest-created first,
 * paged as the read models page. The filters and the order read no personal field, so the
 * provider's streams are folded sealed (`scan`: {@link matchesAsOf} of the log as stored), and only
 * the page's trainees are folded again from `eventStore`, with their personal data opened. Keeps
 * only each match's id and sort keys.
 */
export async function listTraineesAsOf(
  eventStore: EventStore,
  trainees: TraineeReadModel,
  q: TraineeListQuery,
  instant: Date,
  scan: AsOfScan,
): Promise<TraineeAsOfPage> {
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
