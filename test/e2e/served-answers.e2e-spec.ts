/**
 * Answers an outside review found the served OpenAPI documents did not describe, or inputs they
 * bound that the service took past the bound: each now answered as the document says. Every
 * request goes through the harness, which checks the answer (status, body, headers sent) and an
 * accepted body against the served document.
 */
import { EventStoreUnavailableError, type EventStore } from '@app/event-sourcing';
import { TRAINEE_WRITE_PORTS, type TraineeWritePorts } from '@app/trainees/write';
import { hashToken } from '@app/providers/write';
import { ReadModelsDamaged } from '@app/runtime/projector';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from '@app/runtime/idempotency';
import { PROVIDER_READ_MODEL, type ProviderReadModel } from '@app/providers/read';
import { RunningApi } from '../support/api-harness';
import { checkAgainstServedDocument } from '../support/served-document';
import { uniqueTrainee } from '../support/trainee-input';
import { csvFile, traineeRows } from '../support/upload-files';
import { requestFingerprint } from '../../apps/api/src/idempotency/idempotency';

const V = 'v2026.1';
const UKPRN = '10000561';
const CSV = { 'content-type': 'text/csv' };

describe('answers the served documents describe', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start({ rateLimitIpPerMinute: 10_000, rateLimitTokenPerMinute: 10_000 });
    token = await api.providerToken(UKPRN);
  });
  afterAll(() => api.close());

  const file = (): string => csvFile(V, traineeRows(V, 1));

  describe('uploads', () => {
    it.each(['trainee-uploads', 'recommendation-uploads'])('answers a file not sent as text/csv to %s with 415', async (path) => {
      for (const type of ['text/plain', 'application/json', 'application/octet-stream']) {
        const res = await api.request('POST', `/api/${V}/${path}`, token, Buffer.from(file()), { 'content-type': type });
        expect([res.status, res.body]).toEqual([
          415,
          { errors: [{ error: 'UnsupportedMediaType', message: 'Send the file as the body, with Content-Type: text/csv' }] },
        ]);
      }
    });

    it('answers a malformed Idempotency-Key with 400 on every upload write', async () => {
      const created = await api.request('POST', `/api/${V}/trainee-uploads`, token, file(), CSV);
      const id = created.body.data.upload_id as string;
      const bad = { 'idempotency-key': 'two words' };
      const answers = [
        await api.request('POST', `/api/${V}/trainee-uploads`, token, file(), { ...CSV, ...bad }),
        await api.request('POST', `/api/${V}/trainee-uploads/${id}/submit`, token, undefined, bad),
        await api.request('DELETE', `/api/${V}/trainee-uploads/${id}`, token, undefined, bad),
      ];
      expect(answers.map((a) => [a.status, a.body.errors[0].error])).toEqual([
        [400, 'BadRequest'],
        [400, 'BadRequest'],
        [400, 'BadRequest'],
      ]);
    });

    it('answers 409 while the first request with the key runs, and 422 for the key with another request', async () => {
      const path = `/api/${V}/trainee-uploads`;
      const body = file();
      const store = api.app.get<IdempotencyStore>(IDEMPOTENCY_STORE);
      const holder = await api.app.get<ProviderReadModel>(PROVIDER_READ_MODEL).findTokenByHash(hashToken(token));
      // The first request holds the key: claimed, not yet answered.
      await store.claim(holder!.token_id, 'upload-running', requestFingerprint('POST', path, Buffer.from(body)), new Date());
      const running = await api.request('POST', path, token, body, { ...CSV, 'idempotency-key': 'upload-running' });
      expect([running.status, running.body.errors[0].error]).toEqual([409, 'Conflict']);

      const created = await api.request('POST', path, token, body, { ...CSV, 'idempotency-key': 'upload-once' });
      const id = created.body.data.upload_id as string;
      const other = await api.request('DELETE', `${path}/${id}`, token, undefined, { 'idempotency-key': 'upload-once' });
      expect([other.status, other.body.errors[0].error]).toEqual([422, 'UnprocessableEntity']);
    });

    it('sends Location, Idempotent-Replayed and the rate limit headers, each declared where sent', async () => {
      const headers = { ...CSV, 'idempotency-key': 'upload-replayed' };
      const body = file();
      const first = await api.request('POST', `/api/${V}/trainee-uploads`, token, body, headers);
      expect(first.status).toBe(202);
      expect(first.headers.get('location')).toBe(`/api/${V}/trainee-uploads/${first.body.data.upload_id}`);
      expect(first.headers.get('ratelimit-limit')).toBe('10000');
      const again = await api.request('POST', `/api/${V}/trainee-uploads`, token, body, headers);
      expect([again.status, again.headers.get('idempotent-replayed'), again.text]).toEqual([202, 'true', first.text]);
    });

    it('describes an upload closed to properties it does not name', async () => {
      const created = await api.request('POST', `/api/${V}/trainee-uploads`, token, file(), CSV);
      const answer = { ...created.body, data: { ...created.body.data, row_errors: [] } };
      const headers = new Headers({ 'content-type': 'application/json' });
      await expect(
        checkAgainstServedDocument(api.baseUrl, 'GET', `/api/${V}/trainee-uploads/${created.body.data.upload_id}`, {
          status: 200,
          headers,
          text: JSON.stringify(answer),
        }),
      ).rejects.toThrow(/must NOT have additional properties: 'row_errors'/);
    });
  });

  describe('path ids', () => {
    it.each([101, 255, 300])('answers an id of %i characters as any unknown id: 404 in the contract shape', async (length) => {
      const id = 'a'.repeat(length);
      const trainee = await api.request('GET', `/api/${V}/trainees/${id}`, token);
      expect([trainee.status, trainee.body]).toEqual([404, { errors: [{ error: 'NotFound', message: 'Trainee(s) not found' }] }]);
      const placement = await api.request('GET', `/api/${V}/trainees/${id}/placements/${id}`, token);
      expect(placement.status).toBe(404);
      const upload = await api.request('GET', `/api/${V}/trainee-uploads/${id}`, token);
      expect([upload.status, upload.body.errors[0].error]).toEqual([404, 'NotFound']);
    });
  });

  describe('write bodies', () => {
    it.each(['v2025.0', 'v2026.1'] as const)('%s: refuses a course_year past the integer it is kept as', async (version) => {
      for (const course_year of [1_000_000_000_000_000, 2_147_483_648, -2_147_483_649]) {
        const res = await api.request('POST', `/api/${version}/trainees`, token, uniqueTrainee(version, { course_year }));
        expect([res.status, res.body.errors]).toEqual([
          422,
          [{ error: 'UnprocessableEntity', message: 'course_year is not a valid course year' }],
        ]);
      }
      const top = await api.request('POST', `/api/${version}/trainees`, token, uniqueTrainee(version, { course_year: 2_147_483_647 }));
      expect([top.status, top.body.data.course_year]).toEqual([201, 2_147_483_647]);
    });

    it('refuses a course_year of more digits than the integer holds, sent as text (v2026.1)', async () => {
      const res = await api.request('POST', `/api/${V}/trainees`, token, uniqueTrainee(V, { course_year: '00000000002026' }));
      expect([res.status, res.body.errors[0].message]).toEqual([422, 'course_year is not a valid course year']);
    });

    it('takes a JSON number in free text as its decimal text, held to the field’s length', async () => {
      const long = await api.request('POST', `/api/${V}/trainees`, token, uniqueTrainee(V, { first_names: 1e300 }));
      expect([long.status, long.body.errors]).toEqual([
        422,
        [{ error: 'UnprocessableEntity', message: 'first_names is too long (maximum is 60 characters)' }],
      ]);
      const fits = await api.request('POST', `/api/${V}/trainees`, token, uniqueTrainee(V, { middle_names: 1e21 }));
      expect([fits.status, fits.body.data.middle_names]).toEqual([201, '1000000000000000000000']);
    });

    it('refuses dates and a free date past their length', async () => {
      const padded = `2025-09-01${' '.repeat(60)}`;
      const date = await api.request('POST', `/api/${V}/trainees`, token, uniqueTrainee(V, { itt_start_date: padded }));
      expect([date.status, date.body.errors[0].message]).toEqual([422, 'itt_start_date is invalid']);
      const free = await api.request(
        'POST',
        `/api/${V}/trainees`,
        token,
        uniqueTrainee(V, { pg_apprenticeship_start_date: 'x'.repeat(256) }),
      );
      expect([free.status, free.body.errors[0].message]).toEqual([
        422,
        'pg_apprenticeship_start_date is too long (maximum is 255 characters)',
      ]);
    });
  });

  describe('the stores unable to answer now', () => {
    afterEach(() => jest.restoreAllMocks());

    it('answers a damaged read store 503 with Retry-After, and a busy event store 503', async () => {
      const created = await api.request('POST', `/api/${V}/trainees`, token, uniqueTrainee(V));
      const id = created.body.data.trainee_id as string;
      jest.spyOn(api.infra.readModel, 'getTraineeAnswer').mockRejectedValueOnce(new ReadModelsDamaged('database disk image is malformed'));
      const damaged = await api.request('GET', `/api/${V}/trainees/${id}`, token);
      expect([damaged.status, damaged.headers.get('retry-after'), damaged.body.errors[0].error]).toEqual([503, '30', 'ServiceUnavailable']);
      // The write path's event store refuses the append, as one with too many calls waiting does.
      const ports = api.app.get<TraineeWritePorts>(TRAINEE_WRITE_PORTS);
      const eventStore = ports.eventStore;
      const busyStore: EventStore = Object.create(eventStore) as EventStore;
      busyStore.appendToStream = () => Promise.reject(new EventStoreUnavailableError('too many calls waiting'));
      ports.eventStore = busyStore;
      const busy = await api.request('PATCH', `/api/${V}/trainees/${id}`, token, { data: { middle_names: 'Sam' } }).finally(() => {
        ports.eventStore = eventStore;
      });
      expect([busy.status, busy.body.errors[0].error]).toEqual([503, 'ServiceUnavailable']);
    });
  });

  describe('query parameters', () => {
    const long = 'x'.repeat(65);

    it('refuses list values past 64 characters, keyed by parameter', async () => {
      for (const [name, value] of [
        ['has_trn', long],
        ['since', `2025-09-01${' '.repeat(60)}`],
        ['academic_cycle', `2025${'/'.repeat(61)}`],
      ]) {
        const res = await api.request('GET', `/api/${V}/trainees?${name}=${encodeURIComponent(value)}`, token);
        expect([res.status, Object.keys(res.body.errors)]).toEqual([422, [name]]);
      }
    });

    it('refuses a history as_of past 64 characters', async () => {
      const created = await api.request('POST', `/api/${V}/trainees`, token, uniqueTrainee(V));
      const asOf = `2026-01-05T10:00:00.${'0'.repeat(50)}Z`;
      const res = await api.request('GET', `/api/${V}/trainees/${created.body.data.trainee_id}/history?as_of=${asOf}`, token);
      expect([res.status, res.body.errors[0].error]).toEqual([422, 'UnprocessableEntity']);
    });

    it('answers an unknown reference data field of any length 404', async () => {
      const res = await api.request('GET', `/api/${V}/reference-data?field=${long}`, null);
      expect([res.status, res.body.errors[0].error]).toEqual([404, 'NotFound']);
    });
  });
});
