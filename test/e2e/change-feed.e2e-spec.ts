import { CURSOR_CODEC, type CursorCodec } from '@app/changes';
import { RunningApi, type JsonResponse } from '../support/api-harness';
import { uniqueTrainee, type Version } from '../support/trainee-input';

/** A change as GET /changes answers it (docs/change-feed.md "What a change holds"). */
interface Change {
  cursor: string;
  occurred_at: string;
  trainee_id: string;
  type: string;
  changed_fields: string[];
  placement_id?: string;
  degree_id?: string;
  state: string;
  trn: string | null;
}

const A = '10000201';
const B = '10000202';

describe('the change feed, GET /api/{version}/changes (docs/change-feed.md)', () => {
  let api: RunningApi;
  let tokenA: string;
  let tokenB: string;
  const traineesOf: Record<string, Set<string>> = { [A]: new Set(), [B]: new Set() };

  async function create(token: string, ukprn: string, version: Version): Promise<string> {
    const res = await api.request('POST', `/api/${version}/trainees`, token, uniqueTrainee(version));
    expect(res.status).toBe(201);
    traineesOf[ukprn].add(res.body.data.trainee_id);
    return res.body.data.trainee_id as string;
  }

  function feed(token: string, version: Version, query = ''): Promise<JsonResponse> {
    return api.request('GET', `/api/${version}/changes${query}`, token);
  }

  /** Walks the whole feed with pages of `limit`, from the start (or `after`), and returns every change. */
  async function walk(token: string, version: Version, limit: number, after?: string): Promise<Change[]> {
    const changes: Change[] = [];
    let cursor = after;
    for (;;) {
      const res = await feed(token, version, `?limit=${limit}${cursor ? `&after=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(limit);
      changes.push(...(res.body.data as Change[]));
      cursor = res.body.next_cursor;
      if (!res.body.has_more) return changes;
    }
  }

  /** The API's cursor codec (its key is the sandbox's service key in the data dir). */
  const cursors = () => api.app.get<CursorCodec>(CURSOR_CODEC);

  /** The provider's trainee events in the log, in commit order: what its feed must hold, once each. */
  async function truth(ukprn: string): Promise<{ cursor: string; trainee_id: string; type: string }[]> {
    await api.infra.catchUp();
    const events = await api.infra.eventStore.readAll({ maxCount: 100_000, filter: { streamPrefixes: ['trainee-'] } });
    return events
      .filter((e) => traineesOf[ukprn].has(e.streamId.slice('trainee-'.length)))
      .map((e) => ({ cursor: cursors().encode(ukprn, e.position), trainee_id: e.streamId.slice('trainee-'.length), type: e.type }));
  }

  beforeAll(async () => {
    // TRNs are issued at once: the registry's changes to a provider's trainees are in its feed.
    api = await RunningApi.start({ registryTrnDelayMs: 0 });
    tokenA = await api.providerToken(A);
    tokenB = await api.providerToken(B);
    await create(tokenA, A, 'v2025.0');
    await create(tokenB, B, 'v2026.1');
  });

  afterAll(async () => {
    await api.close();
  });

  it('yields every change of the provider exactly once, in commit order, with any limit, while writes continue', async () => {
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 12; i++) {
        const id = await create(i % 3 === 0 ? tokenB : tokenA, i % 3 === 0 ? B : A, i % 2 === 0 ? 'v2025.0' : 'v2026.1');
        const patched = await api.request('PATCH', `/api/v2026.1/trainees/${id}`, i % 3 === 0 ? tokenB : tokenA, {
          data: { middle_names: `M${i}` },
        });
        expect(patched.status).toBe(200);
      }
      writing = false;
    })();
    // Walk while the writer writes: each walk resumes from where the previous one stopped.
    const walked: Record<number, Change[]> = { 1: [], 3: [], 7: [], 1000: [] };
    while (writing) {
      for (const limit of [1, 3, 7, 1000]) {
        const after = walked[limit].at(-1)?.cursor;
        walked[limit].push(...(await walk(tokenA, 'v2026.1', limit, after)));
      }
    }
    await writer;
    const expected = await truth(A);
    expect(expected.length).toBeGreaterThan(40);
    for (const limit of [1, 3, 7, 1000]) {
      walked[limit].push(...(await walk(tokenA, 'v2026.1', limit, walked[limit].at(-1)?.cursor)));
      expect(walked[limit].map((c) => ({ cursor: c.cursor, trainee_id: c.trainee_id, type: c.type }))).toEqual(expected);
    }
  });

  it("never mixes two providers' feeds, and holds the registry's changes to the provider's own trainees", async () => {
    const a = await walk(tokenA, 'v2025.0', 100);
    const b = await walk(tokenB, 'v2025.0', 100);
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect(a.every((c) => traineesOf[A].has(c.trainee_id))).toBe(true);
    expect(b.every((c) => traineesOf[B].has(c.trainee_id))).toBe(true);
    expect(b.map((c) => c.cursor)).toEqual((await truth(B)).map((c) => c.cursor));
    const trn = a.find((c) => c.type === 'TrnIssued');
    expect(trn).toMatchObject({ state: 'trn_received', changed_fields: expect.arrayContaining(['trn', 'state']) });
    expect(trn!.trn).toMatch(/^\d{7}$/);
  });

  it("names the changed fields in the path's version, and the placement or degree a change touched", async () => {
    const id = await create(tokenA, A, 'v2026.1');
    const patched = await api.request('PATCH', `/api/v2026.1/trainees/${id}`, tokenA, {
      data: { course_subject_2: '100366', course_subject_3: '101410' },
    });
    expect(patched.status).toBe(200);
    const placement = await api.request('POST', `/api/v2026.1/trainees/${id}/placements`, tokenA, {
      data: { urn: '100001', name: 'Oak School', postcode: 'GU1 6FR' },
    });
    expect(placement.status).toBe(201);
    const mine = async (version: Version) => (await walk(tokenA, version, 1000)).filter((c) => c.trainee_id === id);
    const [old, current] = [await mine('v2025.0'), await mine('v2026.1')];
    const update = (changes: Change[]) => changes.find((c) => c.type === 'TraineeUpdated')!;
    expect(update(old).changed_fields).toEqual(['course_subject_two', 'course_subject_three']);
    expect(update(current).changed_fields).toEqual(['course_subject_2', 'course_subject_3']);
    expect(update(current).changed_fields).not.toContain('updated_at');
    const added = current.filter((c) => c.type === 'PlacementAdded').at(-1)!;
    expect(added).toMatchObject({
      placement_id: placement.body.data.placement_id,
      changed_fields: expect.arrayContaining(['urn', 'name']),
    });
    expect(added).not.toHaveProperty('degree_id');
    expect(update(current)).not.toHaveProperty('placement_id');
    const registered = current.find((c) => c.type === 'TraineeRegistered')!;
    expect(registered.changed_fields).toEqual(expect.arrayContaining(['first_names', 'last_name', 'date_of_birth']));
  });

  it('answers an empty page at the end, with next_cursor the cursor sent', async () => {
    const all = await walk(tokenB, 'v2026.1', 1000);
    const last = all.at(-1)!.cursor;
    const res = await feed(tokenB, 'v2026.1', `?after=${last}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: [], next_cursor: last, has_more: false });
  });

  it.each([
    ['a cursor it did not make', '?after=abc', 'after'],
    ['a cursor of a negative position, in the old format', `?after=${Buffer.from('p1.-1').toString('base64url')}`, 'after'],
    ['a cursor in the old format (p1.<position>)', `?after=${Buffer.from('p1.1').toString('base64url')}`, 'after'],
    ['a cursor of 5,000 characters', `?after=${'A'.repeat(5000)}`, 'after'],
    ['limit 0', '?limit=0', 'limit'],
    ['limit 1001', '?limit=1001', 'limit'],
    ['limit ten', '?limit=ten', 'limit'],
    ['limit -5', '?limit=-5', 'limit'],
    ['a parameter it does not take, such as cursor for after', '?cursor=abc', 'cursor'],
    ['a misspelt limit', '?limt=5', 'limt'],
  ])('refuses %s with the list 422 shape, naming the parameter', async (_, query, param) => {
    const res = await feed(tokenA, 'v2026.1', query);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Validation failed: 1 error prohibited this request being run');
    expect(Object.keys(res.body.errors)).toEqual([param]);
  });

  it("refuses another provider's cursor, and one of its own with a bit changed, as a cursor it did not make", async () => {
    const ofB = (await walk(tokenB, 'v2026.1', 1000)).at(-1)!.cursor;
    const res = await feed(tokenA, 'v2026.1', `?after=${ofB}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.after[0]).toMatch(/is not a valid cursor/);
    const ofA = Buffer.from((await walk(tokenA, 'v2026.1', 1000)).at(-1)!.cursor, 'base64url');
    ofA[ofA.length - 1] ^= 1;
    expect((await feed(tokenA, 'v2026.1', `?after=${ofA.toString('base64url')}`)).status).toBe(422);
  });

  it('needs a token', async () => {
    const res = await feed('not-a-token', 'v2026.1');
    expect(res.status).toBe(401);
  });
});
