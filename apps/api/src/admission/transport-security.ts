import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '@app/runtime/process';

/** The `Strict-Transport-Security` of every answer in production: HTTPS only for a year, subdomains included. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * In production (`APP_ENV=production`, served over HTTPS behind the proxy: docs/operations.md
 * "Run the production stack"), adds {@link STRICT_TRANSPORT_SECURITY} to every answer of the
 * process, set as the request arrives, so refusals (403, 429), errors and 404s carry it too: the
 * uploads page and its `/assets/`, the API and its documents, health. A browser keeps it for the
 * whole host whichever path it came from, so every path states it; clients of the API that are not
 * browsers ignore it. Not in the sandbox, served over plain HTTP on localhost, where a browser
 * holding it would refuse plain HTTP to `localhost` for a year. Answers Node gives before Fastify
 * sees a request (400, 408, 431 on a malformed or slow request) do not carry it.
 */
export function addStrictTransportSecurity(fastify: FastifyInstance, config: Pick<AppConfig, 'appEnv'>): void {
  if (config.appEnv !== 'production') return;
  fastify.addHook('onRequest', (_request, reply, done) => {
    void reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    done();
  });
}
