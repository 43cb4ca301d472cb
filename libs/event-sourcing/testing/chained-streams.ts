import { chainEvent, chainHash } from '../hash-chain';
import type { StoredEventText } from '../event-store.port';

export const STREAM = 'trainee-7c1f0b6e-1d2a-4c39-9a57-3f1b2e4d5c6a';

export function eventIdOf(revision: number): string {
  return `00000000-0000-4000-8000-${String(revision).padStart(12, '0')}`;
}

/** `n` events chained as the event store stores them, after `legacy` events stored before the chain began. */
export function storedStream(n: number, legacy = 0, streamId = STREAM): StoredEventText[] {
  const events: StoredEventText[] = [];
  let previous: string | null = null;
  for (let revision = 0; revision < legacy + n; revision++) {
    const data = JSON.stringify({ n: revision, first_names: 'sealed' });
    const metadata = JSON.stringify({ schemaVersion: 1, occurredAt: `2026-01-0${1 + (revision % 9)}T10:00:00.000Z` });
    const id = eventIdOf(revision);
    if (revision < legacy) {
      events.push({ streamId, revision, id, type: 'TraineeUpdated', data, metadata });
      previous = chainHash(previous, streamId, revision, 'TraineeUpdated', data, metadata);
      continue;
    }
    const chained = chainEvent(previous, { streamId, revision, id, type: 'TraineeUpdated', data, metadata });
    events.push({ streamId, revision, id, type: 'TraineeUpdated', data, metadata: chained.metadata });
    previous = chained.hash;
  }
  return events;
}
