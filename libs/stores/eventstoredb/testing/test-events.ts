/** Client-shaped and port events for the adapter's unit tests. */
import { randomUUID } from 'node:crypto';
import type { AllStreamJSONRecordedEvent, AllStreamResolvedEvent } from '@eventstore/db-client';
import type { EventData } from '@app/event-sourcing';

/** A JSON event as the client returns it from `$all`, at commit = prepare = `position`. */
export function clientEvent(
  position: number | bigint,
  fields: Partial<Omit<AllStreamJSONRecordedEvent, 'position'>> & { prepare?: bigint } = {},
): AllStreamJSONRecordedEvent {
  const { prepare, ...rest } = fields;
  const commit = BigInt(position);
  return {
    streamId: 'trainee-1',
    id: randomUUID(),
    isJson: true,
    revision: 0n,
    type: 'TraineeCreated',
    created: new Date('2026-01-05T10:00:00.000Z'),
    data: { n: Number(commit) },
    metadata: { schemaVersion: 1, occurredAt: '2026-01-05T10:00:00.000Z' },
    ...rest,
    position: { commit, prepare: prepare ?? commit },
  } as AllStreamJSONRecordedEvent;
}

/** A resolved `$all` item holding {@link clientEvent}. */
export function resolved(position: number | bigint, fields: Parameters<typeof clientEvent>[1] = {}): AllStreamResolvedEvent {
  return { event: clientEvent(position, fields), commitPosition: BigInt(position) };
}

/** A port event with a random UUID and minimal metadata. */
export function portEvent(type = 'TraineeCreated', data: unknown = { first_names: 'Zoë' }): EventData {
  return { id: randomUUID(), type, data, metadata: { schemaVersion: 1, occurredAt: '2026-01-05T10:00:00.000Z' } };
}
