import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { tokenFromAuthorizationHeader } from '@app/providers/write';
import type { AppConfig } from '@app/runtime/process';
import type { WindowCounter } from '@app/runtime/admission';
import { fixedWindowStore, RATE_LIMIT_WINDOW_MS } from './fixed-window';

/** What {@link registerAdmission} needs: the limits and lists, where windows are counted, the log, the clock. */
export interface AdmissionOptions {
  config: Pick<AppConfig, 'rateLimitIpPerMinute' | 'rateLimitTokenPerMinute' | 'blockedIps' | 'blockedUserAgents'>;
  counter: WindowCounter;
  logger: Logger;
  /** ms since the epoch; the system clock unless a test gives its own. */
  now?: () => number;
  /** Told of each request refused 429, with the limit it went over (the metrics; docs/observability.md). */
  onRateLimited?: (limit: 'client' | 'token') => void;
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;
type Counted = Extract<Awaited<ReturnType<Limiter>>, { isAllowed: false }>;

/**
 * Admission control of every request whose path begins with `/api` (docs/reference/API-FACTS.md
 * §3; `/api-docs` included) or `/uploads` (the page for providers' staff, its sign-in included:
 * docs/DESIGN.md "The uploads page"), however it is spelled ({@link underAdmission}), in an
 * `onRequest` hook, so before authentication and before the body is read (§2.8, §3.3):
 * 1. blocklists (§3.2): a client IP in `blockedIps` or a `User-Agent` in `blockedUserAgents`
 *    (exact match) → 403, `text/plain`, `Forbidden\n`;
 * 2. at most `rateLimitIpPerMinute` requests per client IP, then at most `rateLimitTokenPerMinute`
 *    per bearer token (keyed by a hash of the token, never the token), each per fixed 60 s window
 *    aligned to the epoch (§3.1; 0 turns a limit off). Over a limit → 429, `text/plain`,
 *    `Retry later\n`, `Retry-After` the whole seconds to the window's end. Answers under `/api`
 *    carry `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` (seconds) of the limit
 *    closest to being reached. A client refused more than the limit's `max` times in one window
 *    gets each further 429 after {@link SUSTAINED_FLOOD_DELAY_MS} (at most until the window ends).
 * Counting goes through `@fastify/rate-limit` with the windows in `counter` ({@link fixedWindowStore}).
 * A counter that fails (its database unreachable) lets the request through and logs a warning.
 */
export async function registerAdmission(fastify: FastifyInstance, options: AdmissionOptions): Promise<void> {
  const { config, logger } = options;
  await fastify.register(rateLimit, {
    global: false,
    timeWindow: RATE_LIMIT_WINDOW_MS,
    store: fixedWindowStore(options.counter, options.now),
  });
  const limiters: { limiter: Limiter; perToken: boolean }[] = [];
  // `ban` marks a client refused more than `max` times in one window: its further 429s are slowed down.
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
      // A client that goes on after `max` refusals waits for each further one, so that a flood of
      // refused requests cannot take the cores from other clients (BENCHMARKS.md "Fairness under
      // a flood").
      options.onRateLimited?.(limits[counted.indexOf(exceeded)]);
      if (counted.some((c) => c.isBanned)) await delay(Math.min(SUSTAINED_FLOOD_DELAY_MS, exceeded.ttl));
      return reply.code(429).header('retry-after', String(exceeded.ttlInSeconds)).type('text/plain; charset=utf-8').send('Retry later\n');
    }
  });
}

/** The paths admission control covers, as prefixes of the path in normal form. */
const ADMITTED_PREFIXES = ['/api', '/uploads'];

/**
 * Whether admission control covers `request`: the route the router matched begins with `/api` or
 * `/uploads`, or, matched or not, the request's path in normal form does ({@link normalPath}). So
 * no spelling of a path (percent-encoded, doubled slashes, another case) escapes a limit or a
 * blocklist that its plain spelling meets.
 */
export function underAdmission(request: Pick<FastifyRequest, 'url' | 'routeOptions'>): boolean {
  const route = request.routeOptions?.url;
  if (route !== undefined && ADMITTED_PREFIXES.some((prefix) => route.startsWith(prefix))) return true;
  const path = normalPath(request.url);
  return ADMITTED_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * A request target's path in normal form, for comparing prefixes: the query left out, every `%XX`
 * decoded (again while decoding changes it, at most 3 times), runs of slashes and backslashes made
 * one slash, lower case.
 */
export function normalPath(url: string): string {
  let path = url.split(/[?#]/, 1)[0];
  for (let i = 0; i < 3; i++) {
    const decoded = path.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (decoded === path) break;
    path = decoded;
  }
  return path.replace(/[/\\]+/g, '/').toLowerCase();
}

/** How long a 429 waits once its client has been refused more than its limit's `max` times in the window, in ms. */
export const SUSTAINED_FLOOD_DELAY_MS = 1_000;

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

/** The token limit's key: a hash of the bearer token (never the token itself, which may be stored in a shared database). */
function tokenKey(request: FastifyRequest): string {
  const token = tokenFromAuthorizationHeader(request.headers.authorization) ?? '';
  return `token:${createHash('sha256').update(`rate-limit:${token}`, 'utf8').digest('hex')}`;
}

/** The IETF draft's `RateLimit-*` headers of one limit's count. */
function setRateLimitHeaders(reply: FastifyReply, counted: Counted): void {
  reply.header('ratelimit-limit', String(counted.max));
  reply.header('ratelimit-remaining', String(counted.remaining));
  reply.header('ratelimit-reset', String(counted.ttlInSeconds));
}
