/**
 * Receives webhook deliveries and verifies their signatures (docs/change-feed.md "Webhooks"):
 * TypeScript, no framework, `node:http` and the `standardwebhooks` package.
 *
 *   WEBHOOK_SECRET=whsec_… PORT=4000 node --import tsx examples/webhook-receiver.ts
 *
 * Answers 204 to a delivery it verified (and to a repeat of one it has seen: deliveries are at
 * least once, `webhook-id` names one), 401 to one whose signature or timestamp does not verify,
 * 413 to a body over 1 MiB, 405 to anything but POST. The signature is checked over the raw body,
 * before it is parsed.
 */
import { createServer, type Server } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { Change } from './api-types';

/** Largest body read (a change is well under 2 kB). */
const MAX_BODY_BYTES = 1024 * 1024;
/** How many message ids are remembered for dropping repeats. */
const REMEMBERED = 10_000;

/** A receiver calling `onChange` once per verified change; `listen` it yourself. */
export function createReceiver(secret: string, onChange: (change: Change, messageId: string) => void): Server {
  const verifier = new Webhook(secret);
  const seen = new Set<string>();
  return createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413).end();
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let change: Change;
      try {
        change = verifier.verify(body, req.headers as Record<string, string>) as Change;
      } catch (err) {
        const reason = err instanceof WebhookVerificationError ? err.message : 'unreadable';
        return void res.writeHead(401, { 'content-type': 'text/plain' }).end(`${reason}\n`);
      }
      const id = String(req.headers['webhook-id']);
      if (!seen.has(id)) {
        seen.add(id);
        if (seen.size > REMEMBERED) seen.delete(seen.values().next().value as string);
        onChange(change, id);
      }
      res.writeHead(204).end();
    });
  });
}

if (require.main === module) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    process.stderr.write('WEBHOOK_SECRET is required: the secret `admin webhook add` printed\n');
    process.exit(1);
  }
  const port = Number(process.env.PORT ?? 4000);
  createReceiver(secret, (change, id) =>
    process.stdout.write(`${id} ${change.occurred_at} ${change.trainee_id} ${change.type} [${change.changed_fields.join(', ')}]\n`),
  ).listen(port, () => process.stdout.write(`listening on port ${port}\n`));
}
