import { ValidationFailed } from './trainee.errors';
import { DeciderSpecification } from '@app/event-sourcing/testing/decider-specification';
import { SECOND_DEGREE_FIELDS, addDegree, addPlacement } from './testing/trainee-commands';
import { NOW, degreeAdded, degreeRemoved, exampleRegistration, placementAdded, placementRemoved } from './testing/trainee-events';
import { decide } from './trainee.decide';
import type { TraineeEvent } from './trainee.events';
import { evolve } from './trainee.evolve';
import { TOO_MANY_DEGREES, TOO_MANY_PLACEMENTS, TRAINEE_DEGREES_MAX, TRAINEE_PLACEMENTS_MAX } from './trainee.limits';
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
