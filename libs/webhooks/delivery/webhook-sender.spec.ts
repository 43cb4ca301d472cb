import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { sendWebhook } from './webhook-sender';

const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
const open = { allowPrivate: true };

interface Seen {
  headers: IncomingHttpHeaders;
  body: string;
}

describe('sendWebhook: one signed attempt (docs/change-feed.md "Webhooks")', () => {
  let server: Server;
  let url: string;
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  let answer: (res: import('node:http').ServerResponse) => void;

  beforeEach(async () => {
    seen.length = 0;
    answer = (res) => res.writeHead(204).end();
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString() });
        answer(res);
      });
    });
    server.on('connection', (s) => {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  });

  afterEach(async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const request = (payload = '{"trainee_id":"T1"}') => ({ url, secret: SECRET, messageId: 'msg_1', payload, at: new Date() });

  it('POSTs the payload with Standard Webhooks headers that the package verifies, and a 2xx is a delivery', async () => {
    expect(await sendWebhook(request(), { policy: open, timeoutMs: 2000 })).toEqual({ delivered: true, status: 204 });
    expect(seen).toHaveLength(1);
    const [{ headers, body }] = seen;
    expect(body).toBe('{"trainee_id":"T1"}');
    expect(headers).toMatchObject({ 'content-type': 'application/json', 'webhook-id': 'msg_1' });
    expect(headers['webhook-signature']).toMatch(/^v1,/);
    const verifier = new Webhook(SECRET);
    expect(verifier.verify(body, headers as Record<string, string>)).toEqual({ trainee_id: 'T1' });
    expect(() => verifier.verify('{"trainee_id":"T2"}', headers as Record<string, string>)).toThrow();
  });

  it('is not a delivery when the receiver answers 500, and says so', async () => {
    answer = (res) => res.writeHead(500).end('oops');
    expect(await sendWebhook(request(), { policy: open, timeoutMs: 2000 })).toEqual({ delivered: false, status: 500, error: 'HTTP 500' });
  });

  it('gives up on a receiver that never answers, within the deadline', async () => {
    answer = () => undefined;
    const started = Date.now();
    const outcome = await sendWebhook(request(), { policy: open, timeoutMs: 200 });
    expect(outcome).toEqual({ delivered: false, status: null, error: 'no answer within 200 ms' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('refuses a loopback target outside the sandbox: the receiver gets nothing', async () => {
    const outcome = await sendWebhook(request(), { policy: { allowPrivate: false }, timeoutMs: 2000 });
    expect(outcome).toMatchObject({ delivered: false, status: null, error: expect.stringMatching(/127\.0\.0\.1, a loopback/) });
    const byName = await sendWebhook(
      { ...request(), url: url.replace('127.0.0.1', 'localhost') },
      { policy: { allowPrivate: false }, timeoutMs: 2000 },
    );
    expect(byName).toMatchObject({ delivered: false, status: null, error: expect.stringMatching(/localhost resolves to/) });
    expect(seen).toHaveLength(0);
  });

  it('reports a refused connection without throwing', async () => {
    const closed = url.replace(/:\d+\//, ':1/');
    const outcome = await sendWebhook({ ...request(), url: closed }, { policy: open, timeoutMs: 2000 });
    expect(outcome).toMatchObject({ delivered: false, status: null, error: expect.stringMatching(/ECONNREFUSED/) });
  });
});
