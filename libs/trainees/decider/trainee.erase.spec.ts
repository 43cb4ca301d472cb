import { DeciderSpecification } from '@app/event-sourcing/testing/decider-specification';
import { NOW, exampleHistoryIn, exampleRegistration, traineeUpdated } from './testing/trainee-events';
import { updateTrainee } from './testing/trainee-commands';
import { ERASE_REASON_MAX_LENGTH, ERASED_BY_MAX_LENGTH, type EraseTrainee } from './trainee.commands';
import { decide } from './trainee.decide';
import { NotFound } from './trainee.errors';
import type { TraineeErased, TraineeEvent } from './trainee.events';
import { evolve, evolveAll } from './trainee.evolve';
import { initialTraineeState } from './trainee.state';

const spec = DeciderSpecification.for({ decide, evolve, initialState: () => initialTraineeState });

/** The erasure command of trainee T1 (the example trainee's id). */
function eraseTrainee(overrides: Partial<EraseTrainee> = {}): EraseTrainee {
  return { type: 'EraseTrainee', trainee_id: 'T1', reason: 'Request DPO-1', erased_by: 'dpo', now: NOW, ...overrides };
}

const erased = (overrides: Partial<TraineeErased['data']> = {}): TraineeErased => ({
  type: 'TraineeErased',
  data: { trainee_id: 'T1', reason: 'Request DPO-1', erased_by: 'dpo', at: NOW, ...overrides },
});

describe('EraseTrainee (docs/DESIGN.md "Personal data")', () => {
  it('records why, by whom and when, and nothing about the trainee', () => {
    spec.given(exampleRegistration()).when(eraseTrainee()).then([erased()]);
  });

  it('trims the reason and the operator', () => {
    spec
      .given(exampleHistoryIn('trn_received'))
      .when(eraseTrainee({ reason: '  Retention: ended before 2019-08-01 ', erased_by: ' ops ' }))
      .then([erased({ reason: 'Retention: ended before 2019-08-01', erased_by: 'ops' })]);
  });

  it('is NotFound for an unknown trainee and for one erased already', () => {
    spec.given([]).when(eraseTrainee()).thenThrows(NotFound);
    spec
      .given([...exampleRegistration(), erased()])
      .when(eraseTrainee())
      .thenThrows(NotFound);
  });

  it('refuses a blank or over-long reason, and an unnamed operator', () => {
    for (const bad of [
      eraseTrainee({ reason: '  ' }),
      eraseTrainee({ reason: 'x'.repeat(ERASE_REASON_MAX_LENGTH + 1) }),
      eraseTrainee({ erased_by: '' }),
      eraseTrainee({ erased_by: 'o'.repeat(ERASED_BY_MAX_LENGTH + 1) }),
    ])
      spec.given(exampleRegistration()).when(bad).thenThrows(RangeError);
  });

  it('leaves the trainee gone for every later command, as one that never existed', () => {
    spec
      .given([...exampleRegistration(), erased()])
      .when(updateTrainee({ first_names: 'Jane' }))
      .thenThrows(NotFound);
  });

  it('folds to an erased state however the events arrive, and ignores events after it', () => {
    const history: TraineeEvent[] = [...exampleRegistration(), erased(), traineeUpdated({ changes: { middle_names: 'Late' } })];
    expect(evolveAll(history)).toEqual({ exists: false, erased: true });
    expect(history.reduce(evolve, initialTraineeState)).toEqual({ exists: false, erased: true });
    expect(evolveAll([erased()], evolveAll(exampleRegistration()))).toEqual({ exists: false, erased: true });
    expect(evolveAll([erased()])).toEqual({ exists: false });
  });
});
