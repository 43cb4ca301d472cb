import {
  Delete,
  Get,
  Header,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  Res,
  StreamableFile,
  UnsupportedMediaTypeException,
  type Type,
} from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiParam, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Caller } from '@app/trainees/write';
import {
  answerOf,
  cancelUpload,
  getUpload,
  listUploads,
  receiveUpload,
  submitUpload,
  uploadErrorsCsv,
  type UploadAnswer,
} from '@app/uploads/write';
import { UPLOAD_BYTES_MAX, UPLOAD_RECORDS_MAX, UPLOAD_ROWS_MAX, type UploadKind } from '@app/uploads/decider';
import type { VersionContract } from '@app/trainees/contract';
import { ApiController } from '../openapi/api-controller.decorator';
import { Answers, ATTACHMENT_HEADER, NotFoundAnswer, Operation, StorageUnavailable } from '../openapi/operation.decorators';
import { Contract, CurrentCaller, type ApiRequest } from '../auth/request-context';
import { Idempotent } from '../idempotency/idempotency.interceptor';
import { NOT_A_FILE, TakesFile } from '../bodies/file-body';
import { listPage, UPLOADS_PAGE_MAX, type ListPage } from './list-page';
import { Uploads } from './uploads';

const UPLOAD_ID = ApiParam({
  name: 'upload_id',
  required: true,
  description: 'The upload id.',
  schema: { type: 'string', maxLength: 255 },
});
const CSV = 'text/csv; charset=utf-8';
const NOT_FOUND = "No such upload of the provider (another provider's included).";

const seconds = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });

/**
 * The 429 of an upload: one of the provider's upload quotas (JSON, naming the limit; docs/operations.md
 * "Limits"), or a rate limit (plain text, as on every operation); `Retry-After` either way.
 */
const QUOTA_OR_RATE_LIMITED = ApiResponse({
  status: 429,
  description:
    "One of the provider's upload quotas is reached (JSON, the message naming it: files waiting for their check, or bytes uploaded " +
    'in the UTC day), or a rate limit (plain text `Retry later`, with the `RateLimit-*` headers).',
  headers: {
    'Retry-After': seconds('Whole seconds until the upload may be tried again.'),
    'RateLimit-Limit': seconds('Requests allowed in the window (a rate limit).'),
    'RateLimit-Remaining': seconds('Requests left in the window (a rate limit).'),
    'RateLimit-Reset': seconds('Whole seconds until the window ends (a rate limit).'),
  },
  content: {
    'application/json': { schema: { $ref: '#/components/schemas/UploadQuotaExceeded' } },
    'text/plain': { schema: { $ref: '#/components/schemas/TooManyRequests' } },
  },
});

/** What sets one kind of upload apart: its path, its kind, the words of its operations, its template. */
export interface UploadResource {
  /** The path under /api/{version}/, e.g. `trainee-uploads`. */
  path: string;
  kind: UploadKind;
  /** The operation ids' noun, e.g. `TraineeUpload`. */
  noun: string;
  /** What the file holds, for summaries: `new trainees`, `recommendations for award`. */
  holds: string;
  /** What submitting does to each row. */
  submitted: string;
  /** The template: its description and its text for the caller. */
  template: { description: string; csv(uploads: Uploads, caller: Caller, contract: VersionContract): Promise<string> | string };
}

/**
 * The reads of one kind of upload under /api/{version}/<path> (docs/operations.md "Adding trainees
 * from a file"): its template, the list (newest first), one upload, and its file with an errors
 * column. Another provider's upload, or one of the other kind, is 404 (docs/DESIGN.md property 6).
 */
export function uploadReadsController(r: UploadResource): Type<unknown> {
  @ApiController(r.path, 'Uploads')
  class UploadsController {
    constructor(readonly uploads: Uploads) {}

    /** GET …/template: the file to fill in, `text/csv`, UTF-8. */
    @Get('template')
    @Operation(`get${r.noun}Template`, `The CSV template of ${r.holds}`, r.template.description)
    @ApiProduces('text/csv')
    @ApiResponse({
      status: 200,
      description: 'The template.',
      headers: ATTACHMENT_HEADER,
      content: { 'text/csv': { schema: { type: 'string' } } },
    })
    @Header('content-type', CSV)
    async template(
      @CurrentCaller() caller: Caller,
      @Contract() contract: VersionContract,
      @Res({ passthrough: true }) reply: FastifyReply,
    ): Promise<string> {
      void reply.header('content-disposition', `attachment; filename="${r.path}-template-${contract.version}.csv"`);
      return r.template.csv(this.uploads, caller, contract);
    }

    /** GET ?page=&per_page=: the provider's uploads of this kind, newest first (`per_page` default 25, at most 100). */
    @Get()
    @Operation(`list${r.noun}s`, `The provider's uploads of ${r.holds}`, 'Newest first, paged.')
    @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, maximum: UPLOADS_PAGE_MAX, default: 1 } })
    @ApiQuery({ name: 'per_page', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } })
    @Answers(200, 'A page of uploads (empty past the last).', 'UploadListResponse')
    @Answers(422, '`page` or `per_page` out of bounds.', 'ListQueryErrors')
    async list(@CurrentCaller() caller: Caller, @Query() raw: Record<string, unknown>): Promise<{ data: UploadAnswer[]; meta: ListPage }> {
      const { page, perPage } = listPage(raw);
      const { items, totalCount } = await listUploads(this.uploads.ports, caller, r.kind, page, perPage);
      return {
        data: items,
        meta: { current_page: page, total_pages: Math.ceil(totalCount / perPage), total_count: totalCount, per_page: perPage },
      };
    }

    /** GET …/{upload_id}: status, counts, errors by row and column, and each submitted row's outcome. */
    @Get(':upload_id')
    @Operation(`get${r.noun}`, `An upload of ${r.holds}`)
    @UPLOAD_ID
    @Answers(200, 'The upload.', 'UploadResponse')
    @NotFoundAnswer(NOT_FOUND)
    async get(@CurrentCaller() caller: Caller, @Param('upload_id') uploadId: string): Promise<{ data: UploadAnswer }> {
      return { data: await getUpload(this.uploads.ports, caller, uploadId, r.kind) };
    }

    /** GET …/{upload_id}/errors: the file as uploaded with an `errors` column, formula-looking cells escaped, `text/csv`. */
    @Get(':upload_id/errors')
    @Operation(`get${r.noun}Errors`, 'The uploaded file with its errors', "Each row's messages in a last `errors` column.")
    @UPLOAD_ID
    @ApiProduces('text/csv')
    @ApiResponse({
      status: 200,
      description: 'The file with an `errors` column.',
      headers: ATTACHMENT_HEADER,
      content: { 'text/csv': { schema: { type: 'string' } } },
    })
    @NotFoundAnswer(NOT_FOUND)
    async errors(@CurrentCaller() caller: Caller, @Param('upload_id') uploadId: string): Promise<StreamableFile> {
      const csv = await uploadErrorsCsv(this.uploads.ports, caller, uploadId, r.kind);
      return new StreamableFile(csv, { type: CSV, disposition: `attachment; filename="${r.path}-${uploadId}-errors.csv"` });
    }
  }
  return Object.defineProperty(UploadsController, 'name', { value: `${r.noun}ReadsController` });
}

/**
 * The writes of one kind of upload under /api/{version}/<path>: a file received (202, checked in
 * the background), its submit (202, each row written once in the background), its cancel. Another
 * provider's upload, or one of the other kind, is 404 (docs/DESIGN.md property 6).
 */
export function uploadWritesController(r: UploadResource): Type<unknown> {
  @ApiController(r.path, 'Uploads')
  class UploadsController {
    constructor(readonly uploads: Uploads) {}

    /**
     * POST with a `text/csv` body: 202 with the upload (status `pending`) and its `Location`; the
     * rows are checked in the background. Refused as a whole with 413 (over 1 MB) or 422 naming
     * why; 415 for a body that is not `text/csv`; 429 with `Retry-After` past one of the
     * provider's upload quotas (docs/operations.md "Limits").
     */
    @Post()
    @TakesFile()
    @Idempotent()
    @StorageUnavailable()
    @HttpCode(202)
    @Operation(
      `create${r.noun}`,
      `Upload a CSV file of ${r.holds}`,
      `UTF-8 (a BOM allowed), CRLF or LF line ends, RFC 4180 quoting; at most ${UPLOAD_BYTES_MAX} bytes, ${UPLOAD_ROWS_MAX} trainee ` +
        `rows and ${UPLOAD_RECORDS_MAX} rows after the header in all (blank rows included). Headers match the template ignoring case, ` +
        'spaces, hyphens and underscores; an `errors` column is ignored. Nothing is written until the upload is submitted. Each ' +
        "provider may have a few files waiting for their check and upload a bounded number of bytes a day (the description's Limits).",
    )
    @ApiConsumes('text/csv')
    @ApiBody({ required: true, schema: { type: 'string', maxLength: UPLOAD_BYTES_MAX } })
    @Answers(202, 'The upload, `pending` its check; `Location` names it.', 'UploadResponse', {
      Location: { description: 'The upload: `/api/<version>/<path>/<upload_id>`.', schema: { type: 'string', maxLength: 512 } },
    })
    @Answers(413, `The file is larger than ${UPLOAD_BYTES_MAX} bytes.`, 'UploadTooLarge')
    @Answers(415, 'The body is not `text/csv`.', 'UnsupportedMediaType')
    @Answers(422, 'The file is refused as a whole: the message says why (columns named, bounds given).', 'UploadRefused')
    @QUOTA_OR_RATE_LIMITED
    async upload(
      @CurrentCaller() caller: Caller,
      @Req() req: ApiRequest,
      @Res({ passthrough: true }) reply: FastifyReply,
    ): Promise<{ data: UploadAnswer }> {
      if (!Buffer.isBuffer(req.body)) throw new UnsupportedMediaTypeException(NOT_A_FILE);
      const state = await receiveUpload(this.uploads.ports, caller, r.kind, req.body, null);
      this.uploads.worker.enqueue(state.upload_id!, caller.ukprn);
      void reply.header('location', `/api/${caller.apiVersion}/${r.path}/${state.upload_id}`);
      return { data: await answerOf(this.uploads.ports, state.upload_id!, state) };
    }

    /** POST …/{upload_id}/submit: 202 once validated with no errors; each row is written once, in the background. */
    @Post(':upload_id/submit')
    @Idempotent()
    @StorageUnavailable()
    @HttpCode(202)
    @Operation(`submit${r.noun}`, `Submit an upload of ${r.holds}`, `${r.submitted}, once, even across a restart.`)
    @UPLOAD_ID
    @Answers(202, 'The upload, `in_progress`.', 'UploadResponse')
    @NotFoundAnswer(NOT_FOUND)
    @Answers(409, 'Already submitted, or cancelled.', 'Conflict')
    @Answers(422, 'Not checked yet, or checked with errors.', 'UploadRefused')
    async submit(@CurrentCaller() caller: Caller, @Param('upload_id') uploadId: string): Promise<{ data: UploadAnswer }> {
      const state = await submitUpload(this.uploads.ports, caller, uploadId, r.kind);
      this.uploads.worker.enqueue(uploadId, caller.ukprn);
      return { data: await answerOf(this.uploads.ports, uploadId, state) };
    }

    /** DELETE …/{upload_id}: cancels the upload before it is submitted. */
    @Delete(':upload_id')
    @Idempotent()
    @StorageUnavailable()
    @Operation(`cancel${r.noun}`, `Cancel an upload of ${r.holds}`, 'Before it is submitted.')
    @UPLOAD_ID
    @Answers(200, 'The upload, `cancelled`.', 'UploadResponse')
    @NotFoundAnswer(NOT_FOUND)
    @Answers(409, 'Already submitted, or cancelled.', 'Conflict')
    async cancel(@CurrentCaller() caller: Caller, @Param('upload_id') uploadId: string): Promise<{ data: UploadAnswer }> {
      return { data: await answerOf(this.uploads.ports, uploadId, await cancelUpload(this.uploads.ports, caller, uploadId, r.kind)) };
    }
  }
  return Object.defineProperty(UploadsController, 'name', { value: `${r.noun}WritesController` });
}
