/** What the read model's specs share: literal trainee histories, a fresh event store per test, and the reads they compare. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_VERSIONS } from '@app/trainees/record';
import { type TraineeEvent, traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration, traineeUpdated } from '@app/trainees/decider/testing/trainee-events';
import { type EventStore, newEventId, toEventData, LOG_START } from '@app/event-sourcing';
import { PROJECTION_VERSIONS } from '@app/runtime/projector';
import { SqliteEventStore } from '../../event-log/sqlite-event-store';
import type { SqliteReadModel } from '../sqlite-read-model';

/** The served trainee store of this code's version. */
export const V = `v${PROJECTION_VERSIONS.trainees}`;

export const silent = { error: () => undefined, warn: () => undefined };

/** Batch by batch in this thread (a short log), and in a worker thread. */
export const STREAM_PHASES = [
  ['in this thread', {}],
  ['in a worker thread', { workerFromPosition: 0 }],
] as const;

/** Trainee `id` of provider 10000001 registered as the API records it (4 events): names, placement and degree numbered `n`. */
export function registrationEvents(id: string, n: number): TraineeEvent[] {
  return exampleRegistration({
    trainee_id: id,
    ukprn: '10000001',
    at: `2026-01-01T00:00:${String(n % 60).padStart(2, '0')}.000Z`,
    details: { first_names: `Name${n}`, email: `p${n}@example.com` },
    placement_id: `P${n}`,
    degree_id: `D${n}`,
  });
}

/** Trainees T0…T(trainees-1): each registration in one append, then `updatesEach` appends of `middle_names` `M0`, `M1`, …. */
export async function writeHistory(store: EventStore, trainees: number, updatesEach: number): Promise<void> {
  for (let i = 0; i < trainees; i++) {
    const id = `T${i}`;
    const events = registrationEvents(id, i);
    await store.appendToStream(traineeStreamId(id), toEventData(events, { occurredAt: '2026-01-01T00:00:00.000Z' }, newEventId), {
      expectedRevision: 'no_stream',
    });
    for (let u = 0; u < updatesEach; u++) {
      const changes = [traineeUpdated({ trainee_id: id, changes: { middle_names: `M${u}` }, at: `2026-02-0${(u % 9) + 1}T00:00:00.000Z` })];
      await store.appendToStream(traineeStreamId(id), toEventData(changes, { occurredAt: '2026-02-01T00:00:00.000Z' }, newEventId));
    }
  }
}

/** Null where there is none. */
export function allDocs(rm: SqliteReadModel, n: number): Promise<unknown[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => rm.getTrainee(`T${i}`)));
}

/** As strings. */
export async function allAnswers(rm: SqliteReadModel, n: number): Promise<(string | undefined)[]> {
  const ids = Array.from({ length: n }, (_, i) => `T${i}`);
  const answers = await Promise.all(API_VERSIONS.flatMap((v) => ids.map((id) => rm.getTraineeAnswer(id, v))));
  return answers.map((a) => a?.body.toString());
}

/** Whole (docs/change-feed.md). */
export async function allChanges(rm: SqliteReadModel): Promise<unknown[]> {
  const feed = await rm.listChanges('10000001', LOG_START, 1_000_000);
  if (feed === null) throw new Error('the store has no change feed');
  return feed;
}

export interface FreshEventStore {
  dir: string;
  store: SqliteEventStore;
}

export function openFreshEventStore(prefix = 'read-model-'): FreshEventStore {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, store: new SqliteEventStore({ filename: join(dir, 'events.sqlite') }) };
}

/** And removes its directory. */
export async function closeFreshEventStore({ dir, store }: FreshEventStore): Promise<void> {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
