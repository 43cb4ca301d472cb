import type { Placement, TraineeDetails } from './trainee.details';
import type { TraineeEvent } from './trainee.events';
import { evolve, evolveAll } from './trainee.evolve';
import type { TraineeState } from './trainee.state';

const T = 'trainee-a';
const details = { first_names: 'Ada', last_name: 'Lovelace', itt_start_date: '2026-09-01' } as unknown as TraineeDetails;

function placement(id: string, name: string, at: string): Placement {
  return { placement_id: id, urn: null, name, postcode: null, address: null, school_id: null, created_at: at, updated_at: at };
}

const registered: TraineeEvent = {
  type: 'TraineeRegistered',
  data: { trainee_id: T, ukprn: '10000001', record_source: 'api', details, at: '2026-01-05T10:00:00.000Z' },
};

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

describe('evolveAll', () => {
  it('folds a stream: placements added, updated and removed in order, updated_at the latest instant', () => {
    const events: TraineeEvent[] = [
      registered,
      { type: 'PlacementAdded', data: { trainee_id: T, placement: placement('p1', 'Oak', '2026-01-06T00:00:00.000Z'), at: '2026-01-06T00:00:00.000Z' } },
      { type: 'PlacementAdded', data: { trainee_id: T, placement: placement('p2', 'Ash', '2026-01-07T00:00:00.000Z'), at: '2026-01-07T00:00:00.000Z' } },
      { type: 'PlacementAdded', data: { trainee_id: T, placement: placement('p3', 'Elm', '2026-01-08T00:00:00.000Z'), at: '2026-01-08T00:00:00.000Z' } },
      { type: 'PlacementUpdated', data: { trainee_id: T, placement: placement('p2', 'Ash Academy', '2026-01-07T00:00:00.000Z'), at: '2026-01-09T00:00:00.000Z' } },
      { type: 'PlacementRemoved', data: { trainee_id: T, placement_id: 'p1', at: '2026-01-10T00:00:00.000Z' } },
      // An event carrying an earlier instant (a registry event stamped before a provider's) leaves updated_at alone.
      { type: 'TrnIssued', data: { trainee_id: T, trn: '1234567', at: '2026-01-09T12:00:00.000Z' } },
    ] as TraineeEvent[];
    const state = evolveAll(events);
    expect(state.exists).toBe(true);
    if (!state.exists) return;
    expect(state.trainee.placements.map((p) => [p.placement_id, p.name])).toEqual([
      ['p2', 'Ash Academy'],
      ['p3', 'Elm'],
    ]);
    expect(state.trainee.trn).toBe('1234567');
    expect(state.trainee.state).toBe('draft');
    expect(state.trainee.updated_at).toBe('2026-01-10T00:00:00.000Z');
    expect(state.trainee.created_at).toBe('2026-01-05T10:00:00.000Z');
  });

  it('never changes the state it starts from, nor the events (both frozen here)', () => {
    const from = deepFreeze(evolveAll([registered]));
    const before = JSON.stringify(from);
    const events = deepFreeze([
      { type: 'PlacementAdded', data: { trainee_id: T, placement: placement('p1', 'Oak', '2026-01-06T00:00:00.000Z'), at: '2026-01-06T00:00:00.000Z' } },
      { type: 'TraineeUpdated', data: { trainee_id: T, changes: { first_names: 'Augusta' }, at: '2026-01-07T00:00:00.000Z' } },
      { type: 'PlacementRemoved', data: { trainee_id: T, placement_id: 'p1', at: '2026-01-08T00:00:00.000Z' } },
    ] as TraineeEvent[]);
    const after = evolveAll(events, from);
    expect(JSON.stringify(from)).toBe(before);
    expect(after.exists && after.trainee.details.first_names).toBe('Augusta');
    expect(after.exists && after.trainee.placements).toEqual([]);
  });

  it('folding the tail after a snapshot equals folding the whole stream', () => {
    const events = [
      registered,
      { type: 'TraineeSubmittedForTrn', data: { trainee_id: T, at: '2026-01-05T10:00:00.000Z' } },
      { type: 'TraineeUpdated', data: { trainee_id: T, changes: { last_name: 'Byron' }, at: '2026-01-06T00:00:00.000Z' } },
      { type: 'TraineeDeferred', data: { trainee_id: T, defer_date: '2026-02-01', defer_reason: null, at: '2026-01-07T00:00:00.000Z' } },
    ] as TraineeEvent[];
    const snapshot = JSON.parse(JSON.stringify(evolveAll(events.slice(0, 2)))) as TraineeState;
    expect(evolveAll(events.slice(2), snapshot)).toEqual(evolveAll(events));
    expect(events.reduce(evolve, { exists: false } as TraineeState)).toEqual(evolveAll(events));
  });

  it('ignores events before TraineeRegistered and unknown types, without touching updated_at', () => {
    const early = { type: 'PlacementRemoved', data: { trainee_id: T, placement_id: 'p1', at: '2026-01-01T00:00:00.000Z' } } as TraineeEvent;
    expect(evolveAll([early])).toEqual({ exists: false });
    const unknown = { type: 'SomethingNew', data: { trainee_id: T, at: '2027-01-01T00:00:00.000Z' } } as unknown as TraineeEvent;
    const state = evolveAll([registered, unknown]);
    expect(state.exists && state.trainee.updated_at).toBe('2026-01-05T10:00:00.000Z');
  });
});
