import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '@app/runtime/process';

/** HTTPS only for a year, subdomains included. */
export const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';

/**
 * In production (docs/operations.md "Run the production stack"), on every answer, set as the request arrives so refusals and errors
 * carry it: a browser keeps it for the whole host. Not in the sandbox, where a browser would then refuse plain HTTP to `localhost` for a
 * year. Answers Node gives before Fastify (400, 408, 431) do not carry it.
 */
export function addStrictTransportSecurity(fastify: FastifyInstance, config: Pick<AppConfig, 'appEnv'>): void {
  if (config.appEnv !== 'production') return;
  fastify.addHook('onRequest', (_request, reply, done) => {
    void reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
    done();
  });
}
