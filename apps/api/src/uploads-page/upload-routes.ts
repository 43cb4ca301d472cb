/**
 * The steps of an upload on the page, for each journey (new trainees at `/uploads/files`, recommendations at
 * `/uploads/recommendations/files`), each through the API's own upload operations (`@app/uploads/write`) for the signed-in provider: a
 * file received (refusals as the start page's error summary), its page by status (a checked file's summary naming each row's person),
 * its submit and its cancel, its errors file and its result file. Another provider's upload, or one of the other kind, is "Page not
 * found", as the API answers 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csvText, UploadFileRefused } from '@app/uploads/csv';
import { UploadConflict, UploadNotFound, UploadNotSubmittable } from '@app/uploads/decider';
import {
  cancelUpload,
  getUpload,
  getUploadWithProblems,
  receiveUpload,
  submitUpload,
  uploadErrorsCsv,
  UploadQuotaExceeded,
  uploadRowPeople,
} from '@app/uploads/write';
import { checkedForm, holderOf, sendPage, signedIn, viewOnly, type PageContext, type SignedIn } from './page-context';
import { sendCsv, startPageFor } from './session-routes';
import { messagePage } from './start-views';
import { filesUrl, UPLOAD_JOURNEYS, type UploadJourney } from './upload-journeys';
import { resultRows, uploadPage } from './upload-views';

/** The longest upload id read from a path (the API's bound). */
const UPLOAD_ID_MAX = 255;
/** The longest file name kept with an upload. */
const FILE_NAME_MAX = 255;

type Route = (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply, who: SignedIn, id: string) => Promise<unknown>;

/**
 * A route of one upload for a signed-in provider: not signed in → the start page (sign in); a POST
 * without the session's CSRF token → 403; an upload not the provider's (or not of the route's
 * journey, or an id past its bound) → 404 "Page not found".
 */
function uploadRoute(ctx: PageContext, post: boolean, route: Route) {
  return async (request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply) => {
    if (post && !(await checkedForm(ctx, request, reply))) return reply;
    const who = await signedIn(ctx, request);
    if (!who) return reply.redirect('/uploads', 303);
    const id = request.params.id;
    try {
      if (id.length > UPLOAD_ID_MAX) throw new UploadNotFound();
      return await route(request, reply, who, id);
    } catch (err) {
      if (!(err instanceof UploadNotFound)) throw err;
      return sendPage(reply, 404, messagePage('Page not found', 'There is no such upload of yours.', holderOf(who)));
    }
  };
}

/** A `viewer` reads uploads only: adding, submitting or cancelling one is 403 for them. */
function viewerRefused(who: SignedIn, reply: FastifyReply): FastifyReply | null {
  if (!viewOnly(who)) return null;
  return sendPage(reply, 403, messagePage('You cannot do this', 'Your role lets you see your provider’s uploads only.', holderOf(who)));
}

/** Submit or cancel, then back to the upload's page, which shows where it stands (a second submit, too). */
async function thenShow(reply: FastifyReply, url: string, operation: () => Promise<unknown>): Promise<FastifyReply> {
  try {
    await operation();
  } catch (err) {
    if (!(err instanceof UploadConflict) && !(err instanceof UploadNotSubmittable)) throw err;
  }
  return reply.redirect(url, 303);
}

/**
 * The page of the provider's upload `id` of `journey`: its errors worded from what each is about and, once checked, each checked
 * row's person for the summary (read from the file: personal data, shown on the `no-store` page only).
 */
async function checkedUploadPage(ctx: PageContext, who: SignedIn, id: string, journey: UploadJourney): Promise<string> {
  const { ports } = ctx.uploads;
  const { upload, errors } = await getUploadWithProblems(ports, who.caller, id, journey.kind);
  const checked = upload.status === 'validated' || upload.status === 'failed';
  const people = checked ? await uploadRowPeople(ports, who.caller, id, journey.kind) : [];
  return uploadPage(upload, holderOf(who), journey, { rowErrors: errors, people });
}

/** Registers the upload routes of every journey under the scope's `/uploads` prefix. */
export function uploadRoutes(scope: FastifyInstance, ctx: PageContext): void {
  for (const journey of UPLOAD_JOURNEYS) journeyRoutes(scope, ctx, journey);
}

/** The routes of `journey`'s uploads: its files posted to `<journey>/files`, each upload's pages under `<journey>/files/:id`. */
function journeyRoutes(scope: FastifyInstance, ctx: PageContext, journey: UploadJourney): void {
  const { ports, worker } = ctx.uploads;
  const { kind } = journey;
  const files = `${journey.path}/files`;
  const pageOf = (id: string) => `${filesUrl(journey)}/${id}`;

  scope.post(files, async (request, reply) => {
    const checked = await checkedForm(ctx, request, reply);
    if (!checked) return reply;
    const who = await signedIn(ctx, request);
    if (!who) return reply.redirect('/uploads', 303);
    const refused = viewerRefused(who, reply);
    if (refused) return refused;
    const file = checked.form.file;
    if (!file || (file.name === '' && file.bytes.byteLength === 0)) {
      return startPageFor(ctx, who, reply, 422, [{ message: 'Select a CSV file', field: 'file' }], journey);
    }
    try {
      const state = await receiveUpload(ports, who.caller, kind, file.bytes, file.name.slice(0, FILE_NAME_MAX));
      worker.enqueue(state.upload_id!, who.caller.ukprn);
      return reply.redirect(pageOf(state.upload_id!), 303);
    } catch (err) {
      if (err instanceof UploadQuotaExceeded) {
        // The API's answer to the same upload: 429 with `Retry-After`, the limit named in the error summary.
        void reply.header('retry-after', String(err.retryAfterSeconds));
        return startPageFor(ctx, who, reply, 429, [{ message: err.message, field: 'file' }], journey);
      }
      if (!(err instanceof UploadFileRefused)) throw err;
      return startPageFor(ctx, who, reply, 422, [{ message: err.message, field: 'file' }], journey);
    }
  });

  scope.get(
    `${files}/:id`,
    uploadRoute(ctx, false, async (_request, reply, who, id) => sendPage(reply, 200, await checkedUploadPage(ctx, who, id, journey))),
  );

  scope.post(
    `${files}/:id/submit`,
    uploadRoute(
      ctx,
      true,
      async (_request, reply, who, id) =>
        viewerRefused(who, reply) ??
        thenShow(reply, pageOf(id), async () => {
          await submitUpload(ports, who.caller, id, kind);
          worker.enqueue(id, who.caller.ukprn);
        }),
    ),
  );

  scope.post(
    `${files}/:id/cancel`,
    uploadRoute(
      ctx,
      true,
      async (_request, reply, who, id) =>
        viewerRefused(who, reply) ?? thenShow(reply, pageOf(id), () => cancelUpload(ports, who.caller, id, kind)),
    ),
  );

  scope.get(
    `${files}/:id/errors.csv`,
    uploadRoute(ctx, false, async (_request, reply, who, id) =>
      sendCsv(reply, `${journey.fileNoun}-${id}-errors.csv`, await uploadErrorsCsv(ports, who.caller, id, kind, 'person')),
    ),
  );

  scope.get(
    `${files}/:id/trainees.csv`,
    uploadRoute(ctx, false, async (_request, reply, who, id) => {
      const rows = resultRows(await getUpload(ports, who.caller, id, kind), kind);
      return sendCsv(reply, `${journey.fileNoun}-${id}-trainees.csv`, csvText(rows));
    }),
  );
}
