/**
 * "Your trainees": the signed-in provider's trainees (`/uploads/trainees`), a page of the read model's list (the API's, with a search),
 * and each trainee's page (`/uploads/trainees/:id`) with a page of its history (the API's history read). The ownership rule is the
 * API's: another provider's trainee, an erased or unknown one, is "Page not found", as the API answers 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFound } from '@app/trainees/decider';
import {
  findOwnTrainee,
  readTimelinePage,
  TIMELINE_START,
  TIMELINE_STATUSES,
  type TimelinePlace,
  type TimelineStatus,
} from '@app/trainees/read';
import { holderOf, sendPage, signedIn, type PageContext, type SignedIn } from './page-context';
import { messagePage } from './start-views';
import { TRAINEES_PER_PAGE, traineeListRequest } from './trainee-list-request';
import { lastPageOf, traineeListPage } from './trainee-list-views';
import { traineePage } from './trainee-page-views';

/** The longest trainee id read from a path (the API's bound). */
const TRAINEE_ID_MAX = 255;
/** Events of a trainee's history on its page. */
export const HISTORY_PAGE_EVENTS = 50;

/** `YYYY-MM-DD`, UTC: the day the list's default year and statuses stand on, as the API's list. */
const todayUtc = (): string => new Date().toISOString().slice(0, 10);

/** "Page not found", as another provider's upload is. */
function notFound(reply: FastifyReply, who: SignedIn): FastifyReply {
  return sendPage(reply, 404, messagePage('Page not found', 'There is no such trainee of yours.', holderOf(who)));
}

/**
 * Where the history's page starts: `history_from` (a stream revision) with `history_state` (the lifecycle state before it), as the
 * "Show later changes" link writes them; the start when neither is sent; null for anything else.
 */
function historyPlace(query: Readonly<Record<string, unknown>>): TimelinePlace | null {
  const { history_from: from, history_state: state } = query;
  if (from === undefined && state === undefined) return TIMELINE_START;
  if (typeof from !== 'string' || !/^\d{1,9}$/.test(from) || typeof state !== 'string') return null;
  if (!(TIMELINE_STATUSES as readonly string[]).includes(state) || state === 'erased') return null;
  return { revision: Number(from), status: state as TimelineStatus };
}

/** The list: its request read and bounded (400 and the error summary for a bad value), then one page of the read model's list. */
async function listRoute(ctx: PageContext, request: FastifyRequest, reply: FastifyReply, who: SignedIn): Promise<FastifyReply> {
  const today = todayUtc();
  const holder = holderOf(who);
  const { request: asked, errors } = traineeListRequest((request.query ?? {}) as Record<string, unknown>, today);
  if (errors.length > 0) return sendPage(reply, 400, traineeListPage(holder, asked, null, today, errors));
  const found = await ctx.trainees.listTrainees({
    ukprn: who.caller.ukprn,
    academicCycle: asked.cycle,
    statuses: asked.statuses,
    search: asked.words,
    page: asked.page,
    perPage: TRAINEES_PER_PAGE,
    sortOrder: 'desc',
    today,
  });
  const last = lastPageOf(found.totalCount);
  if (asked.page > last) {
    const message = `There is no page ${asked.page}: the list has ${last === 1 ? '1 page' : `${last} pages`}`;
    return sendPage(reply, 404, traineeListPage(holder, asked, found, today, [{ field: 'results', message }]));
  }
  return sendPage(reply, 200, traineeListPage(holder, asked, found, today));
}

/** Registers the trainees' routes under the scope's `/uploads` prefix; not signed in → the start page (sign in). */
export function traineeRoutes(scope: FastifyInstance, ctx: PageContext): void {
  scope.get('/trainees', async (request, reply) => {
    const who = await signedIn(ctx, request);
    if (!who) return reply.redirect('/uploads', 303);
    return listRoute(ctx, request, reply, who);
  });

  scope.get<{ Params: { id: string } }>('/trainees/:id', async (request, reply) => {
    const who = await signedIn(ctx, request);
    if (!who) return reply.redirect('/uploads', 303);
    const id = request.params.id;
    const from = historyPlace((request.query ?? {}) as Record<string, unknown>);
    if (id.length > TRAINEE_ID_MAX || from === null) return notFound(reply, who);
    try {
      const trainee = await findOwnTrainee(ctx.trainees, who.caller.ukprn, id);
      const history = await readTimelinePage(ctx.timeline, trainee.trainee_id, from, HISTORY_PAGE_EVENTS);
      return sendPage(reply, 200, traineePage(holderOf(who), trainee, history, ctx.version, todayUtc()));
    } catch (err) {
      if (!(err instanceof NotFound)) throw err;
      return notFound(reply, who);
    }
  });
}
