import { DuplicateDegree, DuplicateTrainee, MissingData, NotFound, StateTransitionError, ValidationFailed } from '../errors';
import { given } from '../testing/decider-spec';
import { TRAINEE_FIELDS, testRules } from '../testing/trainee-fixtures';
import type { RegisterTrainee, UpdateTrainee } from './trainee.commands';
import type { TraineeEvent, TraineeRegistered } from './trainee.events';
import { decide } from './trainee.decide';
import { evolveAll } from './trainee.evolve';
import { MISSING_REQUEST_DATA, requestData, type InputProblem, type TraineeFields } from './validation';

const NOW = '2026-11-22T10:00:00.000Z';
const LATER = '2026-11-23T09:30:00.000Z';

const RULES = testRules();
/** The rules of a version that refuses no write whatever the state (docs/reference/API-FACTS.md §7.2). */
const OPEN_RULES = testRules({ writesRefusedIn: [] });

function register(overrides: Partial<RegisterTrainee> = {}, fields: TraineeFields = {}): RegisterTrainee {
  return {
    type: 'RegisterTrainee',
    trainee_id: 'T1',
    ukprn: '10000001',
    rules: RULES,
    data: requestData({ ...TRAINEE_FIELDS, ...fields }),
    now: NOW,
    new_ids: ['P1', 'D1', 'X1'],
    duplicate_candidates: [],
    ...overrides,
  };
}

function update(fields: TraineeFields, overrides: Partial<UpdateTrainee> = {}, problems: InputProblem[] = []): UpdateTrainee {
  return { type: 'UpdateTrainee', trainee_id: 'T1', ukprn: '10000001', rules: RULES, data: requestData(fields, problems), now: LATER, ...overrides };
}

/** The events of registering the v2025.0 example, as the decider produces them. */
function registered(): TraineeEvent[] {
  let events: TraineeEvent[] = [];
  given([]).when(register()).thenMatch((e) => (events = e));
  return events;
}

describe('trainee decider: RegisterTrainee', () => {
  it('registers the example with its placement and degree, then submits it for a TRN, in one decision', () => {
    given([])
      .when(register())
      .thenMatch((events) => {
        expect(events.map((e) => e.type)).toEqual(['TraineeRegistered', 'PlacementAdded', 'DegreeAdded', 'TraineeSubmittedForTrn']);
        const reg = events[0] as TraineeRegistered;
        expect(reg.data).toMatchObject({ trainee_id: 'T1', ukprn: '10000001', record_source: 'api', at: NOW });
        expect(reg.data.details).toMatchObject({ first_names: 'John', last_name: 'Doe', date_of_birth: '1990-01-01' });
        expect(events[1]).toMatchObject({ data: { placement: { placement_id: 'P1', urn: '900020', created_at: NOW } } });
        expect(events[2]).toMatchObject({ data: { degree: { degree_id: 'D1', graduation_year: 2003 } } });
        expect(events[3]).toEqual({ type: 'TraineeSubmittedForTrn', data: { trainee_id: 'T1', at: NOW } });
      });
  });

  it('registers under the rules of a version that rewrites primary subjects', () => {
    given([])
      .when(register({ rules: testRules({ primaryCourseSubject: 'rewrite' }) }, { course_age_range: '13915' }))
      .thenMatch((events) => expect((events[0] as TraineeRegistered).data.details).toMatchObject({ course_subject_1: '100511', course_subject_2: '100346' }));
  });

  it('leaves the trainee in submitted_for_trn with submitted_for_trn_at and no TRN', () => {
    const state = evolveAll(registered());
    expect(state.exists && state.trainee).toMatchObject({
      state: 'submitted_for_trn',
      submitted_for_trn_at: NOW,
      trn: null,
      created_at: NOW,
      updated_at: NOW,
    });
  });

  it('refuses invalid input with every failed rule', () => {
    given([])
      .when(register({}, { first_names: '', email: '' }))
      .thenThrows(ValidationFailed, (e) =>
        expect((e as ValidationFailed).messages).toEqual(expect.arrayContaining(["first_names can't be blank", "email can't be blank"])),
      );
  });

  it('refuses a missing or empty data object', () => {
    given([]).when({ ...register(), data: MISSING_REQUEST_DATA }).thenThrows(MissingData);
  });

  it('reports the wire problems of the request with its own rules’ messages, in one order', () => {
    given([])
      .when({ ...register({}, { first_names: undefined, last_name: '' }), data: requestData({ ...TRAINEE_FIELDS, first_names: undefined, last_name: '' }, [{ path: ['first_names'], message: 'first_names is invalid' }]) })
      .thenThrows(ValidationFailed, (e) => expect((e as ValidationFailed).messages).toEqual(['first_names is invalid', "last_name can't be blank"]));
  });

  it('refuses a duplicate of an existing trainee of the same provider, naming it', () => {
    const existing = evolveAll(registered());
    if (!existing.exists) throw new Error('setup');
    given([])
      .when(register({ trainee_id: 'T2', duplicate_candidates: [existing.trainee] }, { first_names: 'JOHN', email: 'other@example.com' }))
      .thenThrows(DuplicateTrainee, (e) => expect((e as DuplicateTrainee).existing).toEqual([existing.trainee]));
  });

  it('ignores candidates of another provider and candidates in another academic year', () => {
    const existing = evolveAll(registered());
    if (!existing.exists) throw new Error('setup');
    given([])
      .when(register({ trainee_id: 'T2', ukprn: '10000009', duplicate_candidates: [existing.trainee] }))
      .thenMatch((events) => expect(events[0].type).toBe('TraineeRegistered'));
    given([])
      .when(
        register(
          { trainee_id: 'T3', duplicate_candidates: [existing.trainee] },
          { itt_start_date: '2024-09-01', trainee_start_date: '2024-09-01', itt_end_date: '2026-07-31' },
        ),
      )
      .thenMatch((events) => expect(events[0].type).toBe('TraineeRegistered'));
  });
});

describe('trainee decider: UpdateTrainee', () => {
  it('records only the fields that changed', () => {
    given(registered())
      .when(update({ first_names: 'Jonathan', last_name: 'Doe' }))
      .thenMatch((events) => {
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({ type: 'TraineeUpdated', data: { trainee_id: 'T1', at: LATER } });
        expect((events[0].data as { changes: object }).changes).toEqual({ first_names: 'Jonathan' });
      });
  });

  it('records nothing when nothing changes', () => {
    given(registered()).when(update({ first_names: 'John' })).then([]);
  });

  it('moves updated_at and keeps the rest', () => {
    const before = evolveAll(registered());
    let after = before;
    given(registered())
      .when(update({ middle_names: 'Kim' }))
      .thenMatch((events) => (after = evolveAll(events, before)));
    expect(after.exists && after.trainee.updated_at).toBe(LATER);
    expect(after.exists && after.trainee.details.middle_names).toBe('Kim');
    expect(after.exists && after.trainee.created_at).toBe(NOW);
  });

  it('answers NotFound for an unknown trainee or another provider’s', () => {
    given([]).when(update({ first_names: 'X' })).thenThrows(NotFound);
    given(registered()).when(update({ first_names: 'X' }, { ukprn: '19999999' })).thenThrows(NotFound);
  });

  it('refuses an invalid merge, with the wire problems of the request', () => {
    given(registered())
      .when(update({}, {}, [{ path: ['first_names'], message: 'first_names is too long (maximum is 60 characters)' }]))
      .thenThrows(ValidationFailed, (e) =>
        expect((e as ValidationFailed).messages).toEqual(['first_names is too long (maximum is 60 characters)']),
      );
    given(registered())
      .when(update({ itt_end_date: '2025-07-01' }))
      .thenThrows(ValidationFailed, (e) => expect((e as ValidationFailed).messages).toEqual(['itt_end_date must be after itt_start_date']));
  });

  it('refuses updates once the trainee is withdrawn where the rules say so (docs/reference/API-FACTS.md §7.2)', () => {
    const state = evolveAll(registered());
    if (!state.exists) throw new Error('setup');
    const frozen = { exists: true as const, trainee: { ...state.trainee, state: 'withdrawn' as const } };
    const cmd = update({ first_names: 'Jane' });
    expect(() => decide(cmd, frozen)).toThrow(StateTransitionError);
    expect(decide({ ...cmd, rules: OPEN_RULES }, frozen)).toHaveLength(1);
  });
});

describe('trainee decider: data with nothing to change', () => {
  it('is missing data when there is no data, and changes nothing when no field is sent (docs/reference/API-FACTS.md §7.3)', () => {
    given(registered()).when({ ...update({}), data: MISSING_REQUEST_DATA }).thenThrows(MissingData);
    given(registered()).when(update({})).then([]);
  });

  it('requires a degree when an update moves the trainee to a route that needs one and it has none', () => {
    const noDegree = registered().filter((e) => e.type !== 'DegreeAdded');
    given(noDegree)
      .when(update({ training_route: '03' }))
      .thenThrows(ValidationFailed, (e) =>
        expect((e as ValidationFailed).messages).toContain('degrees_attributes must be entered if specifying a postgraduate training_route'),
      );
  });
});

describe('trainee decider: placements and degrees', () => {
  const OAK = { urn: '100001', name: 'Oak Primary School', town: 'Guildford', postcode: 'GU1 6FR' };
  const schools = new Map([[OAK.urn, OAK]]);
  const sub = { trainee_id: 'T1', ukprn: '10000001', rules: RULES, now: LATER };
  const DEGREE = { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: 2010 };

  function withState(state: 'withdrawn' | 'submitted_for_trn') {
    const s = evolveAll(registered());
    if (!s.exists) throw new Error('setup');
    return { exists: true as const, trainee: { ...s.trainee, state } };
  }

  it('adds a placement linked to a school of the directory', () => {
    given(registered())
      .when({ type: 'AddPlacement', ...sub, placement_id: 'P9', data: requestData({ urn: '100001' }), schools })
      .then([
        {
          type: 'PlacementAdded',
          data: {
            trainee_id: 'T1',
            placement: { placement_id: 'P9', urn: '100001', name: 'Oak Primary School', postcode: 'GU1 6FR', address: 'URN 100001, Guildford, GU1 6FR', school_id: 100001, created_at: LATER, updated_at: LATER },
            at: LATER,
          },
        },
      ]);
  });

  it('updates and removes a placement by id (case-insensitively), and 404s an unknown one', () => {
    given(registered())
      .when({ type: 'UpdatePlacement', ...sub, placement_id: 'p1', data: requestData({ name: 'Renamed' }), schools })
      .thenMatch((events) => expect(events).toMatchObject([{ type: 'PlacementUpdated', data: { placement: { placement_id: 'P1', urn: '900020', name: 'Renamed', updated_at: LATER } } }]));
    given(registered())
      .when({ type: 'RemovePlacement', ...sub, placement_id: 'p1' })
      .then([{ type: 'PlacementRemoved', data: { trainee_id: 'T1', placement_id: 'P1', at: LATER } }]);
    given(registered()).when({ type: 'RemovePlacement', ...sub, placement_id: 'nope' }).thenThrows(NotFound, (e) => expect(e.message).toBe('Placement(s) not found'));
  });

  it('adds a degree, and refuses one equal on subject, year, country, degree types and grade', () => {
    given(registered())
      .when({ type: 'AddDegree', ...sub, degree_id: 'D9', data: requestData(DEGREE) })
      .thenMatch((events) => expect(events).toMatchObject([{ type: 'DegreeAdded', data: { degree: { degree_id: 'D9', graduation_year: 2010 } } }]));
    given(registered())
      .when({ type: 'AddDegree', ...sub, degree_id: 'D9', data: requestData({ ...DEGREE, graduation_year: 2003 }) })
      .thenThrows(DuplicateDegree, (e) => expect((e as DuplicateDegree).existing).toMatchObject([{ degree_id: 'D1' }]));
  });

  it('changes a degree partially and removes it', () => {
    given(registered())
      .when({ type: 'UpdateDegree', ...sub, degree_id: 'D1', data: requestData({ grade: '03' }) })
      .thenMatch((events) => expect(events).toMatchObject([{ type: 'DegreeUpdated', data: { degree: { degree_id: 'D1', grade: '03', graduation_year: 2003 } } }]));
    given(registered()).when({ type: 'RemoveDegree', ...sub, degree_id: 'D1' }).then([{ type: 'DegreeRemoved', data: { trainee_id: 'T1', degree_id: 'D1', at: LATER } }]);
    given(registered()).when({ type: 'RemoveDegree', ...sub, degree_id: 'D2' }).thenThrows(NotFound, (e) => expect(e.message).toBe('Degree(s) not found'));
  });

  it('refuses every placement and degree write once the trainee is withdrawn where the rules say so (§18)', () => {
    const frozen = withState('withdrawn');
    const commands = [
      { type: 'AddPlacement' as const, ...sub, placement_id: 'P9', data: requestData({ name: 'X' }), schools },
      { type: 'RemovePlacement' as const, ...sub, placement_id: 'P1' },
      { type: 'AddDegree' as const, ...sub, degree_id: 'D9', data: requestData(DEGREE) },
      { type: 'RemoveDegree' as const, ...sub, degree_id: 'D1' },
    ];
    for (const cmd of commands) {
      expect(() => decide(cmd, frozen)).toThrow(StateTransitionError);
      expect(decide({ ...cmd, rules: OPEN_RULES }, frozen)).toHaveLength(1);
    }
  });

  it('evolves placements and degrees: updates replace, removals drop, updated_at moves', () => {
    const events = registered();
    let state = evolveAll(events);
    given(events)
      .when({ type: 'RemoveDegree', ...sub, degree_id: 'D1' })
      .thenMatch((e) => (state = evolveAll(e, state)));
    expect(state.exists && state.trainee.degrees).toEqual([]);
    expect(state.exists && state.trainee.updated_at).toBe(LATER);
  });
});
