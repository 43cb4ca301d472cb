import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import { checkLiteralTarget, guardedLookup, WebhookTargetRefused, type AddressPolicy } from '@app/webhooks/write';

export interface WebhookRequest {
  url: string;
  /** Standard Webhooks (`whsec_…`). */
  secret: string;
  /** The same on every attempt of one message. */
  messageId: string;
  /** Sent as is. */
  payload: string;
  /** `webhook-timestamp`. */
  at: Date;
}

/** Status null: no answer. */
export type SendOutcome = { delivered: true; status: number } | { delivered: false; status: number | null; error: string };

export interface SenderOptions {
  policy: AddressPolicy;
  /** Connect, send and answer, ms. */
  timeoutMs: number;
  userAgent?: string;
}

/** The body is not used. */
const ANSWER_MAX_BYTES = 64 * 1024;

/**
 * One POST signed per Standard Webhooks (`standardwebhooks`), redirects not followed, addresses checked at connect time
 * ({@link guardedLookup}; an IP literal before, {@link checkLiteralTarget}). Only a 2xx within `timeoutMs` delivers. Never throws.
 */
export function sendWebhook(request: WebhookRequest, options: SenderOptions): Promise<SendOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    let req: ClientRequest | null = null;
    const settle = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req?.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(
      () => settle({ delivered: false, status: null, error: `no answer within ${options.timeoutMs} ms` }),
      options.timeoutMs,
    );
    try {
      const url = new URL(request.url);
      checkLiteralTarget(url, options.policy);
      const body = Buffer.from(request.payload);
      const signature = new Webhook(request.secret).sign(request.messageId, request.at, request.payload);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      req = send(url, {
        method: 'POST',
        lookup: guardedLookup(options.policy),
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          'user-agent': options.userAgent ?? 'trainee-records-webhooks/1',
          'webhook-id': request.messageId,
          'webhook-timestamp': String(Math.floor(request.at.getTime() / 1000)),
          'webhook-signature': signature,
        },
      });
      req.on('response', (res: IncomingMessage) => answered(res, settle));
      req.on('error', (err: Error) => settle({ delivered: false, status: null, error: errorText(err) }));
      req.end(body);
    } catch (err) {
      settle({ delivered: false, status: null, error: errorText(err) });
    }
  });
}

function answered(res: IncomingMessage, settle: (outcome: SendOutcome) => void): void {
  const status = res.statusCode ?? 0;
  const outcome: SendOutcome =
    status >= 200 && status < 300 ? { delivered: true, status } : { delivered: false, status, error: `HTTP ${status}` };
  let read = 0;
  res.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > ANSWER_MAX_BYTES) settle(outcome);
  });
  res.on('end', () => settle(outcome));
  res.on('error', () => settle(outcome));
}

/** Never a stack. */
function errorText(err: unknown): string {
  if (err instanceof WebhookTargetRefused) return err.message;
  const e = err as { code?: string; message?: string };
  return [e.code, e.message].filter(Boolean).join(': ').slice(0, 300) || 'request failed';
}
