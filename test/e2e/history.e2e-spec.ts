import { hashToken } from '@app/providers/write';
import { AdminWorker } from '../support/admin-cli';
import { RunningApi, type JsonResponse } from '../support/api-harness';
import { uniqueTrainee, type Version } from '../support/trainee-input';

const VERSIONS: Version[] = ['v2025.0', 'v2026.1'];
const NOT_FOUND = { errors: [{ error: 'NotFound', message: 'Trainee(s) not found' }] };
const BAD_AS_OF = { errors: [{ error: 'UnprocessableEntity', message: 'as_of is not a valid ISO 8601 instant' }] };
const DEGREE = { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: '2003-06-01' };

/** What a write was and what GET /trainees/{id} answered right after it, in both versions. */
interface Step {
  eventTypes: string[];
  version: Version;
  requestId: string;
  /** The trainee fields the write changed (canonical names) and their new values, for updates. */
  changes?: Record<string, unknown>;
  updatedAt: string;
  get: Record<Version, unknown>;
}

/**
 * The admin CLI loaded once in a process of its own, for commands run again here; the first run of
 * each command, and the runs about the program itself, start it as operators do.
 */
const admin = AdminWorker.forFile();

describe('trainee history over HTTP (docs/operations.md "Trainee history"; an extension beyond the spec)', () => {
  let api: RunningApi;
  let token: string;
  let tokenId: string;
  let otherToken: string;
  let traineeId: string;
  const steps: Step[] = [];
  let requests = 0;

  const path = (version: Version, suffix = '') => `/api/${version}/trainees/${traineeId}${suffix}`;

  async function snapshot(): Promise<Record<Version, unknown>> {
    const [a, b] = await Promise.all(VERSIONS.map((v) => api.request('GET', path(v), token)));
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    return { 'v2025.0': a.body.data, 'v2026.1': b.body.data };
  }

  /** Sends a write with a known request id, then captures the trainee as GET answers it. */
  async function write(
    version: Version,
    method: string,
    suffix: string,
    body: unknown,
    eventTypes: string[],
    changes?: Record<string, unknown>,
  ): Promise<JsonResponse> {
    const requestId = `history-e2e-${++requests}`;
    const res = await api.request(method, path(version, suffix), token, body, { 'x-request-id': requestId });
    if (![200, 201].includes(res.status)) throw new Error(`${method} ${suffix} ${JSON.stringify(body)}: ${res.status} ${res.text}`);
    const get = await snapshot();
    steps.push({ eventTypes, version, requestId, changes, updatedAt: (get['v2025.0'] as { updated_at: string }).updated_at, get });
    return res;
  }

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000090');
    otherToken = await api.providerToken('10000091');
    tokenId = (await api.infra.readModel.findTokenByHash(hashToken(token)))!.token_id;

    // Created in v2025.0 with one placement and one degree.
    const requestId = `history-e2e-${++requests}`;
    const created = await api.request('POST', '/api/v2025.0/trainees', token, uniqueTrainee('v2025.0'), { 'x-request-id': requestId });
    expect(created.status).toBe(201);
    traineeId = created.body.data.trainee_id;
    const get = await snapshot();
    steps.push({
      eventTypes: ['TraineeRegistered', 'PlacementAdded', 'DegreeAdded', 'TraineeSubmittedForTrn'],
      version: 'v2025.0',
      requestId,
      updatedAt: (get['v2025.0'] as { updated_at: string }).updated_at,
      get,
    });

    // 32 updates of different fields, alternating the API version.
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
    for (let i = 1; i <= 32; i++) {
      const version = VERSIONS[i % 2];
      const field = fields[i % fields.length];
      const changes: Record<string, unknown> = {
        [field]:
          field === 'email'
            ? `audit.${i}@example.com`
            : field === 'application_id'
              ? 100 + i
              : field === 'ni_number'
                ? `QQ 12 34 ${String(i).padStart(2, '0')} C`
                : `Audit${'abcdefghijklmnopqrstuvwxyzABCDEF'[i - 1]}`,
      };
      if (i % 5 === 0) changes.middle_names = `Second${'abcdefgh'[i / 5]}`; // some updates change two fields
      await write(version, 'PATCH', '', { data: changes }, ['TraineeUpdated'], changes);
    }

    // Placements and degrees.
    const placement = await write('v2025.0', 'POST', '/placements', { data: { urn: '100001', name: 'Oak School', postcode: 'GU1 6FR' } }, [
      'PlacementAdded',
    ]);
    await write('v2026.1', 'PATCH', `/placements/${placement.body.data.placement_id}`, { data: { name: 'Fir Academy' } }, [
      'PlacementUpdated',
    ]);
    const degree = await write('v2026.1', 'POST', '/degrees', { data: { ...DEGREE, subject: '100366', grade: '03' } }, ['DegreeAdded']);
    await write('v2025.0', 'PATCH', `/degrees/${degree.body.data[0].degree_id}`, { data: { grade: '01' } }, ['DegreeUpdated']);
    await write('v2025.0', 'DELETE', `/placements/${placement.body.data.placement_id}`, undefined, ['PlacementRemoved']);
    await write('v2026.1', 'PATCH', '', { data: { first_names: 'Finally' } }, ['TraineeUpdated'], { first_names: 'Finally' });
  });
  afterAll(() => api.close());

  it('answers the whole timeline, oldest first, with what changed, who changed it and through which version', async () => {
    const res = await api.request('GET', path('v2025.0', '/history'), token);
    expect(res.status).toBe(200);
    // Fewer events than a default page of 100: one page, nothing more.
    expect(res.body.has_more).toBe(false);
    expect(res.body.next_cursor).toMatch(/^[A-Za-z0-9_-]{23}$/);
    const timeline: Record<string, any>[] = res.body.data;
    const expectedTypes = steps.flatMap((s) => s.eventTypes);
    expect(expectedTypes.length).toBeGreaterThanOrEqual(40);
    expect(timeline.map((e) => e.event_type)).toEqual(expectedTypes);
    expect(timeline.map((e) => e.revision)).toEqual(expectedTypes.map((_, i) => i));
    for (let i = 1; i < timeline.length; i++) {
      expect(timeline[i].occurred_at >= timeline[i - 1].occurred_at).toBe(true);
      // Each event is chained to the one before it (docs/DESIGN.md "Verifiable history").
      expect(timeline[i].previous_hash).toBe(timeline[i - 1].hash);
    }
    expect(timeline[0].previous_hash).toBeNull();
    expect(timeline.every((e) => /^[0-9a-f]{64}$/.test(String(e.hash)))).toBe(true);

    let i = 0;
    for (const step of steps) {
      for (const _ of step.eventTypes) {
        const entry = timeline[i++];
        expect(Object.keys(entry).sort()).toEqual([
          'api_version',
          'changed_fields',
          'changes',
          'event_id',
          'event_type',
          'hash',
          'occurred_at',
          'previous_hash',
          'provider_ukprn',
          'request_id',
          'revision',
          'stored_data',
          'stored_metadata',
          'stream_id',
          'token_id',
        ]);
        expect(entry).toMatchObject({
          provider_ukprn: '10000090',
          token_id: tokenId,
          api_version: step.version,
          request_id: step.requestId,
        });
        expect(Object.keys(entry.changes)).toEqual(entry.changed_fields);
      }
      // The last event of a write carries the write's instant, which is the trainee's updated_at after it.
      expect(timeline[i - 1].occurred_at).toBe(step.updatedAt);
      if (step.changes) {
        expect(timeline[i - 1].changed_fields.slice().sort()).toEqual(Object.keys(step.changes).sort());
        expect(timeline[i - 1].changes).toEqual(step.changes);
      }
    }

    const registered = timeline[0];
    expect(registered.changed_fields).toEqual(
      expect.arrayContaining(['trainee_id', 'state', 'first_names', 'last_name', 'date_of_birth', 'course_subject_1']),
    );
    expect(registered.changes).toMatchObject({ trainee_id: traineeId, state: 'draft', ukprn: '10000090' });
    expect(timeline[3]).toMatchObject({
      event_type: 'TraineeSubmittedForTrn',
      changed_fields: ['state', 'submitted_for_trn_at'],
      changes: { state: 'submitted_for_trn' },
    });
    const subResources = timeline.filter((e) => /^(Placement|Degree)/.test(e.event_type)).slice(2);
    expect(subResources.map((e) => [e.event_type, e.changed_fields])).toEqual([
      ['PlacementAdded', ['placements']],
      ['PlacementUpdated', ['placements']],
      ['DegreeAdded', ['degrees']],
      ['DegreeUpdated', ['degrees']],
      ['PlacementRemoved', ['placements']],
    ]);
    expect(subResources[0].changes.placements).toMatchObject({ urn: '100001', name: 'Oak School', postcode: 'GU1 6FR' });
    // An updated placement: the whole placement as it then stood (each entry is computed from its own event).
    expect(subResources[1].changes.placements).toMatchObject({
      placement_id: subResources[0].changes.placements.placement_id,
      name: 'Fir Academy',
      urn: '100001',
      postcode: 'GU1 6FR',
    });
    expect(subResources[3].changes.degrees).toMatchObject({ grade: '01' });
    expect(subResources[4].changes.placements).toEqual({ placement_id: subResources[0].changes.placements.placement_id, removed: true });

    // The same timeline in the other version (canonical field names in both), and through an id in another case.
    const other = await api.request('GET', path('v2026.1', '/history'), token);
    expect(other.status).toBe(200);
    expect(other.body).toEqual(res.body);
    const lower = await api.request('GET', `/api/v2025.0/trainees/${traineeId.toLowerCase()}/history`, token);
    expect(lower.status).toBe(200);
    expect(lower.body).toEqual(res.body);
  });

  it('prints the same timeline with the admin CLI: a table, or JSON lines with --json', async () => {
    const http = (await api.request('GET', path('v2025.0', '/history'), token)).body.data;
    const json = await admin.run(['trainee', 'history', traineeId, '--json'], api.dataDir);
    expect(json.stderr).toBe('');
    expect(json.code).toBe(0);
    const lines: Record<string, any>[] = json.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    // The CLI, for operators, shows each event's global position, in log order; the API's answer to a provider does not.
    expect(lines.map(({ position: _position, ...entry }) => entry)).toEqual(http);
    for (let i = 1; i < lines.length; i++) expect(lines[i].position).toBeGreaterThan(lines[i - 1].position);

    const table = await admin.run(['trainee', 'history', traineeId], api.dataDir);
    expect(table.code).toBe(0);
    const rows = table.stdout.trimEnd().split('\n');
    expect(rows[0].split(/\s+/)).toEqual(['POSITION', 'TIME', 'EVENT', 'PROVIDER', 'TOKEN_ID', 'API_VERSION', 'CHANGED_FIELDS']);
    expect(rows).toHaveLength(http.length + 1);
    // Aligned: every column starts where its title does.
    const starts = ['TIME', 'EVENT', 'PROVIDER', 'TOKEN_ID', 'API_VERSION', 'CHANGED_FIELDS'].map((t) => rows[0].indexOf(t));
    for (const [k, row] of rows.slice(1).entries()) {
      const e = http[k];
      expect(row.startsWith(String(lines[k].position))).toBe(true);
      expect(row.slice(starts[0]).startsWith(e.occurred_at)).toBe(true);
      expect(row.slice(starts[1]).startsWith(e.event_type)).toBe(true);
      expect(row.slice(starts[2]).startsWith('10000090')).toBe(true);
      expect(row.slice(starts[3]).startsWith(tokenId)).toBe(true);
      expect(row.slice(starts[4]).startsWith(e.api_version)).toBe(true);
      expect(row.slice(starts[5])).toBe(e.changed_fields.join(','));
    }
  });

  it('prints the trainee as it stood at --as-of with the admin CLI, in the chosen version (v2026.1 by default)', async () => {
    const step = steps.find((s, k) => k > 5 && k + 1 < steps.length && steps[k + 1].updatedAt > s.updatedAt)!;
    const v2025 = await admin.run(['trainee', 'history', traineeId, '--as-of', step.updatedAt, '--api-version', 'v2025.0'], api.dataDir);
    expect(v2025.code).toBe(0);
    expect(JSON.parse(v2025.stdout)).toEqual(step.get['v2025.0']);
    const latest = await admin.run(['trainee', 'history', traineeId.toLowerCase(), '--as-of', step.updatedAt], api.dataDir);
    expect(latest.code).toBe(0);
    expect(JSON.parse(latest.stdout)).toEqual(step.get['v2026.1']);

    const early = await admin.run(['trainee', 'history', traineeId, '--as-of', '2000-01-01T00:00:00Z'], api.dataDir);
    expect(early.code).toBe(1);
    expect(early.stderr).toContain(`did not exist yet at 2000-01-01T00:00:00.000Z`);
    const unknown = await admin.run(['trainee', 'history', 'NoSuchTrainee'], api.dataDir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe('Error: No trainee with id NoSuchTrainee\n');
    const bad = await admin.run(['trainee', 'history', traineeId, '--as-of', 'yesterday'], api.dataDir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('not an ISO 8601 instant');
    const badVersion = await admin.run(['trainee', 'history', traineeId, '--as-of', step.updatedAt, '--api-version', 'v1.0'], api.dataDir);
    expect(badVersion.code).toBe(2);
  }, 60_000);

  it.each(VERSIONS)('answers with as_of the trainee as GET answered it at that instant, in %s', async (version) => {
    // Every write whose instant is strictly before the next write's names one state.
    const distinct = steps.filter((s, k) => k + 1 === steps.length || steps[k + 1].updatedAt > s.updatedAt);
    expect(distinct.length).toBeGreaterThanOrEqual(10);
    for (const step of distinct) {
      const res = await api.request('GET', `${path(version, '/history')}?as_of=${encodeURIComponent(step.updatedAt)}`, token);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: step.get[version] });
    }
    // Between two writes: the earlier state. Far in the future: the state now.
    const [a, b] = [steps[10], steps[11]];
    if (b.updatedAt > a.updatedAt) {
      const between = new Date(Date.parse(b.updatedAt) - 1).toISOString();
      expect((await api.request('GET', `${path(version, '/history')}?as_of=${between}`, token)).body).toEqual({ data: a.get[version] });
    }
    const now = await api.request('GET', path(version), token);
    expect((await api.request('GET', `${path(version, '/history')}?as_of=2999-01-01T00:00:00Z`, token)).body).toEqual(now.body);
  });

  it('reads an as_of with an offset, sent encoded or with its + left unencoded', async () => {
    const step = steps[5];
    const local = new Date(Date.parse(step.updatedAt) + 3_600_000).toISOString().replace('Z', '+01:00');
    const encoded = await api.request('GET', `${path('v2026.1', '/history')}?as_of=${encodeURIComponent(local)}`, token);
    expect(encoded.status).toBe(200);
    const raw = await api.request('GET', `${path('v2026.1', '/history')}?as_of=${local}`, token);
    expect(raw.status).toBe(200);
    if (steps[6].updatedAt > step.updatedAt) {
      expect(encoded.body).toEqual({ data: step.get['v2026.1'] });
      expect(raw.body).toEqual(encoded.body);
    }
  });

  it('answers 404 Trainee(s) not found for an instant before the trainee existed', async () => {
    const created = steps[0].get['v2025.0'] as { created_at: string };
    const before = new Date(Date.parse(created.created_at) - 1).toISOString();
    for (const version of VERSIONS) {
      const res = await api.request('GET', `${path(version, '/history')}?as_of=${before}`, token);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });

  it.each(['yesterday', '2026-01-05', '2026-01-05T10:00:00', '2026-02-30T10:00:00Z', ''])('answers 422 for as_of=%j', async (value) => {
    for (const version of VERSIONS) {
      const res = await api.request('GET', `${path(version, '/history')}?as_of=${encodeURIComponent(value)}`, token);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(BAD_AS_OF);
    }
    const twice = await api.request('GET', `${path('v2025.0', '/history')}?as_of=2026-01-05T10:00:00Z&as_of=2026-01-06T10:00:00Z`, token);
    expect(twice.status).toBe(422);
  });

  it("answers 404 for another provider's trainee and an unknown one, and 401 without a token", async () => {
    for (const version of VERSIONS) {
      for (const query of ['', `?as_of=${encodeURIComponent(steps[3].updatedAt)}`, '?as_of=nonsense']) {
        const theirs = await api.request('GET', `${path(version, '/history')}${query}`, otherToken);
        expect(theirs.status).toBe(404);
        expect(theirs.body).toEqual(NOT_FOUND);
        const unknown = await api.request('GET', `/api/${version}/trainees/NoSuchTrainee12345678901/history${query}`, token);
        expect(unknown.status).toBe(404);
        expect(unknown.body).toEqual(NOT_FOUND);
      }
    }
    const anonymous = await api.request('GET', path('v2025.0', '/history'), null);
    expect(anonymous.status).toBe(401);
  });

  it('shows the token id of the writing token, never a token, and follows later writes at once', async () => {
    const res = await api.request('GET', path('v2025.0', '/history'), token);
    expect(res.text).not.toContain(token);
    expect(res.text).not.toContain(token.replace(/^sandbox_/, ''));
    // A second token of the same provider: its writes carry its own id.
    const second = await api.providerToken('10000090');
    const secondId = (await api.infra.readModel.findTokenByHash(hashToken(second)))!.token_id;
    const patched = await api.request('PATCH', path('v2026.1'), second, { data: { middle_names: 'Later' } });
    expect(patched.status).toBe(200);
    const after = await api.request('GET', path('v2026.1', '/history'), second);
    const last = after.body.data[after.body.data.length - 1];
    expect(after.body.data).toHaveLength(res.body.data.length + 1);
    expect(last).toMatchObject({
      event_type: 'TraineeUpdated',
      changed_fields: ['middle_names'],
      changes: { middle_names: 'Later' },
      token_id: secondId,
      api_version: 'v2026.1',
    });
    expect(secondId).not.toBe(tokenId);
  });
  it('answers the timeline in pages: following next_cursor to has_more false gives the whole timeline, and later writes', async () => {
    const whole = (await api.request('GET', path('v2026.1', '/history'), token)).body.data;
    expect(whole.length).toBeGreaterThan(40);
    const pages: { data: unknown[]; next_cursor: string; has_more: boolean }[] = [];
    let after = '';
    for (;;) {
      const res = await api.request('GET', `${path(pages.length % 2 ? 'v2025.0' : 'v2026.1', '/history')}?limit=7&after=${after}`, token);
      expect(res.status).toBe(200);
      pages.push(res.body);
      if (!res.body.has_more) break;
      after = res.body.next_cursor;
    }
    expect(pages.map((p) => p.data.length)).toEqual([...Array(Math.ceil(whole.length / 7) - 1).fill(7), whole.length % 7 || 7]);
    expect(pages.flatMap((p) => p.data)).toEqual(whole);
    // The same cursor through the id in another case; the end's cursor answers nothing yet, then the next write.
    const last = pages[pages.length - 1].next_cursor;
    const end = await api.request('GET', `/api/v2025.0/trainees/${traineeId.toLowerCase()}/history?after=${last}`, token);
    expect(end.body).toEqual({ data: [], next_cursor: last, has_more: false });
    expect((await api.request('PATCH', path('v2026.1'), token, { data: { middle_names: 'Paged' } })).status).toBe(200);
    const next = await api.request('GET', `${path('v2025.0', '/history')}?after=${last}`, token);
    expect(next.body.data).toEqual([expect.objectContaining({ event_type: 'TraineeUpdated', changes: { middle_names: 'Paged' } })]);
    expect(next.body.has_more).toBe(false);
  });

  it("answers 422 in the list's shape for a bad limit, or a cursor of another trainee or of the change feed", async () => {
    const listError = (errors: Record<string, string[]>) => ({
      message: `Validation failed: ${Object.keys(errors).length} error${Object.keys(errors).length > 1 ? 's' : ''} prohibited this request being run`,
      errors,
    });
    for (const limit of ['0', '1001', 'ten', '-5']) {
      const res = await api.request('GET', `${path('v2025.0', '/history')}?limit=${limit}`, token);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(listError({ limit: ['must be an integer from 1 to 1000'] }));
    }
    const guessed = await api.request('GET', `${path('v2025.0', '/history')}?cursor=abc`, token);
    expect(guessed.status).toBe(422);
    expect(guessed.body).toEqual(listError({ cursor: ['is not a parameter of this endpoint; it takes after, limit, as_of'] }));
    const other = await api.request('POST', '/api/v2025.0/trainees', token, uniqueTrainee('v2025.0'));
    expect(other.status).toBe(201);
    const otherPath = `/api/v2025.0/trainees/${other.body.data.trainee_id}/history`;
    const theirs = (await api.request('GET', `${otherPath}?limit=1`, token)).body.next_cursor;
    const feed = (await api.request('GET', '/api/v2025.0/changes?limit=1', token)).body.next_cursor;
    for (const after of [theirs, feed, 'AAAAAAAAAAAAAAAAAAAAAAA']) {
      const res = await api.request('GET', `${path('v2025.0', '/history')}?after=${after}`, token);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(listError({ after: [`${after} is not a valid cursor`] }));
    }
    // The other trainee's own cursor is good for it; another provider gets 404 for the trainee, whatever the cursor.
    expect((await api.request('GET', `${otherPath}?after=${theirs}`, token)).status).toBe(200);
    const stranger = await api.request('GET', `${otherPath}?after=${theirs}&limit=0`, otherToken);
    expect(stranger.status).toBe(404);
    expect(stranger.body).toEqual(NOT_FOUND);
  });
});
