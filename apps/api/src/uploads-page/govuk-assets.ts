import { dirname, join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** Where the `govuk-frontend` package's built files are: its `dist/govuk` folder. */
const GOVUK_DIST = join(dirname(require.resolve('govuk-frontend/package.json')), 'dist', 'govuk');

/**
 * The files served under `/assets/`: the package's fonts, images and manifest (its stylesheet names
 * them as `/assets/fonts/…` and `/assets/images/…`), its stylesheet and its script (with their source
 * maps). Nothing else of the package (templates, sources) is served.
 */
const SERVED = /^\/(?:fonts\/[\w.-]+\.woff2?|images\/[\w.-]+\.(?:svg|png|ico)|manifest\.json|govuk-frontend\.min\.(?:css|js)(?:\.map)?)$/;

/** How long a browser may keep an asset without asking again: a day (then it revalidates by ETag). */
const ASSETS_MAX_AGE_MS = 86_400_000;

/**
 * Serves GOV.UK Frontend's stylesheet, script, fonts and images from the installed package under
 * `/assets/` (the path its stylesheet expects; the API is under `/api/`), with `Cache-Control:
 * public, max-age=86400`, `ETag` and `Last-Modified`; any other path under `/assets/` is 404. The
 * pages need no network beyond the service (docs/DESIGN.md "The uploads page").
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
