import { newEventId } from '@app/event-sourcing';
import v2025Example from '../fixtures/post-trainee-v2025.0.json';
import { commandFromWire, type WireCommand } from '@app/trainees/contract';
import { decide, evolveAll, type TraineeEvent, type TraineeState, traineeStreamId } from '@app/trainees/decider';
import { toEventData } from '@app/event-sourcing';
import type { EventStore } from '@app/event-sourcing';

/**
 * Writes generated trainee histories straight to an event store (as the API would, through the
 * domain's decider): `trainees` trainees spread over `providers` providers, each registered with a
 * placement and a degree, then given `changesEach` changes (field updates, a placement, a degree).
 * Returns the trainee ids.
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
    const input = { ...JSON.parse(JSON.stringify(v2025Example.data)), first_names: `Gen${i}`, email: `gen${i}@example.com` };
    let state: TraineeState = { exists: false };
    const pending: ReturnType<typeof toEventData> = [];
    const run = async (command: WireCommand, expected: 'no_stream' | number) => {
      const events: TraineeEvent[] = decide(commandFromWire(command), state);
      const data = toEventData(events, { occurredAt: command.now, providerUkprn: ukprn, apiVersion: 'v2025.0' }, newEventId);
      // With onePerTrainee, a trainee's whole history goes in one append (fast generation of big stores).
      if (options.onePerTrainee) pending.push(...data);
      else await store.appendToStream(traineeStreamId(id), data, { expectedRevision: expected });
      state = evolveAll(events, state);
      return events.length;
    };
    let revision =
      (await run(
        {
          type: 'RegisterTrainee',
          trainee_id: id,
          ukprn,
          version: 'v2025.0',
          input,
          now: at(0),
          new_ids: [`${id}P`, `${id}D`],
          duplicate_candidates: [],
        },
        'no_stream',
      )) - 1;
    for (let c = 1; c <= options.changesEach; c++) {
      const common = { trainee_id: id, ukprn, version: 'v2025.0' as const, now: at(c) };
      const command: WireCommand =
        c % 5 === 3
          ? { type: 'AddPlacement', ...common, placement_id: `${id}P${c}`, input: { name: `School ${c}` }, schools: new Map() }
          : c % 5 === 4
            ? {
                type: 'AddDegree',
                ...common,
                degree_id: `${id}D${c}`,
                input: { grade: '02', subject: '100425', uk_degree: '083', graduation_year: String(1980 + c) },
              }
            : {
                type: 'UpdateTrainee',
                ...common,
                input: { middle_names: `M${c}`, ni_number: c % 2 ? `AB${String(c).padStart(6, '0').slice(-6)}C` : null },
              };
      revision += await run(command, revision);
    }
    if (options.onePerTrainee) await store.appendToStream(traineeStreamId(id), pending, { expectedRevision: 'no_stream' });
    ids.push(id);
  }
  return ids;
}
