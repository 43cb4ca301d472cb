/** What the uploads page's routes share: context, the signed-in caller, a form checked for its CSRF token, the session cookie. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ProviderReadModel } from '@app/providers/read';
import type { TimelineSource, TraineeReadModel } from '@app/trainees/read';
import type { ApiVersion } from '@app/trainees/record';
import type { Caller } from '@app/trainees/write';
import { UPLOAD_BYTES_MAX } from '@app/uploads/decider';
import type { ApiAuthenticator } from '../auth/api.guard';
import type { Uploads } from '../uploads/uploads';
import type { StorageFaults } from '../composition/storage-faults';
import { FIELD_CHARS_MAX, FormRefused, postedForm, sessionCookie, sessionCookieHeader, type PostedForm } from './page-forms';
import { csrfTokenMatches, SESSION_MAX_MS, type PageSession, type PageSessions } from './page-sessions';
import type { PersonSignIn } from './person-sign-in';
import { messagePage } from './start-views';
import type { PageHolder } from './layout';

export interface PageContext {
  uploads: Uploads;
  authenticator: ApiAuthenticator;
  /** The newest served. */
  version: ApiVersion;
  sessions: PageSessions;
  /** The error page answers 503. */
  storageFaults: StorageFaults;
  /** The cookie is `Secure`: in production, or when the page is served over https. */
  secure: boolean;
  /** A person's sign-in by OpenID Connect; null when none is set up (production without `OIDC_ISSUER_URL`). */
  personSignIn: () => PersonSignIn | null;
  /** Signing in with the provider's API token: the sandbox only. */
  tokenSignIn: boolean;
  /** A person signs in only for a provider registered here. */
  providers: Pick<ProviderReadModel, 'getProvider'>;
  /** The API's trainee read model: the list of the provider's trainees, a trainee's record. */
  trainees: Pick<TraineeReadModel, 'listTrainees' | 'getTrainee'>;
  /** The log as the API's history reads it: a trainee's history. */
  timeline: TimelineSource;
  logger: Logger;
}

export interface SignedIn {
  session: PageSession;
  caller: Caller;
}

/** A `viewer` reads uploads only: adding, submitting or cancelling one is refused them (403), and their pages show no form for it. */
export function viewOnly(who: SignedIn): boolean {
  const as = who.session.signedIn;
  return as?.by === 'person' && as.role === 'viewer';
}

/** The signed-in page's holder: its CSRF token, the provider by the name the sign-in gave, with its UKPRN, and whether it views only. */
export function holderOf(who: SignedIn): PageHolder {
  const as = who.session.signedIn!;
  const provider = as.providerName ? `${as.providerName} (UKPRN ${as.ukprn})` : `UKPRN ${as.ukprn}`;
  return { csrfToken: who.session.csrfToken, provider, viewOnly: viewOnly(who) };
}

/** The file and the form's fields; past this, 413 (an error summary). */
export const MULTIPART_BYTES_MAX = 2 * UPLOAD_BYTES_MAX;
/** A CSRF token and an API token at most. */
export const URLENCODED_BYTES_MAX = 8 * FIELD_CHARS_MAX;

export function sendPage(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

/** Null: no session, not signed in, or, signed in with a token, the token no longer authenticates (the session then ends). */
export async function signedIn(ctx: PageContext, request: FastifyRequest): Promise<SignedIn | null> {
  const session = await ctx.sessions.find(sessionCookie(request));
  const as = session?.signedIn;
  if (!session || !as) return null;
  if (as.by === 'person') {
    return {
      session,
      caller: { ukprn: as.ukprn, tokenId: null, userId: as.userId, apiVersion: ctx.version, requestId: String(request.id) },
    };
  }
  const holder = await ctx.authenticator.tokenHolder(as.tokenHash);
  if (!holder || holder.ukprn !== as.ukprn) {
    await ctx.sessions.end(session.id);
    return null;
  }
  return { session, caller: { ukprn: holder.ukprn, tokenId: holder.tokenId, apiVersion: ctx.version, requestId: String(request.id) } };
}

/** Null once the answer is sent: 403 without the session's CSRF token (or session), 400 for a body that is none of the page's forms. */
export async function checkedForm(
  ctx: PageContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<{ session: PageSession; form: PostedForm } | null> {
  const session = await ctx.sessions.find(sessionCookie(request));
  let form: PostedForm;
  try {
    form = await postedForm(request);
  } catch (err) {
    if (!(err instanceof FormRefused)) throw err;
    sendPage(reply, 400, messagePage('There is a problem with the form', 'The form sent was not one of this service’s forms.'));
    return null;
  }
  if (!session || !csrfTokenMatches(session, form.fields.csrf_token)) {
    const body = 'The form was sent without its security token, or your session has ended. Go to the start page and try again.';
    sendPage(reply, 403, messagePage('Your form could not be sent', body));
    return null;
  }
  return { session, form };
}

/** `maxAgeS` 0 ends it in the browser. */
export function setSessionCookie(ctx: PageContext, reply: FastifyReply, id: string, maxAgeS = SESSION_MAX_MS / 1000): void {
  void reply.header('set-cookie', sessionCookieHeader(id, maxAgeS, ctx.secure));
}
