import { upcast } from '@app/event-sourcing';
import { TRAINEE_EVENT_SCHEMA_VERSIONS } from './trainee.events';
import './trainee.upcasters';

describe('trainee event upcasters', () => {
  const v1 = {
    trainee_id: 'T1',
    placement: {
      placement_id: 'P1',
      urn: '123456',
      name: 'Oak School',
      postcode: 'GU1 1AA',
      address: 'URN 123456, GU1 1AA',
      created_at: '2025-09-01T00:00:00.000Z',
      updated_at: '2025-09-01T00:00:00.000Z',
    },
    at: '2025-09-01T00:00:00.000Z',
  };

  it('reads a PlacementAdded of schema v1 (before the schools directory) as the current v2', () => {
    expect(TRAINEE_EVENT_SCHEMA_VERSIONS.PlacementAdded).toBe(2);
    expect(upcast('PlacementAdded', 1, 2, v1)).toEqual({ ...v1, placement: { ...v1.placement, school_id: null, address: null } });
  });

  it('never changes the stored event it reads', () => {
    const stored = JSON.parse(JSON.stringify(v1));
    upcast('PlacementAdded', 1, 2, stored);
    expect(stored).toEqual(v1);
  });

  it('leaves current events alone and refuses versions newer than the code', () => {
    const v2 = { ...v1, placement: { ...v1.placement, school_id: 123456 } };
    expect(upcast('PlacementAdded', 2, 2, v2)).toBe(v2);
    expect(() => upcast('PlacementAdded', 3, 2, v2)).toThrow('newer than this code');
    expect(() => upcast('TraineeUpdated', 0, 1, {})).toThrow('No upcaster');
  });
});
