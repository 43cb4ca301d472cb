import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a {@link WebhookReceiver} got, with the status it answered (null: it did not answer). */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  status: number | null;
}

/**
 * A real HTTP receiver of webhook deliveries on loopback, for the tests (docs/change-feed.md
 * "Webhooks"): records every request, and answers with what `answer` says for the n-th request
 * (1-based): a status, or `hang` to never answer.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private waiters: { test: () => boolean; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Starts listening on 127.0.0.1 on a free port; `answer` defaults to 204 for every request. */
  static async start(answer: (n: number, body: string) => number | 'hang' = () => 204): Promise<WebhookReceiver> {
    let receiver: WebhookReceiver | null = null;
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const entry: ReceivedWebhook = { headers: req.headers, body, status: null };
        receiver!.received.push(entry);
        const outcome = answer(receiver!.received.length, body);
        if (outcome !== 'hang') {
          entry.status = outcome;
          res.writeHead(outcome).end();
        }
        receiver!.notify();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new WebhookReceiver(server, `http://127.0.0.1:${port}/hooks`);
    return receiver;
  }

  /** The bodies it acknowledged (2xx), parsed, in the order received. */
  acknowledged(): Record<string, unknown>[] {
    return this.received.filter((r) => r.status !== null && r.status < 300).map((r) => JSON.parse(r.body) as Record<string, unknown>);
  }

  /** Resolves once `test` holds (checked after each request), or rejects after `timeoutMs`. */
  until(test: () => boolean, timeoutMs = 15_000): Promise<void> {
    if (test()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`receiver: condition not met in ${timeoutMs} ms (${this.received.length} requests)`)),
        timeoutMs,
      );
      this.waiters.push({
        test,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  private notify(): void {
    this.waiters = this.waiters.filter((w) => (w.test() ? (w.resolve(), false) : true));
  }

  /** Stops listening and drops open connections. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
