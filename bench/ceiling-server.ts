/**
 * The ceiling of the benchmarks: a bare `node:http` server that reads each request (body
 * included) and answers it with stored bytes — per HTTP method, a real answer of the service of the
 * size the scenario measured. Whatever the service achieves below this server under the same load
 * is the cost of the service itself. Run as its own process by the harness (`fork`), which sets the
 * answers over IPC before each scenario: `{ type: 'bodies', bodies: { GET: base64, … } }`.
 */
import * as http from 'node:http';

type Bodies = Record<string, { body: Buffer; status: number }>;

let bodies: Bodies = { GET: { body: Buffer.from('{}'), status: 200 } };

const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const answer = bodies[req.method ?? 'GET'] ?? bodies.GET;
    res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': answer.body.length });
    res.end(answer.body);
  });
});
// As Fastify's default, so both servers keep autocannon's connections open alike.
server.keepAliveTimeout = 72_000;

process.on('message', (message: { type: string; bodies?: Record<string, { base64: string; status: number }> }) => {
  if (message.type === 'bodies' && message.bodies) {
    const next: Bodies = {};
    for (const [method, b] of Object.entries(message.bodies)) next[method] = { body: Buffer.from(b.base64, 'base64'), status: b.status };
    bodies = next;
    process.send?.({ type: 'bodies-set' });
  } else if (message.type === 'stop') {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  }
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({ type: 'listening', port: typeof address === 'object' && address ? address.port : 0 });
});
