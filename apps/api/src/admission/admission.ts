import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { tokenFromAuthorizationHeader } from '@app/providers/write';
import type { AppConfig } from '@app/runtime/process';
import type { WindowCounter } from '@app/runtime/admission';
import { fixedWindowStore, RATE_LIMIT_WINDOW_MS } from './fixed-window';

export interface AdmissionOptions {
  config: Pick<AppConfig, 'rateLimitIpPerMinute' | 'rateLimitTokenPerMinute' | 'blockedIps' | 'blockedUserAgents'>;
  counter: WindowCounter;
  logger: Logger;
  /** Epoch ms; tests give their own. */
  now?: () => number;
  /** The metrics (docs/observability.md). */
  onRateLimited?: (limit: 'client' | 'token') => void;
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type Counted = Extract<Awaited<ReturnType<Limiter>>, { isAllowed: false }>;

/**
 * Admission of every `/api…` and `/uploads…` request however spelled ({@link underAdmission}), in `onRequest`, before authentication
 * and the body (API-FACTS §2.8, §3): blocklists → 403 `Forbidden\n`; per-IP then per-token limits per fixed 60 s window (§3.1; 0: off)
 * → 429 `Retry later\n` with `Retry-After`; `/api` answers carry the `RateLimit-*` headers of the limit nearest. A failing counter lets
 * the request through with a warning (docs/operations.md "Limits").
 */
export async function registerAdmission(fastify: FastifyInstance, options: AdmissionOptions): Promise<void> {
  const { config, logger } = options;
  await fastify.register(rateLimit, {
    global: false,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    store: fixedWindowStore(options.counter, options.now),
  });
  const limiters: { limiter: Limiter; perToken: boolean }[] = [];
  // `ban` marks a client refused more than `max` times in one window: its further 429s are slowed.
  if (config.rateLimitIpPerMinute > 0) {
    const max = config.rateLimitIpPerMinute;
    limiters.push({ limiter: fastify.createRateLimit({ max, ban: max }), perToken: false });
  }
  if (config.rateLimitTokenPerMinute > 0) {
    const max = config.rateLimitTokenPerMinute;
    const limiter = fastify.createRateLimit({ max, ban: max, keyGenerator: tokenKey });
    limiters.push({ limiter, perToken: true });
  }
  const blockedIps = new Set(config.blockedIps);
  const blockedAgents = new Set(config.blockedUserAgents);

  fastify.addHook('onRequest', async (request, reply) => {
    if (!underAdmission(request)) return;
    const agent = request.headers['user-agent'];
    if (blockedIps.has(request.ip) || (agent !== undefined && blockedAgents.has(agent))) {
      return reply.code(403).type('text/plain; charset=utf-8').send('Forbidden\n');
    }
    const counted: Counted[] = [];
    const limits: ('client' | 'token')[] = [];
    for (const { limiter, perToken } of limiters) {
      if (perToken && !tokenFromAuthorizationHeader(request.headers.authorization)) continue;
      let result;
      try {
        result = await limiter(request);
      } catch (err) {
        logger.warn({ err, reqId: request.id }, 'rate limit not counted: its store failed');
        continue;
      }
      if (!result.isAllowed) {
        counted.push(result);
        limits.push(perToken ? 'token' : 'client');
      }
    }
    if (counted.length === 0) return;
    const exceeded = counted.find((c) => c.isExceeded);
    const shown = exceeded ?? counted.reduce((a, b) => (b.remaining < a.remaining ? b : a));
    setRateLimitHeaders(reply, shown);
    if (exceeded) {
      // A client going on after `max` refusals waits for each further one, so its flood cannot take the cores from others
      // (BENCHMARKS.md "Fairness under a flood").
      options.onRateLimited?.(limits[counted.indexOf(exceeded)]);
      if (counted.some((c) => c.isBanned)) await delay(Math.min(SUSTAINED_FLOOD_DELAY_MS, exceeded.ttl));
      return reply.code(429).header('retry-after', String(exceeded.ttlInSeconds)).type('text/plain; charset=utf-8').send('Retry later\n');
    }
  });
}

const ADMITTED_PREFIXES = ['/api', '/uploads'];

/** The matched route, or else the path in normal form, begins with a covered prefix: no spelling escapes a limit its plain one meets. */
export function underAdmission(request: Pick<FastifyRequest, 'url' | 'routeOptions'>): boolean {
  const route = request.routeOptions?.url;
  if (route !== undefined && ADMITTED_PREFIXES.some((prefix) => route.startsWith(prefix))) return true;
  const path = normalPath(request.url);
  return ADMITTED_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** Query left out, `%XX` decoded (up to 3 times while it changes), slash and backslash runs made one slash, lower case. */
export function normalPath(url: string): string {
  let path = url.split(/[?#]/, 1)[0];
  for (let i = 0; i < 3; i++) {
    const decoded = path.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (decoded === path) break;
    path = decoded;
  }
  return path.replace(/[/\\]+/g, '/').toLowerCase();
}

/** Once its client has been refused more than its limit's `max` times in the window. */
export const SUSTAINED_FLOOD_DELAY_MS = 1_000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** Never the token itself, which may be stored in a shared database. */
function tokenKey(request: FastifyRequest): string {
  const token = tokenFromAuthorizationHeader(request.headers.authorization) ?? '';
  return `token:${createHash('sha256').update(`rate-limit:${token}`, 'utf8').digest('hex')}`;
}

/** The IETF draft's headers. */
function setRateLimitHeaders(reply: FastifyReply, counted: Counted): void {
  reply.header('ratelimit-limit', String(counted.max));
  reply.header('ratelimit-remaining', String(counted.remaining));
  reply.header('ratelimit-reset', String(counted.ttlInSeconds));
}
