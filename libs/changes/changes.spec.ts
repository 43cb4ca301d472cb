import { evolveAll, type TraineeEvent } from '@app/trainees/decider';
import { type Trainee } from '@app/trainees/record';
import {
  EXAMPLE_DEGREE,
  EXAMPLE_PLACEMENT,
  exampleRegistration,
  traineeRegistered,
  traineeUpdated,
  trnIssued,
} from '@app/trainees/decider/testing/trainee-events';
import { logPosition, type RecordedEvent } from '@app/event-sourcing';
import { ERASED } from '@app/personal-data';
import { changeOf } from './change-of';
import { changedFields, forgottenChange, forgottenChangeItem, renderChange, type StoredChange } from './changes';

function traineeAfter(events: TraineeEvent[]): Trainee {
  const state = evolveAll(events);
  if (!state.exists) throw new Error('no trainee');
  return state.trainee;
}

describe('changedFields (docs/change-feed.md "changed_fields")', () => {
  const registered = traineeAfter([traineeRegistered()]);

  it("lists a new trainee's non-null answered fields, never updated_at", () => {
    const fields = changedFields('trainee', null, registered);
    expect(fields).toEqual(expect.arrayContaining(['trainee_id', 'first_names', 'last_name', 'date_of_birth', 'state', 'created_at']));
    expect(fields).not.toContain('updated_at');
    expect(fields).not.toContain('trn');
  });

  it('lists exactly the fields an update changed, in canonical names', () => {
    const updated = traineeAfter([traineeRegistered(), traineeUpdated({ changes: { middle_names: 'Quinn' } })]);
    expect(changedFields('trainee', registered, updated)).toEqual(['middle_names']);
    const partner = traineeAfter([traineeRegistered(), traineeUpdated({ changes: { training_partner_urn: '100001' } })]);
    expect(changedFields('trainee', registered, partner)).toContain('training_partner_urn');
    expect(changedFields('trainee', registered, registered)).toEqual([]);
  });

  it('lists trn and state for a TRN issued, and a disabilityN key added beyond the second', () => {
    const submitted = traineeAfter(exampleRegistration());
    const withTrn = traineeAfter([...exampleRegistration(), trnIssued()]);
    expect(changedFields('trainee', submitted, withTrn)).toEqual(expect.arrayContaining(['trn', 'state']));
    const third = {
      ...registered,
      details: { ...registered.details, disabilities: { ...registered.details.disabilities, disability3: '58' } },
    };
    expect(changedFields('trainee', registered, third)).toContain('disability3');
  });

  it("lists an added item's non-null fields, a removed item's fields, and only what an update changed", () => {
    expect(changedFields('placement', null, EXAMPLE_PLACEMENT)).toEqual(expect.arrayContaining(['placement_id', 'urn', 'name']));
    expect(changedFields('placement', EXAMPLE_PLACEMENT, null)).toEqual(changedFields('placement', null, EXAMPLE_PLACEMENT));
    expect(changedFields('placement', EXAMPLE_PLACEMENT, { ...EXAMPLE_PLACEMENT, name: 'Fir Academy' })).toEqual(['name']);
    expect(changedFields('degree', EXAMPLE_DEGREE, { ...EXAMPLE_DEGREE, grade: '01' })).toEqual(['grade']);
    expect(changedFields('degree', null, EXAMPLE_DEGREE)).toContain('degree_id');
  });
});

const change = (overrides: Partial<StoredChange>): StoredChange => ({
  position: logPosition(42),
  ukprn: '10000001',
  trainee_id: 'T1',
  type: 'TraineeUpdated',
  occurred_at: '2026-01-20T10:00:00.000Z',
  record: 'trainee',
  item_id: null,
  changed_fields: ['training_partner_urn', 'statsagency_disabilities', 'middle_names', 'disability3'],
  state: 'trn_received',
  trn: '1234567',
  ...overrides,
});

describe('renderChange (docs/change-feed.md "What a change holds")', () => {
  it("names the fields in the version's names and leaves out fields the version does not answer", () => {
    expect(renderChange(change({}), 'v2025.0', 'C42').changed_fields).toEqual([
      'lead_partner_urn',
      'statsagency_disabilities',
      'middle_names',
      'disability3',
    ]);
    expect(renderChange(change({}), 'v2026.1', 'C42')).toEqual({
      cursor: 'C42',
      occurred_at: '2026-01-20T10:00:00.000Z',
      trainee_id: 'T1',
      type: 'TraineeUpdated',
      changed_fields: ['training_partner_urn', 'middle_names', 'disability3'],
      state: 'trn_received',
      trn: '1234567',
    });
  });

  it('carries placement_id only for a placement change and degree_id only for a degree change', () => {
    const placement = renderChange(
      change({ type: 'PlacementAdded', record: 'placement', item_id: 'P1', changed_fields: ['urn'] }),
      'v2026.1',
      'C42',
    );
    expect(placement).toMatchObject({ placement_id: 'P1', changed_fields: ['urn'] });
    expect(placement).not.toHaveProperty('degree_id');
    const degree = renderChange(
      change({ type: 'DegreeRemoved', record: 'degree', item_id: 'D1', changed_fields: ['grade'] }),
      'v2025.0',
      'C42',
    );
    expect(degree).toMatchObject({ degree_id: 'D1' });
    expect(degree).not.toHaveProperty('placement_id');
    expect(degree.cursor).toBe('C42');
  });
});

describe('an erased trainee\'s changes (docs/change-feed.md "An erased trainee\'s changes")', () => {
  it('keep their cursor, type, time, ids and state, and name no personal field and no TRN', () => {
    expect(forgottenChange(change({}))).toEqual({ ...change({}), changed_fields: ['training_partner_urn'], trn: null });
    const degree = change({ type: 'DegreeUpdated', record: 'degree', item_id: 'D1', changed_fields: ['grade', 'other_grade'] });
    expect(forgottenChange(degree).changed_fields).toEqual(['grade']);
    const placement = change({ type: 'PlacementAdded', record: 'placement', item_id: 'P1', changed_fields: ['urn', 'name'] });
    expect(forgottenChange(placement).changed_fields).toEqual(['urn', 'name']);
  });

  it("judge a change already answered in any version by that version's names (a webhook payload)", () => {
    const v2025 = renderChange(change({}), 'v2025.0', 'C42');
    expect(forgottenChangeItem(v2025)).toEqual({ ...v2025, changed_fields: ['lead_partner_urn'], trn: null });
    const v2026 = renderChange(change({ changed_fields: ['course_subject_2', 'first_names', 'nationality'] }), 'v2026.1', 'C42');
    expect(forgottenChangeItem(v2026).changed_fields).toEqual(['course_subject_2']);
  });

  it('are made so by changeOf for every event of a stream read after the erasure, and not before it', () => {
    const event = traineeRegistered();
    const live = traineeAfter([event]);
    const erased: Trainee = { ...live, details: { ...live.details, first_names: ERASED, last_name: ERASED, middle_names: ERASED } };
    const recorded: RecordedEvent = {
      id: 'E1',
      type: event.type,
      data: event.data,
      metadata: { schemaVersion: 1, occurredAt: '2026-01-20T10:00:00.000Z' },
      streamId: `trainee-${live.trainee_id}`,
      streamRevision: 0,
      position: logPosition(7),
    };
    const doc = (trainee: Trainee) => ({ trainee, revision: 0, created_position: 7 });
    const before = changeOf(event, recorded, null, doc(live));
    expect(before.changed_fields).toEqual(expect.arrayContaining(['first_names', 'last_name', 'training_route']));
    const after = changeOf(event, recorded, null, doc(erased));
    expect(after).toEqual(forgottenChange(changeOf(event, recorded, null, doc(live))));
    expect(after.changed_fields).toContain('training_route');
    expect(after.changed_fields).not.toContain('last_name');
  });
});
