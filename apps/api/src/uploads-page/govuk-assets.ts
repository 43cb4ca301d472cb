import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

const GOVUK_DIST = join(dirname(require.resolve('govuk-frontend/package.json')), 'dist', 'govuk');

/** Fonts, images, manifest, stylesheet and script (with source maps): nothing else of the package (templates, sources). */
const SERVED = /^\/(?:fonts\/[\w.-]+\.woff2?|images\/[\w.-]+\.(?:svg|png|ico)|manifest\.json|govuk-frontend\.min\.(?:css|js)(?:\.map)?)$/;

/** Then it revalidates by ETag. */
const ASSETS_MAX_AGE_MS = 86_400_000;

/**
 * Under `/assets/`, as its stylesheet expects, with caching headers; any other path there is 404. No network beyond the service is needed.
 */
export async function serveGovukAssets(fastify: FastifyInstance): Promise<void> {
  await fastify.register(fastifyStatic, {
    root: [join(GOVUK_DIST, 'assets'), GOVUK_DIST],
    prefix: '/assets/',
    // The API docs page registers this plugin too; one `reply.sendFile` decoration is enough.
    decorateReply: false,
    index: false,
    list: false,
    dotfiles: 'deny',
    allowedPath: (pathName) => SERVED.test(pathName),
    cacheControl: true,
    maxAge: ASSETS_MAX_AGE_MS,
    etag: true,
    lastModified: true,
  });
}
