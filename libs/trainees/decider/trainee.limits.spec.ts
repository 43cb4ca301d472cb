import { ValidationFailed } from './trainee.errors';
import { DeciderSpecification } from '@app/event-sourcing/testing/decider-specification';
import { SECOND_DEGREE_FIELDS, addDegree, addPlacement, updateTrainee } from './testing/trainee-commands';
import {
  NOW,
  degreeAdded,
  degreeRemoved,
  exampleRegistration,
  placementAdded,
  placementRemoved,
  traineeUpdated,
} from './testing/trainee-events';
import { decide } from './trainee.decide';
import type { TraineeEvent } from './trainee.events';
import { evolve } from './trainee.evolve';
import {
  TOO_MANY_DEGREES,
  TOO_MANY_DISABILITIES,
  TOO_MANY_PLACEMENTS,
  TRAINEE_DEGREES_MAX,
  TRAINEE_DISABILITIES_MAX,
  TRAINEE_PLACEMENTS_MAX,
} from './trainee.limits';
import { initialTraineeState } from './trainee.state';

const spec = DeciderSpecification.for({ decide, evolve, initialState: () => initialTraineeState });

/** The example registration (one placement, one degree) and `n` more placements P0…, degrees D0… (distinct years). */
function withMore(placements: number, degrees: number): TraineeEvent[] {
  return [
    ...exampleRegistration(),
    ...Array.from({ length: placements }, (_, i) => placementAdded({ placement: { placement_id: `P${i}`, urn: String(200000 + i) } })),
    ...Array.from({ length: degrees }, (_, i) => degreeAdded({ degree: { degree_id: `D${i}`, graduation_year: 1970 + i } })),
  ];
}

const NEW_PLACEMENT = { urn: '123456', name: 'Elm School' };
const NEW_DEGREE = { ...SECOND_DEGREE_FIELDS, graduation_year: 2010 };

/** docs/DESIGN.md ruling 14: a trainee holds at most 20 placements and 10 degrees, however they were added. */
describe('trainee decider: the most placements and degrees of a trainee', () => {
  it(`adds the ${TRAINEE_PLACEMENTS_MAX}th placement and refuses one more with a 422 naming the maximum`, () => {
    spec
      .given(withMore(TRAINEE_PLACEMENTS_MAX - 2, 0))
      .when(addPlacement(NEW_PLACEMENT))
      .then([expect.objectContaining({ type: 'PlacementAdded' }) as TraineeEvent]);
    spec
      .given(withMore(TRAINEE_PLACEMENTS_MAX - 1, 0))
      .when(addPlacement(NEW_PLACEMENT))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual([TOO_MANY_PLACEMENTS]));
  });

  it('adds a placement again once one is removed', () => {
    spec
      .given([...withMore(TRAINEE_PLACEMENTS_MAX - 1, 0), placementRemoved({ placement_id: 'P0', at: NOW })])
      .when(addPlacement(NEW_PLACEMENT))
      .then([expect.objectContaining({ type: 'PlacementAdded' }) as TraineeEvent]);
  });

  it(`adds the ${TRAINEE_DEGREES_MAX}th degree and refuses one more with a 422 naming the maximum`, () => {
    spec
      .given(withMore(0, TRAINEE_DEGREES_MAX - 2))
      .when(addDegree(NEW_DEGREE))
      .then([expect.objectContaining({ type: 'DegreeAdded' }) as TraineeEvent]);
    spec
      .given(withMore(0, TRAINEE_DEGREES_MAX - 1))
      .when(addDegree(NEW_DEGREE))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual([TOO_MANY_DEGREES]));
    spec
      .given([...withMore(0, TRAINEE_DEGREES_MAX - 1), degreeRemoved({ degree_id: 'D0', at: NOW })])
      .when(addDegree(NEW_DEGREE))
      .then([expect.objectContaining({ type: 'DegreeAdded' }) as TraineeEvent]);
  });
});

/** `n` distinct disabilities, disability1 to disability<n>. */
function disabilities(n: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`disability${i + 1}`, `9${i}`]));
}

/** The example registration whose disabilities an update set to `n` of them. */
function withDisabilities(n: number): TraineeEvent[] {
  return [...exampleRegistration(), traineeUpdated({ changes: { disabilities: disabilities(n) }, at: NOW })];
}

/** docs/DESIGN.md ruling 14: the bound of a body's disabilityN keys holds for the merged record too. */
describe('trainee decider: the most disabilities of a trainee, over many updates', () => {
  it(`adds the ${TRAINEE_DISABILITIES_MAX}th disability by update and refuses one more with a 422 naming the maximum`, () => {
    spec
      .given(withDisabilities(TRAINEE_DISABILITIES_MAX - 1))
      .when(updateTrainee({ disabilities: { [`disability${TRAINEE_DISABILITIES_MAX}`]: 'X' } }))
      .then([expect.objectContaining({ type: 'TraineeUpdated' }) as TraineeEvent]);
    spec
      .given(withDisabilities(TRAINEE_DISABILITIES_MAX))
      .when(updateTrainee({ disabilities: { disability21: 'X' } }))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual([TOO_MANY_DISABILITIES]));
  });

  it('adds one in the same update that removes another (null)', () => {
    spec
      .given(withDisabilities(TRAINEE_DISABILITIES_MAX))
      .when(updateTrainee({ disabilities: { disability1: null, disability21: 'X' } }))
      .then([
        expect.objectContaining({
          type: 'TraineeUpdated',
          data: expect.objectContaining({
            changes: expect.objectContaining({ disabilities: expect.objectContaining({ disability21: 'X' }) }),
          }),
        }) as TraineeEvent,
      ]);
  });

  it('still updates a trainee stored with more than the maximum before the bound, and lets it lose disabilities but gain none', () => {
    const over = withDisabilities(TRAINEE_DISABILITIES_MAX + 5);
    spec
      .given(over)
      .when(updateTrainee({ first_names: 'Sam' }))
      .then([expect.objectContaining({ type: 'TraineeUpdated' }) as TraineeEvent]);
    spec
      .given(over)
      .when(updateTrainee({ disabilities: { disability3: null } }))
      .then([expect.objectContaining({ type: 'TraineeUpdated' }) as TraineeEvent]);
    spec
      .given(over)
      .when(updateTrainee({ disabilities: { disability40: 'X' } }))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual([TOO_MANY_DISABILITIES]));
  });
});
