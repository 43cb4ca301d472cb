import { DuplicateDegree, MissingData, NotFound, StateTransitionError, ValidationFailed } from './trainee.errors';
import { DeciderSpecification } from '@app/event-sourcing/testing/decider-specification';
import {
  OPEN_RULES,
  SECOND_DEGREE_FIELDS,
  addDegree,
  removeDegree,
  updateDegree,
  type ProviderTraineeCommand,
} from './testing/trainee-commands';
import {
  EXAMPLE_DEGREE,
  NOW,
  degreeAdded,
  degreeRemoved,
  degreeUpdated,
  exampleHistoryIn,
  exampleRegistration,
} from './testing/trainee-events';
import { decide } from './trainee.decide';
import type { TraineeEvent } from './trainee.events';
import { evolve } from './trainee.evolve';
import { initialTraineeState } from './trainee.state';
import { MISSING_REQUEST_DATA } from './rules/request-data';

const spec = DeciderSpecification.for({ decide, evolve, initialState: () => initialTraineeState });

/** Degree D9 as {@link SECOND_DEGREE_FIELDS} decides it: the example's degree, graduated 2010, added at NOW. */
const d9Added = degreeAdded({ at: NOW, degree: { degree_id: 'D9', graduation_year: 2010, created_at: NOW, updated_at: NOW } });

/** The example with a second degree D2, graduated 2010. */
const withSecondDegree = [...exampleRegistration(), degreeAdded({ degree: { degree_id: 'D2', graduation_year: 2010 } })];

describe('trainee decider: AddDegree', () => {
  it('adds a degree with its codes’ uuids from the reference data', () => {
    spec.given(exampleRegistration()).when(addDegree(SECOND_DEGREE_FIELDS)).then([d9Added]);
  });

  it('refuses a degree equal to one of the trainee’s on subject, year, country, degree types and grade, naming it', () => {
    spec
      .given(exampleRegistration())
      .when(addDegree({ ...SECOND_DEGREE_FIELDS, graduation_year: 2003 }))
      .thenThrows(DuplicateDegree, (e) => expect(e.existing).toEqual([EXAMPLE_DEGREE]));
  });

  it('adds a degree differing from the trainee’s in the grade only', () => {
    spec
      .given(exampleRegistration())
      .when(addDegree({ ...SECOND_DEGREE_FIELDS, graduation_year: 2003, grade: '03' }))
      .then([
        degreeAdded({
          at: NOW,
          degree: { degree_id: 'D9', grade: '03', grade_uuid: '377a46ea-d6c6-4e87-9728-c1f0dd0ef109', created_at: NOW, updated_at: NOW },
        }),
      ]);
  });

  it('refuses an incomplete degree with every failed rule, in the rules’ order', () => {
    spec
      .given(exampleRegistration())
      .when(addDegree({ subject: '100425' }))
      .thenThrows(ValidationFailed, (e) =>
        expect(e.messages).toEqual([
          'graduation_year must be entered if specifying a previous UK degree or non-UK degree',
          'uk_degree must be entered if specifying a previous UK degree',
          'grade must be entered if specifying a previous UK degree or non-UK degree',
        ]),
      );
  });

  it('refuses a graduation year after next year with both of its messages', () => {
    spec
      .given(exampleRegistration())
      .when(addDegree({ ...SECOND_DEGREE_FIELDS, graduation_year: 2030 }))
      .thenThrows(ValidationFailed, (e) =>
        expect(e.messages).toEqual(['graduation_year must be in the past, for example 2014', 'graduation_year is invalid']),
      );
  });

  it('refuses a missing data object', () => {
    spec
      .given(exampleRegistration())
      .when(addDegree({}, { data: MISSING_REQUEST_DATA }))
      .thenThrows(MissingData);
  });
});

describe('trainee decider: UpdateDegree', () => {
  it('changes the fields sent and keeps the others, its uuids following the codes', () => {
    spec
      .given(exampleRegistration())
      .when(updateDegree('d1', { grade: '03' }))
      .then([degreeUpdated({ at: NOW, degree: { updated_at: NOW } })]);
  });

  it('records nothing when the fields sent are the stored ones', () => {
    spec
      .given(exampleRegistration())
      .when(updateDegree('D1', { grade: '02', graduation_year: 2003 }))
      .thenNothingHappened();
  });

  it('refuses a change that makes the degree a duplicate of another of the trainee’s, naming that one', () => {
    spec
      .given(withSecondDegree)
      .when(updateDegree('D1', { graduation_year: 2010 }))
      .thenThrows(DuplicateDegree, (e) => expect(e.existing).toEqual([{ ...EXAMPLE_DEGREE, degree_id: 'D2', graduation_year: 2010 }]));
  });

  it('refuses an invalid change with its messages', () => {
    spec
      .given(exampleRegistration())
      .when(updateDegree('D1', { graduation_year: 1900 }))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual(['graduation_year is invalid']));
  });

  it('refuses a missing data object', () => {
    spec
      .given(exampleRegistration())
      .when(updateDegree('D1', {}, { data: MISSING_REQUEST_DATA }))
      .thenThrows(MissingData);
  });

  it('answers NotFound for an unknown or removed degree', () => {
    spec
      .given(exampleRegistration())
      .when(updateDegree('D2', { grade: '03' }))
      .thenThrows(NotFound, (e) => expect(e.message).toBe('Degree(s) not found'));
    spec
      .given([...exampleRegistration(), degreeRemoved()])
      .when(updateDegree('D1', { grade: '03' }))
      .thenThrows(NotFound, (e) => expect(e.resource).toBe('Degree'));
  });
});

describe('trainee decider: RemoveDegree', () => {
  it('removes a degree by id (case-insensitively), naming it by its stored id', () => {
    spec
      .given(exampleRegistration())
      .when(removeDegree('d1'))
      .then([degreeRemoved({ at: NOW })]);
  });

  it('removes only the degree named', () => {
    spec
      .given(withSecondDegree)
      .when(removeDegree('D2'))
      .then([degreeRemoved({ degree_id: 'D2', at: NOW })]);
  });

  it('answers NotFound for an unknown or already removed degree', () => {
    spec
      .given(exampleRegistration())
      .when(removeDegree('D2'))
      .thenThrows(NotFound, (e) => expect(e.message).toBe('Degree(s) not found'));
    spec
      .given([...exampleRegistration(), degreeRemoved()])
      .when(removeDegree('D1'))
      .thenThrows(NotFound, (e) => expect(e.resource).toBe('Degree'));
  });
});

describe('trainee decider: degree writes by state (docs/reference/API-FACTS.md §11.8)', () => {
  const writes: [string, ProviderTraineeCommand, TraineeEvent][] = [
    ['AddDegree', addDegree(SECOND_DEGREE_FIELDS), d9Added],
    ['UpdateDegree', updateDegree('D1', { grade: '03' }), degreeUpdated({ at: NOW, degree: { updated_at: NOW } })],
    ['RemoveDegree', removeDegree('D1'), degreeRemoved({ at: NOW })],
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
