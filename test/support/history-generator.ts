import { newEventId, toEventData, type EventStore } from '@app/event-sourcing';
import { type TraineeEvent, traineeStreamId } from '@app/trainees/decider';
import { degreeAdded, exampleRegistration, placementAdded, traineeUpdated } from '@app/trainees/decider/testing/trainee-events';

/**
 * Writes generated trainee histories straight to an event store as literal events (the events the
 * API records for these changes): `trainees` trainees spread over `providers` providers, each the
 * example trainee of libs/trainees/decider/testing/trainee-events.ts registered with a placement
 * and a degree, then given `changesEach` changes (field updates, a placement, a degree). Returns
 * the trainee ids.
 */
export async function writeHistories(
  store: EventStore,
  options: { trainees: number; changesEach: number; providers?: number; prefix?: string; onePerTrainee?: boolean },
): Promise<string[]> {
  const ids: string[] = [];
  const providers = options.providers ?? 5;
  const base = new Date('2026-01-01T00:00:00.000Z').getTime();
  for (let i = 0; i < options.trainees; i++) {
    const id = `${options.prefix ?? 'G'}${String(i).padStart(6, '0')}`;
    const ukprn = String(10000100 + (i % providers));
    const at = (k: number) => new Date(base + i * 1000 + k).toISOString();
    const pending: ReturnType<typeof toEventData> = [];
    const append = async (events: TraineeEvent[], expected: 'no_stream' | number) => {
      const data = toEventData(events, { occurredAt: events[0].data.at, providerUkprn: ukprn, apiVersion: 'v2025.0' }, newEventId);
      // With onePerTrainee, a trainee's whole history goes in one append (fast generation of big stores).
      if (options.onePerTrainee) pending.push(...data);
      else await store.appendToStream(traineeStreamId(id), data, { expectedRevision: expected });
      return events.length;
    };
    const registration = exampleRegistration({
      trainee_id: id,
      ukprn,
      at: at(0),
      details: { first_names: `Gen${i}`, email: `gen${i}@example.com` },
      placement_id: `${id}P`,
      degree_id: `${id}D`,
    });
    let revision = (await append(registration, 'no_stream')) - 1;
    for (let c = 1; c <= options.changesEach; c++) {
      revision += await append([change(id, c, at(c))], revision);
    }
    if (options.onePerTrainee) await store.appendToStream(traineeStreamId(id), pending, { expectedRevision: 'no_stream' });
    ids.push(id);
  }
  return ids;
}

/**
 * Change `c` (from 1) of trainee `id` at instant `at`, in a cycle of five: every third a placement
 * `<id>P<c>` named `School <c>` without a URN, every fourth a degree `<id>D<c>` (a UK 2:1 in
 * subject 100425, no institution, graduated in 1980 + c), else an update of `middle_names` to
 * `M<c>` and, for odd `c`, of `ni_number` to `AB<c, six digits>C`.
 */
function change(id: string, c: number, at: string): TraineeEvent {
  if (c % 5 === 3) {
    return placementAdded({
      trainee_id: id,
      at,
      placement: { placement_id: `${id}P${c}`, urn: null, name: `School ${c}`, created_at: at, updated_at: at },
    });
  }
  if (c % 5 === 4) {
    return degreeAdded({
      trainee_id: id,
      at,
      degree: {
        degree_id: `${id}D${c}`,
        institution: null,
        graduation_year: 1980 + c,
        institution_uuid: '02132969-f5bc-47ca-be9c-b6f6d5b05e1b',
        created_at: at,
        updated_at: at,
      },
    });
  }
  const changes = c % 2 ? { middle_names: `M${c}`, ni_number: `AB${String(c).padStart(6, '0').slice(-6)}C` } : { middle_names: `M${c}` };
  return traineeUpdated({ trainee_id: id, changes, at });
}
