import { createLogger } from '../../apps/api/src/observability/logger';
import { RunningApi } from '../support/api-harness';
import { uniqueTrainee } from '../support/trainee-input';

describe('no token, query string or personal data in the logs (docs/operations.md "Observing it")', () => {
  const lines: string[] = [];
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    const logger = createLogger('trace', { write: (line: string) => void lines.push(line) });
    api = await RunningApi.start({ logger });
    token = await api.providerToken('10000095');
  });
  afterAll(() => api.close());

  it('logs each request by method, path and status, and none of what the requests carried', async () => {
    const person = {
      first_names: 'Zephyrine',
      last_name: 'Quillfeather',
      previous_last_name: 'Marrowdale',
      date_of_birth: '1987-11-23',
      email: 'zephyrine.quillfeather@example.org',
      ni_number: 'QQ123456C',
    };
    const created = await api.request('POST', '/api/v2025.0/trainees', token, uniqueTrainee('v2025.0', person));
    expect(created.status).toBe(201);
    const id = created.body.data.trainee_id as string;
    const secretQuery = 'needle-in-the-query-7f3a';
    const sent: [string, string, string | null, unknown?][] = [
      ['GET', `/api/v2025.0/info?access_token=${token}`, null],
      ['GET', `/api/v2025.0/trainees?search=${secretQuery}&email=${encodeURIComponent(person.email)}`, token],
      ['GET', `/api/v2025.0/trainees/${id}`, token],
      ['PATCH', `/api/v2025.0/trainees/${id}`, token, { data: { last_name: 'Ravenscourt-Lowe', date_of_birth: 'not a date' } }],
      ['POST', '/api/v2025.0/trainees', token, `{"data": {"first_names": "Zephyrine"`],
      ['POST', '/api/v2025.0/trainees', token, { data: { ...person, sex: [[['Quillfeather']]] } }],
      ['GET', `/api/v2025.0/no-such-route?token=${token}`, token],
      ['GET', '/api/v2025.0/info', 'sandbox_not-a-real-token-but-still-secret-9b2c'],
    ];
    for (const [method, path, bearer, body] of sent) await api.request(method, path, bearer, body);

    const log = lines.join('');
    const requestLines = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'request');
    expect(requestLines.length).toBeGreaterThanOrEqual(sent.length + 1);
    expect(requestLines.some((l) => l.path === '/api/v2025.0/info' && l.status === 401)).toBe(true);
    const secrets = [
      token,
      'sandbox_not-a-real-token-but-still-secret-9b2c',
      secretQuery,
      'access_token',
      ...Object.values(person),
      'Ravenscourt-Lowe',
    ];
    for (const secret of secrets) expect({ secret, found: log.includes(secret) }).toEqual({ secret, found: false });
  });
});
