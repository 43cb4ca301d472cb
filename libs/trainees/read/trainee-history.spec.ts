import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evolve, initialTraineeState, type TraineeEvent, type TraineeState, traineeStreamId } from '@app/trainees/decider';
import type { Trainee, TraineeDetails } from '@app/trainees/record';
import {
  degreeUpdated as degreeUpdatedEvent,
  exampleRegistration,
  placementAdded as placementAddedEvent,
  placementRemoved,
  placementUpdated,
  traineeAwarded,
  traineeDeferred,
  traineeRecommendedForAward,
  traineeUpdated,
  traineeWithdrawn,
  trnIssued,
} from '@app/trainees/decider/testing/trainee-events';
import { newEventId, registerUpcaster, toEventData } from '@app/event-sourcing';
import { SqliteEventStore } from '@app/stores/sqlite';
import { loadTraineeHistory, ownerOf, parseInstant, timelineForProvider, traineeAsOf, traineeTimeline } from './trainee-history';

const UKPRN = '10000001';
const TOKEN = '6a1d4a8e-7f53-4c1e-9d55-0c1f1e9f0a01';

/**
 * Writes a trainee's stream as the API would: literal events appended with the revision read and
 * the metadata of a request (provider 10000001, API version v2025.0 and token {@link TOKEN} unless
 * `meta` says otherwise, request ids `req-1`, `req-2`, …).
 */
class TraineeWriter {
  state: TraineeState = initialTraineeState;
  revision = -1;
  requests = 0;

  constructor(
    private readonly store: SqliteEventStore,
    readonly traineeId: string,
  ) {}

  /** Appends `events` at `now` and returns the trainee they leave. */
  async append(now: string, events: TraineeEvent[], meta: { tokenId?: string | null; apiVersion?: string | null } = {}): Promise<Trainee> {
    for (const e of events) this.state = evolve(this.state, e);
    const data = toEventData(
      events,
      {
        occurredAt: now,
        providerUkprn: UKPRN,
        apiVersion: meta.apiVersion === undefined ? 'v2025.0' : meta.apiVersion,
        tokenId: meta.tokenId === undefined ? TOKEN : meta.tokenId,
        requestId: `req-${++this.requests}`,
      },
      newEventId,
    );
    const result = await this.store.appendToStream(traineeStreamId(this.traineeId), data, {
      expectedRevision: this.revision < 0 ? 'no_stream' : this.revision,
    });
    this.revision = result.nextExpectedRevision;
    if (!this.state.exists) throw new Error('no trainee');
    return this.state.trainee;
  }

  /** Registers the example trainee at `now` (its placement P1, degree D1 and submission for a TRN: 4 events). */
  register(now: string): Promise<Trainee> {
    return this.append(now, exampleRegistration({ trainee_id: this.traineeId, ukprn: UKPRN, at: now }));
  }

  /** Records an update of `changes` at `now`, written through `apiVersion`. */
  update(now: string, changes: Partial<TraineeDetails>, apiVersion: 'v2025.0' | 'v2026.1' = 'v2025.0'): Promise<Trainee> {
    return this.append(now, [traineeUpdated({ trainee_id: this.traineeId, changes, at: now })], { apiVersion });
  }
}

/** `2026-01-05T10:00:00.000Z` plus `seconds`. */
function at(seconds: number): string {
  return new Date(Date.parse('2026-01-05T10:00:00.000Z') + seconds * 1000).toISOString();
}

describe('trainee history (timeline and as-of, replayed from the event log)', () => {
  let dir: string;
  let store: SqliteEventStore;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'trainee-history-'));
    store = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), synchronous: 'normal' });
  });
  afterEach(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const read = (id: string) => store.readStream(traineeStreamId(id));

  it('lists every event in stream order with what it changed and who did it', async () => {
    const w = new TraineeWriter(store, 'T1');
    await w.register(at(0));
    await w.update(at(10), { first_names: 'Jonathan', ni_number: 'QQ123456C' });
    await w.update(at(20), { course_subject_2: '100425' }, 'v2026.1');
    await w.append(at(30), [
      placementAddedEvent({
        trainee_id: 'T1',
        at: at(30),
        placement: { placement_id: 'P2', name: 'Fir School', created_at: at(30), updated_at: at(30) },
      }),
    ]);
    await w.append(at(40), [
      placementUpdated({
        trainee_id: 'T1',
        at: at(40),
        placement: { placement_id: 'P2', name: 'Fir Academy', created_at: at(30), updated_at: at(40) },
      }),
    ]);
    await w.append(at(50), [placementRemoved({ trainee_id: 'T1', placement_id: 'P1', at: at(50) })]);
    await w.append(at(60), [degreeUpdatedEvent({ trainee_id: 'T1', at: at(60), degree: { created_at: at(0), updated_at: at(60) } })]);
    await w.append(at(70), [trnIssued({ trainee_id: 'T1', trn: '4830275', at: at(70) })], { tokenId: null, apiVersion: null });
    await w.append(at(80), [traineeDeferred({ trainee_id: 'T1', defer_date: '2026-01-05', defer_reason: 'Illness', at: at(80) })]);

    const recorded = await read('T1');
    const timeline = traineeTimeline(recorded);

    expect(timeline.map((e) => e.event_type)).toEqual([
      'TraineeRegistered',
      'PlacementAdded',
      'DegreeAdded',
      'TraineeSubmittedForTrn',
      'TraineeUpdated',
      'TraineeUpdated',
      'PlacementAdded',
      'PlacementUpdated',
      'PlacementRemoved',
      'DegreeUpdated',
      'TrnIssued',
      'TraineeDeferred',
    ]);
    expect(timeline.map((e) => e.revision)).toEqual(timeline.map((_, i) => i));
    expect(timeline.map((e) => e.position)).toEqual(recorded.map((r) => r.position));
    for (const e of timeline) expect(Object.keys(e.changes)).toEqual(e.changed_fields);

    const [
      registered,
      placementAdded,
      degreeAdded,
      submitted,
      update1,
      update2,
      p2Added,
      p2Updated,
      p1Removed,
      degreeUpdated,
      trn,
      deferred,
    ] = timeline;
    expect(registered).toMatchObject({
      occurred_at: at(0),
      provider_ukprn: UKPRN,
      token_id: TOKEN,
      api_version: 'v2025.0',
      request_id: 'req-1',
    });
    expect(registered.changed_fields).toEqual(
      expect.arrayContaining(['trainee_id', 'ukprn', 'state', 'first_names', 'last_name', 'date_of_birth', 'email']),
    );
    expect(registered.changed_fields).not.toContain('ni_number'); // not sent, so not set
    // Each entry shows the event's hash and the one before it (docs/DESIGN.md "Verifiable history").
    expect(registered).toMatchObject({ hash: recorded[0].metadata.hash, previous_hash: null });
    expect(timeline.slice(1).map((e) => e.previous_hash)).toEqual(timeline.slice(0, -1).map((e) => e.hash));
    expect(timeline.every((e) => /^[0-9a-f]{64}$/.test(e.hash ?? ''))).toBe(true);
    expect(registered.changes).toMatchObject({ trainee_id: 'T1', ukprn: UKPRN, state: 'draft', first_names: 'John', last_name: 'Doe' });
    expect(placementAdded).toMatchObject({
      changed_fields: ['placements'],
      changes: { placements: { placement_id: 'P1', urn: '900020' } },
    });
    expect(degreeAdded).toMatchObject({ changed_fields: ['degrees'], changes: { degrees: { degree_id: 'D1', grade: '02' } } });
    expect(submitted).toMatchObject({
      changed_fields: ['state', 'submitted_for_trn_at'],
      changes: { state: 'submitted_for_trn', submitted_for_trn_at: at(0) },
    });
    expect(update1).toMatchObject({
      occurred_at: at(10),
      changed_fields: ['first_names', 'ni_number'],
      changes: { first_names: 'Jonathan', ni_number: 'QQ123456C' },
      request_id: 'req-2',
    });
    expect(update2).toMatchObject({
      changed_fields: ['course_subject_2'],
      changes: { course_subject_2: '100425' },
      api_version: 'v2026.1',
    });
    expect(p2Added.changes).toEqual({ placements: expect.objectContaining({ placement_id: 'P2', name: 'Fir School' }) });
    // An updated item: the whole item as the event holds it (each entry is computed from its own event).
    expect(p2Updated.changes).toEqual({
      placements: {
        placement_id: 'P2',
        name: 'Fir Academy',
        urn: '900020',
        school_id: null,
        address: null,
        postcode: null,
        created_at: at(30),
        updated_at: at(40),
      },
    });
    expect(p1Removed.changes).toEqual({ placements: { placement_id: 'P1', removed: true } });
    expect(degreeUpdated.changes).toEqual({
      degrees: expect.objectContaining({ degree_id: 'D1', grade: '03', grade_uuid: expect.any(String), subject: expect.any(String) }),
    });
    expect(trn).toMatchObject({
      changed_fields: ['state', 'trn'],
      changes: { state: 'trn_received', trn: '4830275' },
      token_id: null,
      api_version: null,
      provider_ukprn: UKPRN,
    });
    expect(deferred).toMatchObject({
      changed_fields: ['state', 'defer_date', 'defer_reason'],
      changes: { state: 'deferred', defer_date: '2026-01-05', defer_reason: 'Illness' },
    });
  });

  it('names the fields a registration, a recommendation, an award and a withdrawal set, in one fixed order', async () => {
    const recommended = new TraineeWriter(store, 'T3');
    await recommended.register(at(0));
    await recommended.append(at(10), [trnIssued({ trainee_id: 'T3', trn: '4830275', at: at(10) })]);
    await recommended.append(at(20), [traineeRecommendedForAward({ trainee_id: 'T3', at: at(20) })]);
    await recommended.append(at(30), [traineeAwarded({ trainee_id: 'T3', awarded_at: at(30), at: at(30) })]);
    const withdrawn = new TraineeWriter(store, 'T4');
    await withdrawn.register(at(0));
    await withdrawn.append(at(40), [traineeWithdrawn({ trainee_id: 'T4', at: at(40) })]);

    const first = traineeTimeline(await read('T3'));
    expect(first[0].changed_fields.slice(0, 4)).toEqual(['trainee_id', 'ukprn', 'record_source', 'state']);
    expect(first.slice(-2).map((e) => e.changed_fields)).toEqual([
      ['state', 'outcome_date', 'recommended_for_award_at'],
      ['state', 'awarded_at'],
    ]);
    const last = traineeTimeline(await read('T4')).at(-1)!;
    expect(last.changed_fields).toEqual(['state', 'withdrawal']);
    // The withdrawal as its event holds it, its keys in the order the events have always had.
    expect(Object.keys(last.changes.withdrawal as object)).toEqual([
      'date',
      'trigger',
      'future_interest',
      'reasons',
      'another_reason',
      'safeguarding_concern_reasons',
    ]);
  });

  it('answers the trainee as it stood at any instant of dozens of changes, null before it existed', async () => {
    const w = new TraineeWriter(store, 'T2');
    const snapshots: { at: string; trainee: Trainee }[] = [{ at: at(0), trainee: await w.register(at(0)) }];
    const fields = [
      'first_names',
      'middle_names',
      'last_name',
      'previous_last_name',
      'email',
      'ni_number',
      'provider_trainee_id',
      'application_id',
    ];
    for (let i = 1; i <= 40; i++) {
      const field = fields[i % fields.length];
      const value =
        field === 'email'
          ? `p${i}@example.com`
          : field === 'application_id'
            ? 1000 + i
            : field === 'ni_number'
              ? `QQ 12 34 ${String(i).padStart(2, '0')} C`
              : `V${i}`;
      snapshots.push({ at: at(i * 60), trainee: await w.update(at(i * 60), { [field]: value } as Partial<TraineeDetails>) });
    }
    const recorded = await read('T2');
    expect(traineeTimeline(recorded)).toHaveLength(4 + 40);

    expect(traineeAsOf(recorded, at(-1))).toBeNull();
    expect(traineeAsOf(recorded, '2026-01-05T09:59:59.999Z')).toBeNull();
    for (const [i, s] of snapshots.entries()) {
      expect(traineeAsOf(recorded, s.at)).toEqual(s.trainee);
      // Half-way to the next change, and the last millisecond before it: still this state.
      expect(traineeAsOf(recorded, new Date(Date.parse(s.at) + 30_000))).toEqual(s.trainee);
      if (i + 1 < snapshots.length) expect(traineeAsOf(recorded, new Date(Date.parse(snapshots[i + 1].at) - 1))).toEqual(s.trainee);
    }
    expect(traineeAsOf(recorded, '2099-01-01T00:00:00Z')).toEqual(w.state.exists && w.state.trainee);
    // An instant with an offset names the same moment as its UTC form.
    expect(traineeAsOf(recorded, parseInstant('2026-01-05T11:10:00+01:00')!)).toEqual(snapshots[10].trainee);
  });

  it('reads old schema versions through the upcasters and passes over events of unknown types', async () => {
    // A hypothetical schema 0 of TraineeUpdated named its changes `fields`.
    registerUpcaster('TraineeUpdated', 0, (data) => {
      const { fields, ...rest } = data as { fields: Record<string, unknown> };
      return { ...rest, changes: fields };
    });
    const w = new TraineeWriter(store, 'T3');
    await w.register(at(0));
    await store.appendToStream(traineeStreamId('T3'), [
      {
        id: '0b0f7c5e-1d7a-4c2e-8f0e-2b7e8c1d9a01',
        type: 'TraineeUpdated',
        data: { trainee_id: 'T3', fields: { middle_names: 'Old' }, at: at(5) },
        metadata: { schemaVersion: 0, occurredAt: at(5), providerUkprn: UKPRN },
      },
      {
        id: '0b0f7c5e-1d7a-4c2e-8f0e-2b7e8c1d9a02',
        type: 'SomethingNew',
        data: { trainee_id: 'T3' },
        metadata: { schemaVersion: 1, occurredAt: at(6) },
      },
    ]);
    const recorded = await read('T3');
    const timeline = traineeTimeline(recorded);
    expect(timeline.slice(-2)).toEqual([
      expect.objectContaining({
        event_type: 'TraineeUpdated',
        changed_fields: ['middle_names'],
        changes: { middle_names: 'Old' },
        token_id: null,
      }),
      expect.objectContaining({ event_type: 'SomethingNew', changed_fields: [], changes: {}, occurred_at: at(6) }),
    ]);
    expect(traineeAsOf(recorded, at(10))?.details.middle_names).toBe('Old');
    expect(traineeAsOf(recorded, at(4))?.details.middle_names).toBe('Ryan');
  });

  it('loads a stream by the exact id, resolves another case through the given resolver, and knows the owner', async () => {
    const w = new TraineeWriter(store, 'AbC123');
    await w.register(at(0));
    const exact = await loadTraineeHistory(store, 'AbC123');
    expect(exact).toMatchObject({ traineeId: 'AbC123', ukprn: UKPRN });
    expect(exact!.events).toHaveLength(4);

    expect(await loadTraineeHistory(store, 'abc123')).toBeNull();
    const asked: string[] = [];
    const resolveId = async (id: string) => {
      asked.push(id);
      return id.toLowerCase() === 'abc123' ? 'AbC123' : null;
    };
    expect(await loadTraineeHistory(store, 'ABC123', { resolveId })).toMatchObject({ traineeId: 'AbC123', ukprn: UKPRN });
    expect(await loadTraineeHistory(store, 'nope', { resolveId })).toBeNull();
    expect(await loadTraineeHistory(store, 'AbC123', { resolveId })).not.toBeNull();
    expect(asked).toEqual(['ABC123', 'nope']); // the resolver is asked only when the exact id names no stream
    expect(ownerOf([])).toBeNull();
  });

  it('shows token ids only on events of the provider asking', () => {
    const base = {
      position: 1,
      revision: 0,
      occurred_at: at(0),
      event_type: 'TraineeUpdated',
      changed_fields: [],
      changes: {},
      api_version: 'v2025.0',
      request_id: null,
      hash: null,
      previous_hash: null,
    };
    const entries = [
      { ...base, provider_ukprn: UKPRN, token_id: 'mine' },
      { ...base, provider_ukprn: '10000002', token_id: 'theirs' },
      { ...base, provider_ukprn: null, token_id: 'unknown' },
      { ...base, provider_ukprn: '10000002', token_id: null },
    ];
    expect(timelineForProvider(entries, UKPRN).map((e) => e.token_id)).toEqual(['mine', null, null, null]);
  });

  it('replays 1,000 events of one stream (timeline and as-of) with the same results as a plain fold', async () => {
    const w = new TraineeWriter(store, 'T4');
    await w.register(at(0));
    for (let i = 1; i <= 996; i++) await w.update(at(i), { middle_names: `M${i}` });
    const recorded = await read('T4');
    expect(recorded).toHaveLength(1000);
    const timeline = traineeTimeline(recorded);
    expect(timeline).toHaveLength(1000);
    expect(timeline[999]).toMatchObject({ changed_fields: ['middle_names'], changes: { middle_names: 'M996' } });
    expect(traineeAsOf(recorded, at(500))?.details.middle_names).toBe('M500');
    expect(traineeAsOf(recorded, at(2000))).toEqual(w.state.exists && w.state.trainee);
  });
});

describe('parseInstant (ISO 8601 instants)', () => {
  it.each([
    ['2026-01-05T10:00:00Z', '2026-01-05T10:00:00.000Z'],
    ['2026-01-05T10:00:00.123Z', '2026-01-05T10:00:00.123Z'],
    ['2026-01-05T10:00:00.123456789Z', '2026-01-05T10:00:00.123Z'],
    ['2026-01-05T10:00:00,5Z', '2026-01-05T10:00:00.500Z'],
    ['2026-01-05T10:00Z', '2026-01-05T10:00:00.000Z'],
    ['2026-01-05t10:00:00z', '2026-01-05T10:00:00.000Z'],
    ['2026-01-05T11:00:00+01:00', '2026-01-05T10:00:00.000Z'],
    ['2026-01-05T05:30:00-0430', '2026-01-05T10:00:00.000Z'],
    ['2026-01-05T12:00:00+02', '2026-01-05T10:00:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
    ['0099-01-01T00:00:00Z', '0099-01-01T00:00:00.000Z'],
  ])('reads %s as %s', (text, iso) => {
    expect(parseInstant(text)?.toISOString()).toBe(iso);
  });

  it.each([
    '2026-01-05',
    '2026-01-05T10:00:00',
    '2026-01-05 10:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-32T00:00:00Z',
    '2026-01-05T24:00:00Z',
    '2026-01-05T10:60:00Z',
    '2026-01-05T10:00:00+25:00',
    'yesterday',
    '',
    '1767607200000',
  ])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeNull();
  });
});
