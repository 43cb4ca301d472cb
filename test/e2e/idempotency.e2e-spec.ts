/**
 * Idempotent retries over HTTP (docs/operations.md "Limits"): a write sent again with the same
 * `Idempotency-Key` after a lost answer writes once and answers the first answer again; the key is
 * kept per token, bound to its method, path and body, and survives a restart. The 24-hour expiry is
 * tested at the store level with the time passed in (test/contract/idempotency-store.contract.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rebuildProjection } from '@app/runtime/rebuild';
import { SqliteReadModel } from '@app/stores/sqlite';
import { RunningApi, TEST_SCHOOLS, type JsonResponse } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

const version = 'v2026.1';
const base = `/api/${version}/trainees`;
const DEGREE = { grade: '02', subject: '100425', institution: '0116', uk_degree: '083', graduation_year: '2003-06-01' };
const REUSED = 'This Idempotency-Key was used with another request (another path or body)';

describe('Idempotency-Key on writes (docs/operations.md "Limits", idempotent retries)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'trainee-records-idem-'));
  let api: RunningApi;
  let token: string;
  let secondToken: string;
  let keys = 0;
  const newKey = () => `key-${process.pid}-${++keys}`;
  const key = (k: string) => ({ 'idempotency-key': k });

  beforeAll(async () => {
    api = await RunningApi.start({ dataDir });
    token = await api.providerToken('10000070');
    secondToken = await api.providerToken('10000070');
    await api.infra.schools.upsertMany(TEST_SCHOOLS);
  });
  afterAll(async () => {
    await api.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function newTrainee(): Promise<string> {
    const res = await api.request('POST', base, token, uniqueTrainee(version, { placements_attributes: [], degrees_attributes: [] }));
    expect(res.status).toBe(201);
    return res.body.data.trainee_id as string;
  }

  async function count(path: string): Promise<number> {
    return (await api.request('GET', path, token)).body.data.length as number;
  }

  function expectReplay(first: JsonResponse, again: JsonResponse): void {
    expect(again.status).toBe(first.status);
    expect(again.text).toBe(first.text);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  }

  it('a placement POST retried with its key creates one placement and answers the same 201 twice', async () => {
    const id = await newTrainee();
    const k = newKey();
    const first = await api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '100001' } }, key(k));
    expect(first.status).toBe(201);
    const again = await api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '100001' } }, key(k));
    expectReplay(first, again);
    expect(await count(`${base}/${id}/placements`)).toBe(1);
  });

  it('a degree POST retried (keys in another order, other spacing) creates one degree', async () => {
    const id = await newTrainee();
    const k = newKey();
    const first = await api.request('POST', `${base}/${id}/degrees`, token, { data: DEGREE }, key(k));
    expect(first.status).toBe(201);
    const reordered = JSON.stringify({ data: Object.fromEntries(Object.entries(DEGREE).reverse()) }, null, 2);
    const again = await api.request('POST', `${base}/${id}/degrees`, token, reordered, key(k));
    expectReplay(first, again);
    expect(await count(`${base}/${id}/degrees`)).toBe(1);
  });

  it('a trainee create retried with its key registers one trainee', async () => {
    const body = uniqueTrainee(version);
    const k = newKey();
    const first = await api.request('POST', base, token, body, key(k));
    expect(first.status).toBe(201);
    const again = await api.request('POST', base, token, body, key(k));
    expectReplay(first, again);
    const events = await api.infra.eventStore.readStream(`trainee-${first.body.data.trainee_id}`);
    const registered = [];
    for await (const e of events) if (e.type === 'TraineeRegistered') registered.push(e);
    expect(registered).toHaveLength(1);
  });

  it('the same key with another body or another path answers 422 and writes nothing', async () => {
    const id = await newTrainee();
    const k = newKey();
    expect((await api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '100001' } }, key(k))).status).toBe(201);
    const otherBody = await api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '100002' } }, key(k));
    const otherPath = await api.request('POST', `${base}/${id}/degrees`, token, { data: DEGREE }, key(k));
    for (const res of [otherBody, otherPath]) {
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: [{ error: 'UnprocessableEntity', message: REUSED }] });
    }
    expect(await count(`${base}/${id}/placements`)).toBe(1);
    expect(await count(`${base}/${id}/degrees`)).toBe(0);
  });

  it('keys are kept per token, and without the header every POST writes', async () => {
    const id = await newTrainee();
    const k = newKey();
    const body = { data: { urn: '100001' } };
    const mine = await api.request('POST', `${base}/${id}/placements`, token, body, key(k));
    const theirs = await api.request('POST', `${base}/${id}/placements`, secondToken, body, key(k));
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.data.placement_id).not.toBe(mine.body.data.placement_id);
    await api.request('POST', `${base}/${id}/placements`, token, body);
    await api.request('POST', `${base}/${id}/placements`, token, body);
    expect(await count(`${base}/${id}/placements`)).toBe(4);
  });

  it('replays a 422 answered by the error filter; a malformed key answers 400 naming the header', async () => {
    const id = await newTrainee();
    const k = newKey();
    const first = await api.request('POST', `${base}/${id}/degrees`, token, { data: { uk_degree: '083' } }, key(k));
    expect(first.status).toBe(422);
    expectReplay(first, await api.request('POST', `${base}/${id}/degrees`, token, { data: { uk_degree: '083' } }, key(k)));
    for (const bad of ['', 'a b', 'x'.repeat(256), 'é']) {
      const res = await api.request('POST', `${base}/${id}/degrees`, token, { data: DEGREE }, { 'idempotency-key': bad });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        errors: [{ error: 'BadRequest', message: 'Idempotency-Key must be 1 to 255 visible ASCII characters' }],
      });
    }
    expect(await count(`${base}/${id}/degrees`)).toBe(0);
  });

  it('PATCH and DELETE retried with their keys answer the first answer (the DELETE is not a 404)', async () => {
    const id = await newTrainee();
    const placement = (await api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '100001' } })).body.data;
    const path = `${base}/${id}/placements/${placement.placement_id}`;
    const [kp, kd] = [newKey(), newKey()];
    const patched = await api.request('PATCH', path, token, { data: { name: 'Fir Academy' } }, key(kp));
    expectReplay(patched, await api.request('PATCH', path, token, { data: { name: 'Fir Academy' } }, key(kp)));
    const deleted = await api.request('DELETE', path, token, undefined, key(kd));
    expect(deleted.status).toBe(200);
    expectReplay(deleted, await api.request('DELETE', path, token, undefined, key(kd)));
  });

  it('of concurrent identical POSTs with one key, one writes; the others replay it or answer 409', async () => {
    const id = await newTrainee();
    const k = newKey();
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '100001' } }, key(k))),
    );
    expect(await count(`${base}/${id}/placements`)).toBe(1);
    const created = answers.filter((a) => a.status === 201);
    expect(created.length).toBeGreaterThanOrEqual(1);
    expect(new Set(created.map((a) => a.text)).size).toBe(1);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body.errors[0].error).toBe('Conflict');
    }
  });

  it('keeps the keys through a rebuild and swap of both projections (the old stores dropped)', async () => {
    const id = await newTrainee();
    const k = newKey();
    const first = await api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '100001' } }, key(k));
    const { eventStore, readModel } = api.infra;
    if (!(readModel instanceof SqliteReadModel)) throw new Error('the embedded read store was expected');
    for (const name of ['trainees', 'providers'] as const) await rebuildProjection(eventStore, readModel, name);
    expectReplay(first, await api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '100001' } }, key(k)));
    expect(await count(`${base}/${id}/placements`)).toBe(1);
  });

  it('keeps the keys across a restart on the same data', async () => {
    const id = await newTrainee();
    const k = newKey();
    const first = await api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '100001' } }, key(k));
    await api.close();
    api = await RunningApi.start({ dataDir });
    expectReplay(first, await api.request('POST', `${base}/${id}/placements`, token, { data: { urn: '100001' } }, key(k)));
    expect(await count(`${base}/${id}/placements`)).toBe(1);
  });

  it('documents Idempotency-Key on every POST, PUT, PATCH and DELETE of the served OpenAPI', async () => {
    const doc = (await api.request('GET', `/api/${version}/openapi.json`, null)).body;
    let writes = 0;
    for (const [path, item] of Object.entries<Record<string, { parameters?: { name: string; in: string }[] }>>(doc.paths)) {
      for (const method of ['post', 'put', 'patch', 'delete']) {
        const op = item[method];
        if (!op) continue;
        writes += 1;
        expect({ path, method, header: op.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key') }).toEqual({
          path,
          method,
          header: true,
        });
      }
    }
    expect(writes).toBeGreaterThanOrEqual(12);
  });
});
