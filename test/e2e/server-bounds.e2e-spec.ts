import { connect, type Socket } from 'node:net';
import { RunningApi } from '../support/api-harness';

/** A raw connection to the API and everything it receives until the server closes it. */
function rawConnection(api: RunningApi): { socket: Socket; closed: Promise<string> } {
  const { port } = new URL(api.baseUrl);
  const socket = connect(Number(port), '127.0.0.1');
  socket.setNoDelay(true);
  let data = '';
  socket.on('data', (chunk) => (data += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(data)));
  return { socket, closed };
}

/** Writes `text` one byte every `everyMs` until the socket closes; resolves how many bytes went out. */
async function trickle(socket: Socket, text: string, everyMs: number): Promise<number> {
  let sent = 0;
  while (sent < text.length && !socket.destroyed) {
    socket.write(text[sent]);
    sent += 1;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  return sent;
}

describe('HTTP server bounds (docs/operations.md "Configuration" and "Limits")', () => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start({
      server: { requestTimeoutMs: 1200, headersTimeoutMs: 500, connectionTimeoutMs: 800, keepAliveTimeoutMs: 200, maxRequestsPerSocket: 3 },
    });
    token = await api.providerToken('10000094');
  });
  afterAll(() => api.close());

  it('cuts off a slow body with 408 at the request timeout, token or not', async () => {
    const { socket, closed } = rawConnection(api);
    socket.write(
      `POST /api/v2025.0/trainees HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    const sending = trickle(socket, `{"data":"${'x'.repeat(990)}"}`, 150);
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(await sending).toBeLessThan(100);
  });

  it('cuts off slow headers with 408 at the headers timeout', async () => {
    const { socket, closed } = rawConnection(api);
    const sending = trickle(socket, `GET /api/v2025.0/info HTTP/1.1\r\nHost: x\r\nX-Slow: ${'y'.repeat(200)}\r\n\r\n`, 50);
    expect(await closed).toMatch(/^HTTP\/1\.1 408 /);
    expect(await sending).toBeLessThan(200);
  });

  it('closes a connection that goes quiet in the middle of a body (connection timeout)', async () => {
    const { socket, closed } = rawConnection(api);
    socket.write(`POST /api/v2025.0/trainees HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Length: 50\r\n\r\n{"da`);
    // Closed with no answer: the socket was idle longer than the connection timeout (0.8 s), before the request timeout.
    expect(await closed).toBe('');
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const { socket, closed } = rawConnection(api);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer.toLowerCase()).toContain('connection: keep-alive');
  });

  it('closes a socket after its maximum number of requests', async () => {
    const { socket, closed } = rawConnection(api);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(3));
    const answer = await closed;
    expect(answer.match(/HTTP\/1\.1 200 /g)).toHaveLength(3);
    expect(answer.toLowerCase().split('http/1.1 200').pop()).toContain('connection: close');
  });

  it('answers a HEAD with oversized headers 431 without a body, and a GET 431 in the errors shape', async () => {
    const big = `X-Big: ${'z'.repeat(20_000)}\r\n`;
    const head = rawConnection(api);
    head.socket.write(`HEAD /api/v2025.0/info HTTP/1.1\r\nHost: x\r\n${big}\r\n`);
    const headAnswer = await head.closed;
    expect(headAnswer).toMatch(/^HTTP\/1\.1 431 /);
    expect(headAnswer).toMatch(/content-length: 0\r\n/i);
    expect(headAnswer.endsWith('\r\n\r\n')).toBe(true);

    const get = rawConnection(api);
    get.socket.write(`GET /api/v2025.0/info HTTP/1.1\r\nHost: x\r\n${big}\r\n`);
    const getAnswer = await get.closed;
    expect(getAnswer).toMatch(/^HTTP\/1\.1 431 /);
    const body = getAnswer.split('\r\n\r\n')[1];
    expect(JSON.parse(body)).toEqual({ errors: [{ error: 'RequestHeaderFieldsTooLarge', message: 'Request header fields too large' }] });
  });
});

describe('connection limit (MAX_CONNECTIONS)', () => {
  it('refuses connections past the limit at once and serves the others', async () => {
    const api = await RunningApi.start({ server: { maxConnections: 2 } });
    try {
      const first = rawConnection(api);
      const second = rawConnection(api);
      await Promise.all([first, second].map(({ socket }) => new Promise((resolve) => socket.once('connect', resolve))));
      await new Promise((resolve) => setTimeout(resolve, 50));
      const third = rawConnection(api);
      expect(await third.closed).toBe('');
      first.socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      expect(await first.closed).toMatch(/^HTTP\/1\.1 200 /);
      second.socket.destroy();
    } finally {
      await api.close();
    }
  });
});
