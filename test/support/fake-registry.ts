import { createServer, type Server } from 'node:http';

export interface RegistryCall {
  path: string;
  idempotencyKey: string;
  body: Record<string, unknown>;
}

/**
 * A stand-in for the teacher-qualification registry's HTTP API on a loopback port (there is no
 * real registry to test against): records every call and answers after `delayMs`. It dedupes by
 * idempotency key as a real registry is expected to, so tests can count calls and keys.
 */
export class FakeRegistry {
  readonly calls: RegistryCall[] = [];
  delayMs = 0;
  /** Status codes to answer before succeeding (per path), to exercise retries. */
  failures: Record<string, number[]> = {};
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
        const path = req.url ?? '';
        this.calls.push({ path, idempotencyKey: String(req.headers['idempotency-key'] ?? ''), body });
        const failure = this.failures[path]?.shift();
        setTimeout(() => {
          if (failure) {
            res.writeHead(failure).end();
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          if (path === '/trn-requests') res.end(JSON.stringify({ trn: '7' + String(body.trainee_id).length.toString().padStart(6, '0') }));
          else res.end(JSON.stringify({ awarded_at: `${String(body.outcome_date)}T00:00:00Z` }));
        }, this.delayMs);
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }

  callsTo(path: string): RegistryCall[] {
    return this.calls.filter((c) => c.path === path);
  }

  async stop(): Promise<void> {
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}
