/**
 * A person's sign-in on the uploads page (docs/operations.md "Signing in to the uploads page"): `GET /uploads/sign-in` sends the browser
 * to the identity provider with a new login kept in its session; `GET /uploads/sign-in/callback` takes the answer, checks it against
 * that login and signs the person in, in a new session. Refusals are pages with a 4xx status.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendPage, setSessionCookie, type PageContext } from './page-context';
import { sessionCookie } from './page-forms';
import { SignInRefused } from './person-sign-in';
import { messagePage } from './start-views';

/** The longest callback URL read (the code and state are far shorter). */
const CALLBACK_URL_MAX = 4_096;

const startAgain = 'Your sign-in could not be completed. Go to the start page and try again.';

/** Registers the routes under the scope's `/uploads` prefix. */
export function signInRoutes(scope: FastifyInstance, ctx: PageContext): void {
  scope.get('/sign-in', async (request, reply) => {
    const person = ctx.personSignIn();
    if (!person) return sendPage(reply, 404, messagePage('Page not found', 'Signing in with an account is not set up for this service.'));
    // The session cookie must be on the address the identity provider sends the browser back to.
    const home = new URL(person.redirectUrl);
    if (request.host !== home.host) return reply.redirect(`${home.origin}/uploads/sign-in`, 303);
    let session = await ctx.sessions.find(sessionCookie(request));
    if (session?.signedIn) return reply.redirect('/uploads', 303);
    if (!session) {
      session = await ctx.sessions.start(request.ip);
      setSessionCookie(ctx, reply, session.id);
    }
    const { login, url } = await person.begin();
    if (!(await ctx.sessions.beginLogin(session, login))) return reply.redirect('/uploads', 303);
    return reply.redirect(url, 303);
  });

  scope.get('/sign-in/callback', async (request: FastifyRequest, reply: FastifyReply) => {
    const person = ctx.personSignIn();
    if (!person) return sendPage(reply, 404, messagePage('Page not found', 'Signing in with an account is not set up for this service.'));
    const session = await ctx.sessions.find(sessionCookie(request));
    if (!session?.login || request.url.length > CALLBACK_URL_MAX) {
      return sendPage(reply, 400, messagePage('Your sign-in could not be completed', startAgain));
    }
    const callbackUrl = new URL(person.redirectUrl);
    callbackUrl.search = new URL(request.url, callbackUrl).search;
    try {
      const as = await person.finish(callbackUrl, session.login);
      const registered = await ctx.providers.getProvider(as.ukprn);
      if (!registered) throw new SignInRefused(403, 'Your organisation is not registered with this service. Ask the service’s operators.');
      const signedIn = await ctx.sessions.signIn(session, as);
      setSessionCookie(ctx, reply, signedIn.id);
      return reply.redirect('/uploads', 303);
    } catch (err) {
      if (!(err instanceof SignInRefused)) throw err;
      // The login is spent either way: a second try starts again.
      await ctx.sessions.beginLogin(session, null);
      const title = err.status === 403 ? 'You cannot use this service' : 'Your sign-in could not be completed';
      return sendPage(reply, err.status, messagePage(title, err.message));
    }
  });
}
