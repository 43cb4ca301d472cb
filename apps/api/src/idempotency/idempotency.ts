import { HttpException, Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { createHash, type Hash } from 'node:crypto';
import type { Logger } from 'pino';
import { IDEMPOTENCY_STORE, type IdempotencyClaim, type IdempotencyStore } from '@app/runtime/idempotency';
import type { ApiRequest } from '../auth/request-context';
import { LOGGER } from '../composition/tokens';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Value `true`. */
export const REPLAYED_HEADER = 'Idempotent-Replayed';

/** Visible ASCII (a UUID is the usual choice). */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** Besides being ignored at once. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/** Null without the header; 400 when not 1 to 255 visible ASCII characters (a repeated header joins with `, `: refused). */
export function idempotencyKeyOf(req: Pick<ApiRequest, 'headers'>): string | null {
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(raw)) {
    throw new HttpException(`${IDEMPOTENCY_KEY_HEADER} must be 1 to 255 visible ASCII characters`, 400);
  }
  return raw;
}

/** Not a JSON string value. */
class Raw {
  constructor(readonly text: string) {}
}

/** SHA-256 hex of `METHOD path` and the body as canonical JSON (keys sorted), walked without recursion so no depth overflows the stack. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  const hash = createHash('sha256').update(`${method.toUpperCase()} ${path}\n`);
  const stack: unknown[] = [body];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item instanceof Raw) hash.update(item.text);
    // A file body (`text/csv`): its bytes, marked apart from any JSON text.
    else if (Buffer.isBuffer(item)) hash.update('bytes:').update(item);
    else if (Array.isArray(item)) pushArray(hash, stack, item);
    else if (item !== null && typeof item === 'object') pushObject(hash, stack, item as Record<string, unknown>);
    else hash.update(item === undefined ? 'null' : JSON.stringify(item));
  }
  return hash.digest('hex');
}

function pushArray(hash: Hash, stack: unknown[], items: unknown[]): void {
  hash.update('[');
  stack.push(new Raw(']'));
  for (let i = items.length - 1; i >= 0; i--) {
    stack.push(items[i]);
    if (i > 0) stack.push(new Raw(','));
  }
}

function pushObject(hash: Hash, stack: unknown[], object: Record<string, unknown>): void {
  hash.update('{');
  stack.push(new Raw('}'));
  const keys = Object.keys(object).sort();
  for (let i = keys.length - 1; i >= 0; i--) {
    stack.push(object[keys[i]]);
    stack.push(new Raw(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`));
  }
}

/** 2xx and 4xx except 401 and 429; a retry after those, or a 5xx, runs again. */
export function worthReplaying(status: number): boolean {
  return (status >= 200 && status < 300) || (status >= 400 && status < 500 && status !== 401 && status !== 429);
}

interface Held {
  scope: string;
  key: string;
  claim: string;
}

/**
 * Idempotent retries of the API's writes (docs/operations.md "Limits"): the key claimed for the token before the write, its answer kept.
 */
@Injectable()
export class Idempotency implements OnApplicationShutdown {
  private readonly held = new WeakMap<object, Held>();
  private nextPruneAt = 0;
  clock: () => Date = () => new Date();

  constructor(
    @Inject(IDEMPOTENCY_STORE) private readonly store: IdempotencyStore,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Scope: the token id; fingerprint: method, path without the query, canonical body. */
  async claim(req: ApiRequest, key: string): Promise<IdempotencyClaim> {
    // A caller always has a token id (the guard sets it); one without keeps keys per provider.
    const scope = req.caller?.tokenId ?? `provider:${req.caller?.ukprn ?? ''}`;
    const fingerprint = requestFingerprint(req.method, (req.url ?? '').split('?')[0], req.body);
    const now = this.clock();
    this.pruneNowAndThen(now);
    const found = await this.store.claim(scope, key, fingerprint, now);
    if (found.outcome === 'claimed') this.held.set(req, { scope, key, claim: found.claim });
    return found;
  }

  /** With every answer sent: keeps it (worth replaying, text body) or frees the key. Never throws: a store failure is logged. */
  async settle(req: object, status: number, contentType: unknown, payload: unknown): Promise<void> {
    const held = this.held.get(req);
    if (!held) return;
    this.held.delete(req);
    try {
      if (worthReplaying(status) && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
        const type = typeof contentType === 'string' ? contentType : 'application/json; charset=utf-8';
        await this.store.complete(held.scope, held.key, held.claim, { status, contentType: type, body: payload.toString() });
      } else {
        await this.store.release(held.scope, held.key, held.claim);
      }
    } catch (err) {
      this.logger.error({ err: errorText(err), reqId: (req as ApiRequest).id }, 'idempotency key not settled (held until its lease ends)');
    }
  }

  private pruneNowAndThen(now: Date): void {
    if (now.getTime() < this.nextPruneAt) return;
    this.nextPruneAt = now.getTime() + PRUNE_EVERY_MS;
    this.store.prune(now).catch((err: unknown) => this.logger.warn({ err: errorText(err) }, 'expired idempotency keys not pruned'));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

interface HookHost {
  addHook(
    name: 'onSend',
    hook: (request: object, reply: { statusCode: number; getHeader(name: string): unknown }, payload: unknown) => Promise<unknown>,
  ): unknown;
}

/** `onSend` hands every answer to {@link Idempotency.settle}, filter's too, before it leaves: a retry after the answer always finds it. */
export function registerIdempotencyHook(fastify: HookHost, idempotency: Idempotency): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    await idempotency.settle(request, reply.statusCode, reply.getHeader('content-type'), payload);
    return payload;
  });
}
