/**
 * What the SQLite read model's specifications share (libs/stores/sqlite/read-models/*.spec.ts):
 * trainee histories written as literal events (the example trainee of
 * libs/trainees/decider/testing/trainee-events.ts under numbered ids), a fresh event store per
 * test, and the reads they compare (documents, answers, change feed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_VERSIONS } from '@app/trainees/record';
import { type TraineeEvent, traineeStreamId } from '@app/trainees/decider';
import { exampleRegistration, traineeUpdated } from '@app/trainees/decider/testing/trainee-events';
import { type EventStore, newEventId, toEventData } from '@app/event-sourcing';
import { PROJECTION_VERSIONS } from '@app/runtime/projector';
import { SqliteEventStore } from '../../event-log/sqlite-event-store';
import type { SqliteReadModel } from '../sqlite-read-model';

/** The served trainee store of this code's version. */
export const V = `v${PROJECTION_VERSIONS.trainees}`;

/** A projector logger that drops every message. */
export const silent = { error: () => undefined, warn: () => undefined };

/** Both ways a stream phase runs: batch by batch in this thread (a short log), and in a worker thread. */
export const STREAM_PHASES = [
  ['in this thread', {}],
  ['in a worker thread', { workerFromPosition: 0 }],
] as const;

/**
 * The registration of trainee `id` of provider 10000001 as the API records it (4 events): the
 * example trainee with first names `Name<n>` and email `p<n>@example.com`, its placement `P<n>`
 * and degree `D<n>`, at second `n % 60` of 2026-01-01.
 */
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

/**
 * Appends to `store` the histories of trainees T0…T(trainees-1): each its registration
 * ({@link registrationEvents}) in one append, then `updatesEach` appends of one update of
 * `middle_names` (`M0`, `M1`, …).
 */
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

/** The documents of trainees T0…T(n-1) in `rm` (null where there is none). */
export function allDocs(rm: SqliteReadModel, n: number): Promise<unknown[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => rm.getTrainee(`T${i}`)));
}

/** Every version's stored answer of trainees T0…T(n-1), as strings. */
export async function allAnswers(rm: SqliteReadModel, n: number): Promise<(string | undefined)[]> {
  const ids = Array.from({ length: n }, (_, i) => `T${i}`);
  const answers = await Promise.all(API_VERSIONS.flatMap((v) => ids.map((id) => rm.getTraineeAnswer(id, v))));
  return answers.map((a) => a?.body.toString());
}

/** The change feed of the provider of writeHistory's trainees, whole (docs/change-feed.md). */
export async function allChanges(rm: SqliteReadModel): Promise<unknown[]> {
  const feed = await rm.listChanges('10000001', 0, 1_000_000);
  if (feed === null) throw new Error('the store has no change feed');
  return feed;
}

/** A temporary directory and an SQLite event store in it (`events.sqlite`). */
export interface FreshEventStore {
  dir: string;
  store: SqliteEventStore;
}

/** Opens a {@link FreshEventStore} in a new temporary directory named after `prefix`. */
export function openFreshEventStore(prefix = 'read-model-'): FreshEventStore {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, store: new SqliteEventStore({ filename: join(dir, 'events.sqlite') }) };
}

/** Closes the store of a {@link FreshEventStore} and removes its directory. */
export async function closeFreshEventStore({ dir, store }: FreshEventStore): Promise<void> {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
