import { sealFields } from '@app/personal-data';
import { exampleRegistration, traineeDeferred, traineeUpdated, traineeWithdrawn, trnIssued } from './testing/trainee-events';
import {
  FLAGGED_PERSONAL_FIELDS,
  PERSONAL_DEGREE_FIELD_PLACES,
  PERSONAL_TRAINEE_FIELD_PLACES,
  TRAINEE_PERSONAL_DATA,
} from './trainee.personal-data';
import { TRAINEE_EVENT_TYPES, type TraineeEvent } from './trainee.events';

describe('Which fields of the trainee events are sealed (docs/DESIGN.md "Personal data")', () => {
  it('places exactly the fields the trainee and degree tables flag personal', () => {
    expect(Object.keys(PERSONAL_TRAINEE_FIELD_PLACES).sort()).toEqual([...FLAGGED_PERSONAL_FIELDS.trainee].sort());
    expect(Object.keys(PERSONAL_DEGREE_FIELD_PLACES).sort()).toEqual([...FLAGGED_PERSONAL_FIELDS.degree].sort());
    // At least the fields the issue names.
    expect(FLAGGED_PERSONAL_FIELDS.trainee).toEqual(
      expect.arrayContaining(['first_names', 'last_name', 'previous_last_name', 'date_of_birth', 'email', 'ni_number', 'sex']),
    );
    expect(FLAGGED_PERSONAL_FIELDS.trainee).toEqual(expect.arrayContaining(['ethnicity', 'disability1', 'nationality', 'defer_reason']));
  });

  it('names only event types that exist', () => {
    for (const places of [...Object.values(PERSONAL_TRAINEE_FIELD_PLACES), ...Object.values(PERSONAL_DEGREE_FIELD_PLACES)])
      for (const type of Object.keys(places)) expect(TRAINEE_EVENT_TYPES).toContain(type);
  });

  it('leaves no personal value of a whole history in the clear, and every code and date that identifies no one', () => {
    const person = {
      first_names: 'Zebediah',
      middle_names: 'Orlando',
      last_name: 'Quillfeather',
      previous_last_name: 'Abernathy',
      date_of_birth: '1987-06-05',
      email: 'zq@example.org',
      ni_number: 'QQ123456C',
      provider_trainee_id: 'PTID-777',
      statsagency_id: 'SA-9988776655',
      application_id: 7654321,
      disabilities: { disability1: 'D-CODE-1' },
    };
    const events: TraineeEvent[] = [
      ...exampleRegistration({ trainee_id: 'T1', details: person }),
      traineeUpdated({ trainee_id: 'T1', changes: { last_name: 'Featherquill', course_title: 'Maths' } }),
      traineeDeferred({ trainee_id: 'T1', defer_reason: 'A private family matter' }),
      traineeWithdrawn({
        trainee_id: 'T1',
        withdrawal: { another_reason: 'Another private matter', safeguarding_concern_reasons: 'Concern text' },
      }),
      trnIssued({ trainee_id: 'T1', trn: '7777777' }),
    ];
    const key = Buffer.alloc(32, 7);
    const sealed = JSON.stringify(
      events.map((e, i) =>
        sealFields(e.data as Record<string, unknown>, TRAINEE_PERSONAL_DATA.pathsOf(e.type), key, {
          streamId: 'trainee-T1',
          eventId: `E${i}`,
          type: e.type,
        }),
      ),
    );
    for (const value of [...Object.values(person).map(String), 'D-CODE-1', 'Featherquill', 'private', 'Concern text', '7777777'])
      expect(sealed).not.toContain(value);
    for (const clear of ['"training_route":"11"', '"course_title":"Maths"', '"trainee_id":"T1"', '"itt_start_date"'])
      expect(sealed).toContain(clear);
  });
});
