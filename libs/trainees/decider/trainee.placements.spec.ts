import { MissingData, NotFound, StateTransitionError, ValidationFailed } from './trainee.errors';
import { DeciderSpecification } from '@app/event-sourcing/testing/decider-specification';
import { OPEN_RULES, type ProviderTraineeCommand, addPlacement, removePlacement, updatePlacement } from './testing/trainee-commands';
import { NOW, exampleHistoryIn, exampleRegistration, placementAdded, placementRemoved, placementUpdated } from './testing/trainee-events';
import { decide } from './trainee.decide';
import type { Placement } from '@app/trainees/record';
import type { TraineeEvent } from './trainee.events';
import { evolve } from './trainee.evolve';
import { initialTraineeState } from './trainee.state';
import { MISSING_REQUEST_DATA } from './rules/request-data';

const spec = DeciderSpecification.for({ decide, evolve, initialState: () => initialTraineeState });

/** The address derived from the directory's Oak Primary School (URN, town, postcode). */
const OAK_ADDRESS = 'URN 100001, Guildford, GU1 6FR';

/** A placement P9 added at NOW; `placement` replaces the example placement's fields. */
function p9Added(placement: Partial<Placement>): TraineeEvent {
  return placementAdded({ at: NOW, placement: { placement_id: 'P9', ...placement, created_at: NOW, updated_at: NOW } });
}

describe('trainee decider: AddPlacement', () => {
  it('adds a placement linked to a school of the directory: its name, postcode, address and id are the school’s', () => {
    spec
      .given(exampleRegistration())
      .when(addPlacement({ urn: '100001' }))
      .then([p9Added({ urn: '100001', name: 'Oak Primary School', postcode: 'GU1 6FR', address: OAK_ADDRESS, school_id: 100001 })]);
  });

  it('adds a placement the directory does not know with the name and postcode sent, its address built from them', () => {
    spec
      .given(exampleRegistration())
      .when(addPlacement({ urn: '123456', name: 'Elm School' }))
      .then([p9Added({ urn: '123456', name: 'Elm School', postcode: null, address: 'URN 123456', school_id: null })]);
    spec
      .given(exampleRegistration())
      .when(addPlacement({ name: 'Elm School', postcode: 'GU1 1AA' }))
      .then([p9Added({ urn: null, name: 'Elm School', postcode: 'GU1 1AA', address: 'GU1 1AA', school_id: null })]);
  });

  it('requires a name when no school of the directory is named', () => {
    spec
      .given(exampleRegistration())
      .when(addPlacement({ postcode: 'GU1 1AA' }))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual(["name can't be blank"]));
  });

  it('refuses a missing data object', () => {
    spec
      .given(exampleRegistration())
      .when(addPlacement({}, { data: MISSING_REQUEST_DATA }))
      .thenThrows(MissingData);
  });
});

describe('trainee decider: UpdatePlacement', () => {
  it('replaces the fields sent, finding the placement by id case-insensitively', () => {
    spec
      .given(exampleRegistration())
      .when(updatePlacement('p1', { name: 'Renamed' }))
      .then([placementUpdated({ at: NOW, placement: { name: 'Renamed', updated_at: NOW } })]);
  });

  it('links the placement to the school its new URN names', () => {
    spec
      .given(exampleRegistration())
      .when(updatePlacement('P1', { urn: '100001' }))
      .then([
        placementUpdated({
          at: NOW,
          placement: {
            urn: '100001',
            name: 'Oak Primary School',
            postcode: 'GU1 6FR',
            address: OAK_ADDRESS,
            school_id: 100001,
            updated_at: NOW,
          },
        }),
      ]);
  });

  it('records nothing when the fields sent are the stored ones', () => {
    spec
      .given(exampleRegistration())
      .when(updatePlacement('P1', { name: 'Establishment does not have a URN' }))
      .thenNothingHappened();
  });

  it('refuses a missing data object', () => {
    spec
      .given(exampleRegistration())
      .when(updatePlacement('P1', {}, { data: MISSING_REQUEST_DATA }))
      .thenThrows(MissingData);
  });

  it('answers NotFound for an unknown or removed placement', () => {
    spec
      .given(exampleRegistration())
      .when(updatePlacement('nope', { name: 'Renamed' }))
      .thenThrows(NotFound, (e) => expect(e.message).toBe('Placement(s) not found'));
    spec
      .given([...exampleRegistration(), placementRemoved()])
      .when(updatePlacement('P1', { name: 'Renamed' }))
      .thenThrows(NotFound, (e) => expect(e.resource).toBe('Placement'));
  });
});

describe('trainee decider: RemovePlacement', () => {
  it('removes a placement by id (case-insensitively), naming it by its stored id', () => {
    spec
      .given(exampleRegistration())
      .when(removePlacement('p1'))
      .then([placementRemoved({ at: NOW })]);
  });

  it('answers NotFound for an unknown or already removed placement', () => {
    spec
      .given(exampleRegistration())
      .when(removePlacement('nope'))
      .thenThrows(NotFound, (e) => expect(e.message).toBe('Placement(s) not found'));
    spec
      .given([...exampleRegistration(), placementRemoved()])
      .when(removePlacement('P1'))
      .thenThrows(NotFound, (e) => expect(e.resource).toBe('Placement'));
  });
});

describe('trainee decider: placement writes by state (docs/reference/API-FACTS.md §10.6)', () => {
  const elm = p9Added({ urn: null, name: 'Elm School', postcode: null, address: null, school_id: null });
  const writes: [string, ProviderTraineeCommand, TraineeEvent][] = [
    ['AddPlacement', addPlacement({ name: 'Elm School' }), elm],
    ['UpdatePlacement', updatePlacement('P1', { name: 'Renamed' }), placementUpdated({ at: NOW, placement: { updated_at: NOW } })],
    ['RemovePlacement', removePlacement('P1'), placementRemoved({ at: NOW })],
  ];

  describe.each(['submitted_for_trn', 'trn_received', 'deferred'] as const)('of a trainee %s', (state) => {
    it.each(writes)('%s is allowed', (_, command, event) => {
      spec.given(exampleHistoryIn(state)).when(command).then([event]);
    });
  });

  describe.each(['recommended_for_award', 'withdrawn', 'awarded'] as const)('of a trainee %s', (state) => {
    it.each(writes)('%s is refused where the rules say so, before its body is read', (_, command) => {
      spec.given(exampleHistoryIn(state)).when(command).thenThrows(StateTransitionError);
      if ('data' in command) {
        spec
          .given(exampleHistoryIn(state))
          .when({ ...command, data: MISSING_REQUEST_DATA })
          .thenThrows(StateTransitionError);
      }
    });

    it.each(writes)('%s is allowed where the rules refuse no write', (_, command, event) => {
      spec
        .given(exampleHistoryIn(state))
        .when({ ...command, rules: OPEN_RULES })
        .then([event]);
    });
  });
});
