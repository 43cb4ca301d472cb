import { DuplicateTrainee, MissingData, NotFound, StateTransitionError, ValidationFailed } from './trainee.errors';
import { DeciderSpecification } from '@app/event-sourcing/testing/decider-specification';
import {
  OPEN_RULES,
  type ProviderTraineeCommand,
  addDegree,
  addPlacement,
  deferTrainee,
  recommendForAward,
  recordAward,
  recordTrnIssued,
  registerTrainee,
  removeDegree,
  removePlacement,
  updateDegree,
  updatePlacement,
  updateTrainee,
  withdrawTrainee,
} from './testing/trainee-commands';
import {
  NOW,
  OTHER_UKPRN,
  degreeAdded,
  exampleHistoryIn,
  exampleRegistration,
  placementAdded,
  traineeRegistered,
  traineeSubmittedForTrn,
  traineeUpdated,
  trnIssued,
} from './testing/trainee-events';
import { TRAINEE_FIELDS, testRules } from './testing/trainee-fixtures';
import { decide } from './trainee.decide';
import type { TraineeRegistered } from './trainee.events';
import { evolve, evolveAll } from './trainee.evolve';
import { initialTraineeState } from './trainee.state';
import { type Trainee } from '@app/trainees/record';
import { MISSING_REQUEST_DATA, requestData } from './rules/request-data';

const spec = DeciderSpecification.for({ decide, evolve, initialState: () => initialTraineeState });

/** The example trainee as a duplicate candidate: its registration folded. */
function exampleTrainee(): Trainee {
  const state = evolveAll(exampleRegistration());
  if (!state.exists) throw new Error('the example registration folds to no trainee');
  return state.trainee;
}

describe('trainee decider: RegisterTrainee', () => {
  it('registers the example with its placement and degree, then submits it for a TRN, in one decision', () => {
    spec.given([]).when(registerTrainee()).then(exampleRegistration());
  });

  it('records how the record came in: api by default, csv for a row of an uploaded file', () => {
    const [registered, ...rest] = exampleRegistration();
    const fromFile: TraineeRegistered = {
      type: 'TraineeRegistered',
      data: { ...(registered as TraineeRegistered).data, record_source: 'csv' },
    };
    spec
      .given([])
      .when(registerTrainee({ record_source: 'csv' }))
      .then([fromFile, ...rest]);
  });

  it('records every event at the command’s instant', () => {
    spec
      .given([])
      .when(registerTrainee({ now: NOW }))
      .then(exampleRegistration({ at: NOW }));
  });

  it('registers under the rules of a version that rewrites primary subjects', () => {
    spec
      .given([])
      .when(registerTrainee({ rules: testRules({ primaryCourseSubject: 'rewrite' }) }, { course_age_range: '13915' }))
      .then([
        traineeRegistered({
          details: {
            course_age_range: '13915',
            course_min_age: 7,
            course_max_age: 11,
            course_education_phase: 'primary',
            course_subject_1: '100511',
            course_subject_2: '100346',
            course_subject_3: '101410',
          },
        }),
        placementAdded(),
        degreeAdded(),
        traineeSubmittedForTrn(),
      ]);
  });

  it('refuses the same body under the rules of a version that requires a primary first subject', () => {
    spec
      .given([])
      .when(registerTrainee({}, { course_age_range: '13915' }))
      .thenThrows(ValidationFailed, (e) =>
        expect(e.messages).toEqual(['course_subject_1 is invalid. It should be `100511` for the course_age_range provided']),
      );
  });

  it('refuses invalid input with every failed rule', () => {
    spec
      .given([])
      .when(registerTrainee({}, { first_names: '', email: '' }))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual(["first_names can't be blank", "email can't be blank"]));
  });

  it('refuses a missing or empty data object', () => {
    spec
      .given([])
      .when(registerTrainee({ data: MISSING_REQUEST_DATA }))
      .thenThrows(MissingData);
  });

  it('reports the wire problems of the request with its own rules’ messages, in one order', () => {
    const problems = [{ path: ['first_names'], message: 'first_names is invalid' }];
    const data = requestData({ ...TRAINEE_FIELDS, first_names: undefined, last_name: '' }, problems);
    spec
      .given([])
      .when(registerTrainee({ data }))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual(['first_names is invalid', "last_name can't be blank"]));
  });

  it('refuses a duplicate of an existing trainee of the same provider, naming it (first names ignoring case)', () => {
    const existing = exampleTrainee();
    spec
      .given([])
      .when(registerTrainee({ trainee_id: 'T2', duplicate_candidates: [existing] }, { first_names: 'JOHN', email: 'other@example.com' }))
      .thenThrows(DuplicateTrainee, (e) => expect(e.existing).toEqual([existing]));
  });

  it('refuses a duplicate whose email matches though the first names differ', () => {
    const existing = exampleTrainee();
    spec
      .given([])
      .when(
        registerTrainee({ trainee_id: 'T2', duplicate_candidates: [existing] }, { first_names: 'Jack', email: ' John.Doe@Example.com ' }),
      )
      .thenThrows(DuplicateTrainee, (e) => expect(e.existing).toEqual([existing]));
  });

  it('ignores candidates of another provider', () => {
    spec
      .given([])
      .when(registerTrainee({ trainee_id: 'T2', ukprn: OTHER_UKPRN, duplicate_candidates: [exampleTrainee()] }))
      .then(exampleRegistration({ trainee_id: 'T2', ukprn: OTHER_UKPRN }));
  });

  it('ignores candidates starting in another academic year', () => {
    const otherYear = { itt_start_date: '2024-09-01', trainee_start_date: '2024-09-01', itt_end_date: '2026-07-31' };
    spec
      .given([])
      .when(registerTrainee({ trainee_id: 'T3', duplicate_candidates: [exampleTrainee()] }, otherYear))
      .then(exampleRegistration({ trainee_id: 'T3', details: otherYear }));
  });

  it('is a programming error to register an id already taken, or to hand over too few new ids', () => {
    spec
      .given(exampleRegistration())
      .when(registerTrainee())
      .thenThrows(Error, (e) => expect(e.message).toBe('trainee T1 already exists'));
    spec
      .given([])
      .when(registerTrainee({ new_ids: ['P1'] }))
      .thenThrows(Error, (e) => expect(e.message).toBe('RegisterTrainee.new_ids ran out'));
  });
});

describe('trainee decider: UpdateTrainee', () => {
  it('records only the fields that changed', () => {
    spec
      .given(exampleRegistration())
      .when(updateTrainee({ first_names: 'Jonathan', last_name: 'Doe' }))
      .then([traineeUpdated({ changes: { first_names: 'Jonathan' }, at: NOW })]);
  });

  it('records the fields derived from a changed one', () => {
    spec
      .given(exampleRegistration())
      .when(updateTrainee({ training_route: '03' }))
      .then([traineeUpdated({ changes: { training_route: '03', course_level: 'postgrad' }, at: NOW })]);
  });

  it('records nothing when nothing changes', () => {
    spec
      .given(exampleRegistration())
      .when(updateTrainee({ first_names: 'John' }))
      .thenNothingHappened();
  });

  it('is missing data when there is no data, and changes nothing when no field is sent (docs/reference/API-FACTS.md §7.3)', () => {
    spec
      .given(exampleRegistration())
      .when(updateTrainee({}, { data: MISSING_REQUEST_DATA }))
      .thenThrows(MissingData);
    spec.given(exampleRegistration()).when(updateTrainee({})).thenNothingHappened();
  });

  it('refuses an invalid merge, with the wire problems of the request', () => {
    const tooLong = 'first_names is too long (maximum is 60 characters)';
    spec
      .given(exampleRegistration())
      .when(updateTrainee({}, { data: requestData({}, [{ path: ['first_names'], message: tooLong }]) }))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual([tooLong]));
    spec
      .given(exampleRegistration())
      .when(updateTrainee({ itt_end_date: '2025-07-01' }))
      .thenThrows(ValidationFailed, (e) => expect(e.messages).toEqual(['itt_end_date must be after itt_start_date']));
  });

  it('requires a degree when an update moves the trainee to a route that needs one and it has none', () => {
    spec
      .given([traineeRegistered(), placementAdded(), traineeSubmittedForTrn()])
      .when(updateTrainee({ training_route: '03' }))
      .thenThrows(ValidationFailed, (e) =>
        expect(e.messages).toEqual(['degrees_attributes must be entered if specifying a postgraduate training_route']),
      );
  });

  it.each(['trn_received', 'deferred'] as const)('updates a trainee %s', (state) => {
    spec
      .given(exampleHistoryIn(state))
      .when(updateTrainee({ first_names: 'Jonathan' }))
      .then([traineeUpdated({ at: NOW })]);
  });

  it.each(['recommended_for_award', 'withdrawn', 'awarded'] as const)(
    'refuses an update of a trainee %s where the rules say so, and updates it where they do not (docs/reference/API-FACTS.md §7.2)',
    (state) => {
      spec
        .given(exampleHistoryIn(state))
        .when(updateTrainee({ first_names: 'Jane' }))
        .thenThrows(StateTransitionError);
      spec
        .given(exampleHistoryIn(state))
        .when(updateTrainee({ first_names: 'Jane' }, { rules: OPEN_RULES }))
        .then([traineeUpdated({ changes: { first_names: 'Jane' }, at: NOW })]);
    },
  );
});

describe('trainee decider: a trainee the caller cannot see', () => {
  const providerCommands: [ProviderTraineeCommand['type'], ProviderTraineeCommand][] = [
    ['UpdateTrainee', updateTrainee({ first_names: 'Jane' })],
    ['AddPlacement', addPlacement({ urn: '100001' })],
    ['UpdatePlacement', updatePlacement('P1', { name: 'Renamed' })],
    ['RemovePlacement', removePlacement('P1')],
    ['AddDegree', addDegree({ grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: 2010 })],
    ['UpdateDegree', updateDegree('D1', { grade: '03' })],
    ['RemoveDegree', removeDegree('D1')],
    ['DeferTrainee', deferTrainee()],
    ['WithdrawTrainee', withdrawTrainee()],
    ['RecommendForAward', recommendForAward()],
  ];

  it.each(providerCommands)('%s of another provider’s trainee is NotFound, never a refusal that reveals it', (_, command) => {
    spec
      .given([...exampleRegistration(), trnIssued()])
      .when({ ...command, ukprn: OTHER_UKPRN })
      .thenThrows(NotFound, (e) => expect(e.message).toBe('Trainee(s) not found'));
  });

  it.each(providerCommands)('%s of an unknown trainee is NotFound', (_, command) => {
    spec
      .given([])
      .when(command)
      .thenThrows(NotFound, (e) => expect(e.resource).toBe('Trainee'));
  });

  it.each([
    ['RecordTrnIssued', recordTrnIssued()],
    ['RecordAward', recordAward()],
  ])('the registry’s %s of an unknown trainee is NotFound', (_, command) => {
    spec
      .given([])
      .when(command)
      .thenThrows(NotFound, (e) => expect(e.resource).toBe('Trainee'));
  });
});
