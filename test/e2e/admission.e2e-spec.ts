import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { RunningApi } from '../support/api-harness';

/** A fetch of the running API without the harness's document check (its own fetches would count against the limits). */
async function send(api: RunningApi, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const res = await fetch(`${api.baseUrl}${path}`, { method, headers, body });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Waits, if need be, for a fresh 60 s window, so that a test's requests all fall in one window. */
async function startOfAWindowWithRoom(seconds = 5): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 20));
}

/** `seconds`, as the server counted it a moment ago, is the whole seconds left in the current minute. */
function expectSecondsToWindowEnd(seconds: number): void {
  const now = Math.ceil((60_000 - (Date.now() % 60_000)) / 1000);
  expect([now, now + 1]).toContain(seconds);
}

describe('authentication before the body is read (docs/reference/API-FACTS.md §2.8)', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken('10000091');
  });
  afterAll(() => api.close());

  it.each([
    ['an empty JSON body', ''],
    ['malformed JSON', '{"data": {'],
    ['a 6 MB body, over the body limit', `{"data":"${'x'.repeat(6 * 1024 * 1024)}"}`],
    ['a deeply nested body', `{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`],
  ])('answers 401 to a POST without a token carrying %s (the body is not parsed)', async (_, body) => {
    const res = await send(api, 'POST', '/api/v2025.0/trainees', { 'content-type': 'application/json' }, body);
    expect(res.status).toBe(401);
    expect(JSON.parse(res.text)).toEqual({ error: 'Unauthorized' });
  });

  it('answers a slow body without a token 401 at once and closes the socket, without waiting for the body', async () => {
    const { port } = new URL(api.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    socket.on('error', () => undefined);
    await new Promise((resolve) => socket.once('connect', resolve));
    const started = Date.now();
    // 100 kB announced, 10 bytes sent, and nothing more: only the request timeout (30 s) would end it.
    socket.write(
      'POST /api/v2025.0/trainees HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"data": {',
    );
    const closedAt = await Promise.race([closed, new Promise<number>((resolve) => setTimeout(() => resolve(-1), 5_000))]);
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(closedAt).toBeGreaterThan(0);
    expect(closedAt - started).toBeLessThan(5_000);
    // An answer after the whole request was read keeps the connection.
    const kept = await send(api, 'GET', '/api/v2025.0/info', { authorization: `Bearer ${token}` });
    expect(kept.status).toBe(200);
    expect(kept.headers.get('connection')).toBe('keep-alive');
  });

  it('still parses the body of an authenticated request (malformed JSON → 400)', async () => {
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const res = await send(api, 'POST', '/api/v2025.0/trainees', headers, '{"data": {');
    expect(res.status).toBe(400);
  });

  it('answers 401 before a body on an unknown route under a version, and 404 with a token', async () => {
    const body = '{"data": {';
    expect((await send(api, 'POST', '/api/v2025.0/nothing-here', { 'content-type': 'application/json' }, body)).status).toBe(401);
    const res = await send(api, 'GET', '/api/v2025.0/nothing-here', { authorization: `Bearer ${token}` });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual({ errors: [{ error: 'NotFound', message: 'Not found' }] });
  });

  it('serves the public endpoints without a token', async () => {
    expect((await send(api, 'GET', '/api/v2026.1/reference-data')).status).toBe(200);
    expect((await send(api, 'GET', '/api/v2026.1/openapi.json')).status).toBe(200);
    expect((await send(api, 'GET', '/api/v2026.1/openapi.yaml')).status).toBe(200);
  });
});

describe('rate limits per IP and per token (docs/reference/API-FACTS.md §3.1; docs/operations.md "Limits")', () => {
  let api: RunningApi;
  let tokenA: string;
  let tokenB: string;

  beforeAll(async () => {
    api = await RunningApi.start({ rateLimitIpPerMinute: 6, rateLimitTokenPerMinute: 3 });
    tokenA = await api.providerToken('10000092');
    tokenB = await api.providerToken('10000093');
  });
  afterAll(() => api.close());

  it('answers 429 Retry later past the per-token limit, per token, with RateLimit-* and Retry-After to the window end', async () => {
    await startOfAWindowWithRoom();
    const a = { authorization: `Bearer ${tokenA}` };
    const first = await send(api, 'GET', '/api/v2025.0/info', a);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('3');
    expect(first.headers.get('ratelimit-remaining')).toBe('2');
    expectSecondsToWindowEnd(Number(first.headers.get('ratelimit-reset')));
    await send(api, 'GET', '/api/v2025.0/info', a);
    await send(api, 'GET', '/api/v2025.0/info', a);
    const over = await send(api, 'GET', '/api/v2025.0/info', a);
    expect(over.status).toBe(429);
    expect(over.text).toBe('Retry later\n');
    expect(over.headers.get('content-type')).toMatch(/^text\/plain/);
    // Fixed windows aligned to the minute: the wait ends with the current minute.
    expectSecondsToWindowEnd(Number(over.headers.get('retry-after')));
    expect(over.headers.get('ratelimit-remaining')).toBe('0');
    // Another token of the same client still has its own allowance, until the per-IP limit (6).
    const b = { authorization: `Bearer ${tokenB}` };
    expect((await send(api, 'GET', '/api/v2025.0/info', b)).status).toBe(200); // the IP's 5th
    expect((await send(api, 'GET', '/api/v2025.0/info', b)).status).toBe(200); // 6th
    expect((await send(api, 'GET', '/api/v2025.0/info', b)).status).toBe(429); // past the IP's limit
  });
});

describe('a client that keeps sending past its limit (BENCHMARKS.md "Fairness under a flood")', () => {
  let api: RunningApi;
  afterAll(() => api?.close());

  it('gets its 429s at once up to the limit again, then slowed, while another token is answered first', async () => {
    api = await RunningApi.start({ rateLimitIpPerMinute: 0, rateLimitTokenPerMinute: 2 });
    const flooder = { authorization: `Bearer ${await api.providerToken('10000094')}` };
    const other = { authorization: `Bearer ${await api.providerToken('10000095')}` };
    await startOfAWindowWithRoom();
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(api, 'GET', '/api/v2025.0/info', flooder)).status);
    expect(statuses).toEqual([200, 200, 429, 429]); // 2 allowed, then as many refusals answered at once
    // The 5th refusal waits; a request of another token sent after it is answered before it.
    const order: string[] = [];
    const slowed = send(api, 'GET', '/api/v2025.0/info', flooder).then((r) => order.push(`flooder ${r.status}`));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await send(api, 'GET', '/api/v2025.0/info', other).then((r) => order.push(`other ${r.status}`));
    await slowed;
    expect(order).toEqual(['other 200', 'flooder 429']);
  });
});

describe('rate limit per IP and blocklists (docs/reference/API-FACTS.md §3.1–3.3)', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await RunningApi.start({ rateLimitIpPerMinute: 3, blockedUserAgents: ['BadBot/1.0'], blockedIps: ['192.0.2.7'] });
  });
  afterAll(() => api.close());

  it('limits every /api path per client IP before authentication, but not the paths outside /api', async () => {
    await startOfAWindowWithRoom();
    expect((await send(api, 'GET', '/api/v2025.0/info')).status).toBe(401);
    expect((await send(api, 'GET', '/api/v2026.1/reference-data')).status).toBe(200);
    expect((await send(api, 'GET', '/api-docs')).status).not.toBe(429);
    const over = await send(api, 'POST', '/api/v2025.0/trainees', { 'content-type': 'application/json' }, '{');
    expect(over.status).toBe(429);
    expect(over.text).toBe('Retry later\n');
    expect((await send(api, 'GET', '/healthz')).status).not.toBe(429);
  });

  it('answers 403 Forbidden to a blocked user agent on /api, before the rate limit', async () => {
    const res = await send(api, 'GET', '/api/v2025.0/info', { 'user-agent': 'BadBot/1.0' });
    expect(res.status).toBe(403);
    expect(res.text).toBe('Forbidden\n');
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await send(api, 'GET', '/healthz', { 'user-agent': 'BadBot/1.0' })).status).not.toBe(403);
  });
});

describe('blocked IPs (docs/reference/API-FACTS.md §3.2)', () => {
  it('answers 403 to a blocked client IP', async () => {
    const api = await RunningApi.start({ blockedIps: ['127.0.0.1'] });
    try {
      const res = await send(api, 'GET', '/api/v2026.1/reference-data');
      expect(res.status).toBe(403);
      expect(res.text).toBe('Forbidden\n');
    } finally {
      await api.close();
    }
  });
});

describe('the uploads page under the per-IP limit (docs/DESIGN.md "The uploads page")', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await RunningApi.start({ rateLimitIpPerMinute: 3 });
  });
  afterAll(() => api.close());

  it('limits the page per client IP, its sign-in included', async () => {
    await startOfAWindowWithRoom();
    for (let i = 0; i < 3; i++) expect((await send(api, 'GET', '/uploads')).status).toBe(200);
    const over = await send(api, 'POST', '/uploads/sign-in', { 'content-type': 'application/x-www-form-urlencoded' }, 'token=x');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});

/** A request sent with its target exactly as written (fetch would normalise it), and its status. */
function sendRaw(api: RunningApi, method: string, target: string, headers: Record<string, string> = {}, body = ''): Promise<number> {
  const { port } = new URL(api.baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: Number(port), method, path: target, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('admission on every spelling of a path (docs/operations.md "Limits")', () => {
  const spellings = [
    '/%61pi/v2026.1/info',
    '/%61%70%69/v2026.1/info',
    '/%2561pi/v2026.1/info',
    '//api/v2026.1/info',
    '/api//v2026.1/info',
    '/API/v2026.1/info',
    '/%41pI/v2026.1/info',
  ];
  let api: RunningApi;
  beforeAll(async () => {
    api = await RunningApi.start({ rateLimitIpPerMinute: 3, blockedUserAgents: ['BadBot/1.0'] });
  });
  afterAll(() => api.close());

  it.each(spellings)('answers a blocked user agent 403 on %s, and on the uploads page spelled %%75ploads', async (target) => {
    expect(await sendRaw(api, 'GET', target, { 'user-agent': 'BadBot/1.0' })).toBe(403);
    expect(await sendRaw(api, 'POST', '/%75ploads/sign-in', { 'user-agent': 'BadBot/1.0' })).toBe(403);
  });

  it('counts every spelling toward the per-IP limit, the page sign-in included', async () => {
    await startOfAWindowWithRoom();
    const statuses: number[] = [];
    for (const target of spellings) statuses.push(await sendRaw(api, 'GET', target));
    statuses.push(await sendRaw(api, 'POST', '/%75ploads/sign-in', { 'content-type': 'application/x-www-form-urlencoded' }, 'token=x'));
    expect(statuses.slice(3)).toEqual(Array(statuses.length - 3).fill(429));
  });
});
