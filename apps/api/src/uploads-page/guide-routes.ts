/**
 * The column guide's pages (the guide, a long code list) and the example file, for a signed-in provider: what to type in each
 * column of the file, made from the record tables (column-guide.ts). The template and the guide as CSV are served beside sign-in.
 */
import type { FastifyInstance } from 'fastify';
import { holderOf, sendPage, signedIn, type PageContext } from './page-context';
import { sendCsv } from './session-routes';
import { columnCodesPage, columnGuidePage, exampleCsv } from './column-guide';
import { messagePage } from './start-views';

/** Registers the guide's routes under the scope's `/uploads` prefix; not signed in → the start page (sign in). */
export function guideRoutes(scope: FastifyInstance, ctx: PageContext): void {
  scope.get('/columns', async (request, reply) => {
    const who = await signedIn(ctx, request);
    if (!who) return reply.redirect('/uploads', 303);
    return sendPage(reply, 200, columnGuidePage(ctx.version, holderOf(who)));
  });

  scope.get<{ Params: { column: string } }>('/columns/:column', async (request, reply) => {
    const who = await signedIn(ctx, request);
    if (!who) return reply.redirect('/uploads', 303);
    const codes = columnCodesPage(ctx.version, request.params.column, holderOf(who));
    if (codes === null) return sendPage(reply, 404, messagePage('Page not found', 'There is no such list of codes.', holderOf(who)));
    return sendPage(reply, 200, codes);
  });

  scope.get('/example.csv', async (request, reply) => {
    if (!(await signedIn(ctx, request))) return reply.redirect('/uploads', 303);
    return sendCsv(reply, `trainee-uploads-example-${ctx.version}.csv`, exampleCsv(ctx.version));
  });
}
