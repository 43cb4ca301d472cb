/**
 * The uploads page's start: the sign-in page or, signed in, the start page (the template, the
 * column guide, the file to choose, the provider's uploads); sign in with the API token, sign out;
 * the template and the column guide; the recommendations' start page and their template.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { hashToken, tokenFromAuthorizationHeader } from '@app/providers/write';
import { templateCsv } from '@app/uploads/csv';
import { addTraineeColumns, listUploads, recommendTemplateCsv } from '@app/uploads/write';
import { columnGuideCsv } from './column-guide';
import type { PageError } from './layout';
import { checkedForm, holderOf, sendPage, setSessionCookie, signedIn, type PageContext, type SignedIn } from './page-context';
import { sessionCookie } from './page-forms';
import { messagePage, recommendStartPage, signInPage, startPage } from './start-views';
import { ADD_TRAINEES, RECOMMENDATIONS, type UploadJourney } from './upload-journeys';

/** Uploads listed on the start page: the newest 25. */
const LISTED = 25;

/** The start page of `journey` for a signed-in provider, with `errors` (a refused file) when given. */
export async function startPageFor(
  ctx: PageContext,
  who: SignedIn,
  reply: FastifyReply,
  status = 200,
  errors: readonly PageError[] = [],
  journey: UploadJourney = ADD_TRAINEES,
): Promise<FastifyReply> {
  const { items } = await listUploads(ctx.uploads.ports, who.caller, journey.kind, 1, LISTED);
  const holder = holderOf(who);
  return sendPage(
    reply,
    status,
    journey === ADD_TRAINEES ? startPage(holder, items, errors) : recommendStartPage(holder, items, ctx.version, errors),
  );
}

/** A CSV file to download: `text/csv`, UTF-8, named; its text, or a stream of it. */
export function sendCsv(reply: FastifyReply, fileName: string, csv: string | Readable): FastifyReply {
  return reply.code(200).type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`).send(csv);
}

/**
 * The start page or the sign-in page; sign in with a token (the sandbox only: the API's token check) and sign out; the templates and
 * the column guide; the recommendations' start page.
 */
export function sessionRoutes(scope: FastifyInstance, ctx: PageContext): void {
  const ways = () => ({ person: ctx.personSignIn() !== null, token: ctx.tokenSignIn });
  scope.post('/sign-in', async (request, reply) => {
    if (!ctx.tokenSignIn) return sendPage(reply, 404, messagePage('Page not found', 'If you typed the web address, check it is correct.'));
    const checked = await checkedForm(ctx, request, reply);
    if (!checked) return reply;
    const typed = (checked.form.fields.token ?? '').trim();
    // The same shape check as the API's Authorization header, then the same token check.
    const token = tokenFromAuthorizationHeader(`Bearer ${typed}`);
    const holder = token ? await ctx.authenticator.tokenHolder(hashToken(token)) : null;
    if (!holder) {
      const message = typed === '' ? 'Enter your API token' : 'Enter a valid API token: this one is not active, or has expired';
      return sendPage(reply, typed === '' ? 422 : 401, signInPage(checked.session.csrfToken, ways(), [{ message, field: 'token' }]));
    }
    const as = { ukprn: holder.ukprn, providerName: null, by: 'token', tokenHash: hashToken(token!) } as const;
    const session = await ctx.sessions.signIn(checked.session, as);
    setSessionCookie(ctx, reply, session.id);
    return reply.redirect('/uploads', 303);
  });

  scope.post('/sign-out', async (request, reply) => {
    const checked = await checkedForm(ctx, request, reply);
    if (!checked) return reply;
    await ctx.sessions.end(checked.session.id);
    setSessionCookie(ctx, reply, '', 0);
    return reply.redirect('/uploads', 303);
  });
  scope.get('/', async (request, reply) => {
    const who = await signedIn(ctx, request);
    if (who) return startPageFor(ctx, who, reply);
    // Not signed in: a session for the sign-in form's CSRF token (the one the browser has, or a new one).
    let session = await ctx.sessions.find(sessionCookie(request));
    if (!session || session.signedIn) {
      session = await ctx.sessions.start(request.ip);
      setSessionCookie(ctx, reply, session.id);
    }
    return sendPage(reply, 200, signInPage(session.csrfToken, ways()));
  });

  scope.get('/template.csv', async (request, reply) => {
    if (!(await signedIn(ctx, request))) return reply.redirect('/uploads', 303);
    return sendCsv(reply, `trainee-uploads-template-${ctx.version}.csv`, templateCsv(addTraineeColumns(ctx.version)));
  });

  scope.get(RECOMMENDATIONS.path, async (request, reply) => {
    const who = await signedIn(ctx, request);
    if (!who) return reply.redirect('/uploads', 303);
    return startPageFor(ctx, who, reply, 200, [], RECOMMENDATIONS);
  });

  // The provider's trainees who can be recommended, named: personal data, as the upload pages are (`no-store`).
  scope.get(`${RECOMMENDATIONS.path}/template.csv`, async (request, reply) => {
    const who = await signedIn(ctx, request);
    if (!who) return reply.redirect('/uploads', 303);
    return sendCsv(reply, 'recommendations-template.csv', await recommendTemplateCsv(ctx.uploads.ports, who.caller.ukprn));
  });

  scope.get('/column-guide.csv', async (request, reply) => {
    if (!(await signedIn(ctx, request))) return reply.redirect('/uploads', 303);
    return sendCsv(reply, `trainee-uploads-column-guide-${ctx.version}.csv`, columnGuideCsv(ctx.version));
  });
}
