/**
 * What a create, an update and a deferral append to the trainee's stream (type, data and envelope),
 * read back from the event store the API wrote to: the events are the record (docs/DESIGN.md "The
 * shape", "Event envelope"); the HTTP answers are checked elsewhere.
 */
import { TRAINEE_EVENT_SCHEMA_VERSIONS, traineeStreamId, type TraineeEventType } from '@app/trainees/decider';
import type { RecordedEvent } from '@app/event-sourcing';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

const UKPRN = '10000091';
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('events appended by create, update and defer (v2026.1)', () => {
  let api: RunningApi;
  let token: string;
  const base = '/api/v2026.1/trainees';

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken(UKPRN);
  });
  afterAll(() => api.close());

  const streamOf = (id: string): Promise<RecordedEvent[]> => api.infra.eventStore.readStream(traineeStreamId(id));

  it('a create appends TraineeRegistered, one PlacementAdded and one DegreeAdded per nested item, then TraineeSubmittedForTrn, in one request', async () => {
    const body = uniqueTrainee('v2026.1', { middle_names: 'Ryan' });
    const res = await api.request('POST', base, token, body, { 'x-request-id': 'req-create-1' });
    expect(res.status).toBe(201);
    const id: string = res.body.data.trainee_id;
    const events = await streamOf(id);

    expect(events.map((e) => e.type)).toEqual(['TraineeRegistered', 'PlacementAdded', 'DegreeAdded', 'TraineeSubmittedForTrn']);
    expect(events.map((e) => e.streamRevision)).toEqual([0, 1, 2, 3]);
    const at = (events[0].data as { at: string }).at;
    expect(at).toMatch(ISO_INSTANT);

    expect(events[0].data).toEqual({
      trainee_id: id,
      ukprn: UKPRN,
      record_source: 'api',
      details: expect.objectContaining({
        first_names: body.data.first_names,
        middle_names: 'Ryan',
        last_name: body.data.last_name,
        date_of_birth: body.data.date_of_birth,
        email: body.data.email,
        training_route: '11',
        course_subject_1: '100346',
        itt_start_date: '2025-08-01',
        itt_end_date: '2027-07-31',
        employing_school_urn: '883876',
        application_id: 6916785,
      }),
      at,
    });
    const placementId = res.body.data.placements[0].placement_id;
    expect(events[1].data).toEqual({
      trainee_id: id,
      placement: expect.objectContaining({ placement_id: placementId, urn: '900020', created_at: at, updated_at: at }),
      at,
    });
    const degreeId = res.body.data.degrees[0].degree_id;
    expect(events[2].data).toEqual({
      trainee_id: id,
      degree: expect.objectContaining({
        degree_id: degreeId,
        grade: '02',
        subject: '100425',
        institution: '0116',
        uk_degree: '083',
        graduation_year: 2003,
      }),
      at,
    });
    expect(events[3].data).toEqual({ trainee_id: id, at });

    // Every event of the request carries who and what caused it, never the token itself.
    for (const e of events) {
      expect(e.metadata).toMatchObject({
        schemaVersion: TRAINEE_EVENT_SCHEMA_VERSIONS[e.type as TraineeEventType],
        occurredAt: at,
        providerUkprn: UKPRN,
        apiVersion: 'v2026.1',
        requestId: 'req-create-1',
      });
      expect(e.metadata.tokenId).toEqual(expect.any(String));
      expect(JSON.stringify(e)).not.toContain(token);
    }
  });

  it('an update appends one TraineeUpdated holding only the fields whose value changed; an update changing nothing appends nothing', async () => {
    const created = await api.request('POST', base, token, uniqueTrainee('v2026.1'));
    const id: string = created.body.data.trainee_id;
    const before = await streamOf(id);

    const res = await api.request('PATCH', `${base}/${id}`, token, {
      data: { middle_names: 'Kim', email: created.body.data.email, course_subject_1: '100425' },
    });
    expect(res.status).toBe(200);
    const after = await streamOf(id);
    expect(after).toHaveLength(before.length + 1);
    const updated = after[after.length - 1];
    expect(updated.type).toBe('TraineeUpdated');
    expect(updated.streamRevision).toBe(before.length);
    expect(updated.data).toEqual({
      trainee_id: id,
      changes: { middle_names: 'Kim', course_subject_1: '100425' },
      at: expect.stringMatching(ISO_INSTANT),
    });
    expect(updated.metadata).toMatchObject({
      providerUkprn: UKPRN,
      apiVersion: 'v2026.1',
      occurredAt: (updated.data as { at: string }).at,
    });

    const same = await api.request('PATCH', `${base}/${id}`, token, { data: { middle_names: 'Kim' } });
    expect(same.status).toBe(200);
    expect(await streamOf(id)).toHaveLength(after.length);
  });

  it('a deferral appends one TraineeDeferred with its date and reason; a refused one appends nothing', async () => {
    const created = await api.request('POST', base, token, uniqueTrainee('v2026.1'));
    const id: string = created.body.data.trainee_id;
    const before = await streamOf(id);

    const res = await api.request('POST', `${base}/${id}/defer`, token, { data: { defer_date: '2026-01-05', defer_reason: 'Health' } });
    expect(res.status).toBe(200);
    const after = await streamOf(id);
    expect(after.slice(before.length).map((e) => ({ type: e.type, data: e.data }))).toEqual([
      {
        type: 'TraineeDeferred',
        data: { trainee_id: id, defer_date: '2026-01-05', defer_reason: 'Health', at: expect.stringMatching(ISO_INSTANT) },
      },
    ]);

    const again = await api.request('POST', `${base}/${id}/defer`, token, { data: { defer_date: '2026-01-06' } });
    expect(again.status).toBe(422);
    expect(await streamOf(id)).toHaveLength(after.length);
  });
});
