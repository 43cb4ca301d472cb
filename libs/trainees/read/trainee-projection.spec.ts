/**
 * The trainee projection as a pure function: given a document (or none) and a recorded event,
 * the document it becomes (docs/STYLE.md "Projections as pure functions"; docs/DESIGN.md "Read
 * models": the revision guard; docs/reference/API-FACTS.md §1.10: ids match in any letter case).
 */
import type { Trainee, TraineeDetails } from '@app/trainees/record';
import { logPosition, type RecordedEvent } from '@app/event-sourcing';
import { duplicateKeys, projectTrainee, traineeIdKey, traineeKeys, type TraineeDocument } from './trainee-projection';

const DETAILS: TraineeDetails = {
  provider_trainee_id: 'PT-1',
  first_names: 'Ada',
  middle_names: null,
  last_name: '  Lovelace  Byron ',
  previous_last_name: null,
  date_of_birth: '1990-12-10',
  email: 'ada@example.com',
  sex: '11',
  nationality: 'GB',
  ethnicity: '997',
  ethnic_group: '997',
  ethnic_background: '997',
  additional_ethnic_background: null,
  diversity_disclosure: 'diversity_not_disclosed',
  disability_disclosure: 'disability_not_provided',
  disabilities: {},
  training_route: '11',
  course_qualification: 'QTS',
  course_level: 'postgrad',
  course_education_phase: 'secondary',
  course_title: null,
  course_subject_1: '100346',
  course_subject_2: null,
  course_subject_3: null,
  course_age_range: '13918',
  course_min_age: 11,
  course_max_age: 16,
  itt_start_date: '2025-07-20',
  itt_end_date: '2026-07-31',
  trainee_start_date: '2025-09-01',
  study_mode: '63',
  course_year: 2025,
  itt_aim: '202',
  itt_qualification_aim: '001',
  fund_code: '2',
  funding_method: '6',
  training_initiative: null,
  additional_training_initiative: null,
  ni_number: null,
  pg_apprenticeship_start_date: null,
  statsagency_id: null,
  employing_school_urn: null,
  training_partner_urn: null,
  training_partner_ukprn: null,
  iqts_country: null,
  application_id: null,
};

/** A recorded event of stream `trainee-<id>`, as an event store hands it over. */
function recorded(type: string, data: Record<string, unknown>, streamRevision: number, position: number): RecordedEvent {
  return {
    id: `e-${position}`,
    type,
    data,
    metadata: { schemaVersion: 1, occurredAt: String(data.at) },
    streamId: `trainee-${String(data.trainee_id)}`,
    streamRevision,
    position: logPosition(position),
  };
}

const REGISTERED = recorded(
  'TraineeRegistered',
  { trainee_id: 'Tr-A', ukprn: '10000001', record_source: 'api', details: DETAILS, at: '2025-09-01T10:00:00.000Z' },
  0,
  7,
);

/** The trainee `evolve` makes of {@link REGISTERED}. */
const REGISTERED_TRAINEE: Trainee = {
  trainee_id: 'Tr-A',
  ukprn: '10000001',
  record_source: 'api',
  details: DETAILS,
  state: 'draft',
  trn: null,
  submitted_for_trn_at: null,
  outcome_date: null,
  recommended_for_award_at: null,
  awarded_at: null,
  defer_date: null,
  defer_reason: null,
  reinstate_date: null,
  withdrawal: null,
  placements: [],
  degrees: [],
  created_at: '2025-09-01T10:00:00.000Z',
  updated_at: '2025-09-01T10:00:00.000Z',
};

const REGISTERED_DOC: TraineeDocument = { trainee: REGISTERED_TRAINEE, revision: 0, link: null, created_position: 7 };

describe('projectTrainee', () => {
  it('creates the document from TraineeRegistered: the trainee evolve builds, its revision and the position that created it', () => {
    expect(projectTrainee(null, REGISTERED)).toEqual(REGISTERED_DOC);
  });

  it('evolves a document by a later event: new revision and its hash as the link, created_position kept, input untouched', () => {
    const before = structuredClone(REGISTERED_DOC);
    const update = recorded(
      'TraineeUpdated',
      { trainee_id: 'Tr-A', changes: { middle_names: 'King' }, at: '2025-09-02T10:00:00.000Z' },
      1,
      12,
    );
    update.metadata = { ...update.metadata, previousHash: null, hash: 'b'.repeat(64) };
    expect(projectTrainee(REGISTERED_DOC, update)).toEqual({
      trainee: { ...REGISTERED_TRAINEE, details: { ...DETAILS, middle_names: 'King' }, updated_at: '2025-09-02T10:00:00.000Z' },
      revision: 1,
      link: 'b'.repeat(64),
      created_position: 7,
    });
    expect(REGISTERED_DOC).toEqual(before);
  });

  it('follows the lifecycle: submitted, then a TRN makes it trn_received', () => {
    const submitted = projectTrainee(
      REGISTERED_DOC,
      recorded('TraineeSubmittedForTrn', { trainee_id: 'Tr-A', at: '2025-09-01T10:00:00.000Z' }, 1, 8),
    );
    const trn = projectTrainee(
      submitted,
      recorded('TrnIssued', { trainee_id: 'Tr-A', trn: '1234567', at: '2025-09-03T00:00:00.000Z' }, 2, 20),
    );
    expect(trn?.trainee).toMatchObject({
      state: 'trn_received',
      trn: '1234567',
      submitted_for_trn_at: '2025-09-01T10:00:00.000Z',
      updated_at: '2025-09-03T00:00:00.000Z',
    });
    expect(trn?.revision).toBe(2);
  });

  it('skips an event at or below the document’s revision (idempotent redelivery)', () => {
    const doc: TraineeDocument = { ...REGISTERED_DOC, revision: 2 };
    const at = (revision: number) =>
      recorded('TraineeUpdated', { trainee_id: 'Tr-A', changes: { middle_names: 'Late' }, at: '2025-09-09T00:00:00.000Z' }, revision, 30);
    expect(projectTrainee(doc, at(2))).toBe(doc);
    expect(projectTrainee(doc, at(1))).toBe(doc);
    expect(projectTrainee(doc, REGISTERED)).toBe(doc);
    expect(projectTrainee(doc, at(3))?.trainee.details.middle_names).toBe('Late');
  });

  it('ignores event types it does not read', () => {
    const claim = recorded('RegistrationClaimed', { trainee_id: 'Tr-A', at: '2025-09-01T10:00:00.000Z' }, 5, 40);
    const provider = recorded(
      'ProviderRegistered',
      { ukprn: '10000001', name: 'X', trainee_id: 'Tr-A', at: '2025-09-01T10:00:00.000Z' },
      6,
      41,
    );
    const unknown = recorded('TraineeTeleported', { trainee_id: 'Tr-A', at: '2025-09-01T10:00:00.000Z' }, 7, 42);
    for (const event of [claim, provider, unknown]) {
      expect(projectTrainee(REGISTERED_DOC, event)).toBe(REGISTERED_DOC);
      expect(projectTrainee(null, event)).toBeNull();
    }
  });

  it('ignores an event of a trainee that does not exist, other than its registration', () => {
    const update = recorded(
      'TraineeUpdated',
      { trainee_id: 'Tr-B', changes: { middle_names: 'X' }, at: '2025-09-02T10:00:00.000Z' },
      1,
      50,
    );
    const submitted = recorded('TraineeSubmittedForTrn', { trainee_id: 'Tr-B', at: '2025-09-02T10:00:00.000Z' }, 2, 51);
    expect(projectTrainee(null, update)).toBeNull();
    expect(projectTrainee(null, submitted)).toBeNull();
  });
});

describe('traineeKeys', () => {
  it('derives the columns the queries use from the document', () => {
    expect(traineeKeys(REGISTERED_DOC)).toEqual({
      trainee_id: 'Tr-A',
      trainee_id_lower: 'tr-a',
      ukprn: '10000001',
      start_cycle: 2025,
      state: 'draft',
      itt_start_date: '2025-07-20',
      has_trn: false,
      updated_at: '2025-09-01T10:00:00.000Z',
      date_of_birth: '1990-12-10',
      training_route: '11',
      last_name_key: 'lovelace byron',
      created_position: 7,
    });
  });

  it('takes the academic cycle of trainee_start_date before itt_start_date, and has_trn from the TRN', () => {
    const doc: TraineeDocument = {
      ...REGISTERED_DOC,
      trainee: { ...REGISTERED_TRAINEE, trn: '7654321', details: { ...DETAILS, trainee_start_date: '' } },
    };
    expect(traineeKeys(doc)).toMatchObject({ start_cycle: 2024, has_trn: true });
  });

  it('gives the lookup and duplicate keys as the document’s keys are made', () => {
    expect(traineeIdKey('TR-a')).toBe(traineeKeys(REGISTERED_DOC).trainee_id_lower);
    expect(duplicateKeys('10000001', '1990-12-10', '11', 'LOVELACE   byron')).toEqual({
      ukprn: '10000001',
      date_of_birth: '1990-12-10',
      training_route: '11',
      last_name_key: traineeKeys(REGISTERED_DOC).last_name_key,
    });
  });
});
