import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import type { ApiAuthenticator } from '../auth/api.guard';
import type { ApiRequest } from '../auth/request-context';
import { VERSION_PATTERN } from '../composition/versions';

/** The Fastify route config of an `/api/:api_version/…` route served without a token. */
const PUBLIC_API_ROUTE = { publicApiRoute: true } as const;

/**
 * Marks a controller method under `/api/:api_version/` as served without a token (reference data,
 * the OpenAPI documents; docs/reference/API-FACTS.md §2.8, §17.1), so {@link authenticateOnRequest}
 * leaves it alone. Every other route there needs a token: forgetting the mark fails closed (401).
 */
export function PublicApiRoute(): MethodDecorator {
  return RouteConfig(PUBLIC_API_ROUTE);
}

/**
 * Authenticates in an `onRequest` hook, after routing and admission control but before the body is
 * read or parsed (docs/reference/API-FACTS.md §2.8: authentication before body parsing; an
 * unauthenticated request never costs a parse, docs/operations.md "Limits"), every request that
 * needs a token: a route under `/api/:api_version/` not marked {@link PublicApiRoute}, and an
 * unknown route under `/api/<version-like segment>/` (authenticated, then 404, §1.4). It calls
 * {@link ApiAuthenticator.authenticate}, the one place a token is resolved, which sets
 * `request.caller` and `request.contract`; its errors (401 Unauthorized, 404 for a version not
 * served) reach the exception filter, which answers them as from the guard.
 */
export function authenticateOnRequest(fastify: FastifyInstance, authenticator: ApiAuthenticator): void {
  fastify.addHook('onRequest', async (request) => {
    const segment = versionSegmentNeedingToken(request);
    if (segment !== null) await authenticator.authenticate(request as ApiRequest, segment);
  });
}

/** The version segment of a request that needs a token, or null when it needs none here. */
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
