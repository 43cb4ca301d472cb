import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { ApiAuthenticator } from '../auth/api.guard';
import type { ApiRequest } from '../auth/request-context';
import { VERSION_PATTERN } from '../composition/versions';

const PUBLIC_API_ROUTE = { publicApiRoute: true } as const;

/** Served without a token (API-FACTS §2.8, §17.1); every other route there needs one, so a forgotten mark fails closed. */
export function PublicApiRoute(): MethodDecorator {
  return RouteConfig(PUBLIC_API_ROUTE);
}

/**
 * Authenticates in `onRequest`, after admission and before the body is read (API-FACTS §2.8; docs/operations.md "Limits"), every
 * route needing a token and every unknown route under a version-like segment (§1.4), through {@link ApiAuthenticator.authenticate};
 * its errors reach the exception filter as the guard's would.
 */
export function authenticateOnRequest(fastify: FastifyInstance, authenticator: ApiAuthenticator): void {
  fastify.addHook('onRequest', async (request) => {
    const segment = versionSegmentNeedingToken(request);
    if (segment !== null) await authenticator.authenticate(request as ApiRequest, segment);
  });
}

/** Null when it needs no token here. */
function versionSegmentNeedingToken(request: {
  url: string;
  routeOptions: { url?: string; config?: unknown };
  params: unknown;
}): string | null {
  const route = request.routeOptions.url;
  if (route === undefined) {
    // Not routed: Nest's not-found handler answers; under /api/<version-like>/ a token comes first.
    const segments = request.url.split('?')[0].split('/');
    return segments[1] === 'api' && segments.length > 2 && VERSION_PATTERN.test(segments[2]) ? segments[2] : null;
  }
  if (!route.startsWith('/api/:api_version/')) return null;
  if ((request.routeOptions.config as { publicApiRoute?: boolean } | undefined)?.publicApiRoute) return null;
  return ((request.params ?? {}) as Record<string, string>).api_version ?? '';
}
