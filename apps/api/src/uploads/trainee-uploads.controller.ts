import { Delete, Get, Header, HttpCode, Param, Post, Query, Req, Res, UnsupportedMediaTypeException } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiParam, ApiProduces, ApiQuery, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { Caller } from '@app/trainees/write';
import {
  addTraineeColumns,
  cancelUpload,
  getUpload,
  listUploads,
  receiveUpload,
  submitUpload,
  uploadAnswer,
  uploadErrorsCsv,
  type UploadAnswer,
} from '@app/uploads/write';
import { templateCsv } from '@app/uploads/csv';
import { UPLOAD_BYTES_MAX, UPLOAD_ROWS_MAX } from '@app/uploads/decider';
import type { VersionContract } from '@app/trainees/contract';
import { ApiController } from '../openapi/api-controller.decorator';
import { Answers, NotFoundAnswer, Operation } from '../openapi/operation.decorators';
import { Contract, CurrentCaller, type ApiRequest } from '../auth/request-context';
import { Idempotent } from '../idempotency/idempotency.interceptor';
import { listPage, type ListPage } from './list-page';
import { Uploads } from './uploads';

const UPLOAD_ID = ApiParam({
  name: 'upload_id',
  required: true,
  description: 'The upload id.',
  schema: { type: 'string', maxLength: 255 },
});
const CSV = 'text/csv; charset=utf-8';
const NOT_FOUND = "No such upload of the provider (another provider's included).";

/**
 * The provider's CSV files of new trainees under /api/{version}/trainee-uploads (docs/operations.md
 * "Adding trainees from a file"): the template of the version, a file received (202, checked in the
 * background), one upload, its file with an errors column, its submit (202, written in the
 * background, each row once), its cancel, and the list, newest first. Another provider's upload is
 * 404 on every route (docs/DESIGN.md property 6).
 */
@ApiController('trainee-uploads', 'Uploads')
export class TraineeUploadsController {
  constructor(private readonly uploads: Uploads) {}

  /** GET …/trainee-uploads/template: the header row of this version's file, `text/csv`, UTF-8. */
  @Get('template')
  @Operation('getTraineeUploadTemplate', 'The CSV template of new trainees', 'One header row: a column per field of the create body.')
  @ApiProduces('text/csv')
  @ApiResponse({
    status: 200,
    description: 'The header row.',
    content: { 'text/csv': { schema: { type: 'string', example: 'provider_trainee_id,first_names,…\r\n' } } },
  })
  @Header('content-type', CSV)
  template(@Contract() contract: VersionContract, @Res({ passthrough: true }) reply: FastifyReply): string {
    void reply.header('content-disposition', `attachment; filename="trainee-upload-template-${contract.version}.csv"`);
    return templateCsv(addTraineeColumns(contract.version));
  }

  /**
   * POST …/trainee-uploads with a `text/csv` body: 202 with the upload (status `pending`) and its
   * `Location`; the rows are checked in the background. The file is refused as a whole with 413
   * (over 1 MB) or 422 naming why (not UTF-8, not CSV, unknown or missing columns, no trainee row,
   * more than 1,000 rows); 415 for a body that is not `text/csv`.
   */
  @Post()
  @Idempotent()
  @HttpCode(202)
  @Operation(
    'createTraineeUpload',
    'Upload a CSV file of new trainees',
    `UTF-8 (a BOM allowed), CRLF or LF line ends, RFC 4180 quoting; at most ${UPLOAD_BYTES_MAX} bytes and ${UPLOAD_ROWS_MAX} trainee rows. ` +
      'Headers match the template ignoring case, spaces, hyphens and underscores; an `errors` column is ignored. Nothing is written to ' +
      'any trainee until the upload is submitted.',
  )
  @ApiConsumes('text/csv')
  @ApiBody({ required: true, schema: { type: 'string', maxLength: UPLOAD_BYTES_MAX } })
  @Answers(202, 'The upload, `pending` its check; `Location` names it.', 'UploadResponse')
  @Answers(413, `The file is larger than ${UPLOAD_BYTES_MAX} bytes.`, 'UploadTooLarge')
  @Answers(415, 'The body is not `text/csv`.', 'UnsupportedMediaType')
  @Answers(422, 'The file is refused as a whole: the message says why (columns named).', 'UploadRefused')
  async upload(
    @CurrentCaller() caller: Caller,
    @Req() req: ApiRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: UploadAnswer }> {
    if (!Buffer.isBuffer(req.body)) throw new UnsupportedMediaTypeException('Send the file as the body, with Content-Type: text/csv');
    const state = await receiveUpload(this.uploads.ports, caller, req.body, null);
    this.uploads.worker.enqueue(state.upload_id!);
    void reply.header('location', `/api/${caller.apiVersion}/trainee-uploads/${state.upload_id}`);
    return { data: uploadAnswer(state) };
  }

  /** GET …/trainee-uploads?page=&per_page=: the provider's uploads, newest first (`per_page` default 25, at most 100). */
  @Get()
  @Operation('listTraineeUploads', "The provider's uploads of new trainees", 'Newest first, paged.')
  @ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } })
  @ApiQuery({ name: 'per_page', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 25 } })
  @Answers(200, 'A page of uploads (empty past the last).', 'UploadListResponse')
  @Answers(422, '`page` or `per_page` out of bounds.', 'ListQueryErrors')
  async list(@CurrentCaller() caller: Caller, @Query() raw: Record<string, unknown>): Promise<{ data: UploadAnswer[]; meta: ListPage }> {
    const { page, perPage } = listPage(raw);
    const { items, totalCount } = await listUploads(this.uploads.ports, caller, 'add_trainees', page, perPage);
    return {
      data: items,
      meta: { current_page: page, total_pages: Math.ceil(totalCount / perPage), total_count: totalCount, per_page: perPage },
    };
  }

  /** GET …/trainee-uploads/{upload_id}: status, counts, errors by row and column, and each submitted row's outcome. */
  @Get(':upload_id')
  @Operation('getTraineeUpload', 'An upload of new trainees')
  @UPLOAD_ID
  @Answers(200, 'The upload.', 'UploadResponse')
  @NotFoundAnswer(NOT_FOUND)
  async get(@CurrentCaller() caller: Caller, @Param('upload_id') uploadId: string): Promise<{ data: UploadAnswer }> {
    return { data: await getUpload(this.uploads.ports, caller, uploadId, 'add_trainees') };
  }

  /** GET …/{upload_id}/errors: the file as uploaded with an `errors` column, formula-looking cells escaped, `text/csv`. */
  @Get(':upload_id/errors')
  @Operation('getTraineeUploadErrors', 'The uploaded file with its errors', "Each row's messages in a last `errors` column.")
  @UPLOAD_ID
  @ApiProduces('text/csv')
  @ApiResponse({ status: 200, description: 'The file with an `errors` column.', content: { 'text/csv': { schema: { type: 'string' } } } })
  @NotFoundAnswer(NOT_FOUND)
  @Header('content-type', CSV)
  async errors(
    @CurrentCaller() caller: Caller,
    @Param('upload_id') uploadId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<string> {
    const csv = await uploadErrorsCsv(this.uploads.ports, caller, uploadId, 'add_trainees');
    void reply.header('content-disposition', `attachment; filename="trainee-upload-${uploadId}-errors.csv"`);
    return csv;
  }

  /** POST …/{upload_id}/submit: 202 once validated with no errors; each row becomes a trainee once, in the background. */
  @Post(':upload_id/submit')
  @Idempotent()
  @HttpCode(202)
  @Operation('submitTraineeUpload', 'Submit an upload of new trainees', 'Each row becomes a trainee once, even across a restart.')
  @UPLOAD_ID
  @Answers(202, 'The upload, `in_progress`.', 'UploadResponse')
  @NotFoundAnswer(NOT_FOUND)
  @Answers(409, 'Already submitted, or cancelled.', 'Conflict')
  @Answers(422, 'Not checked yet, or checked with errors.', 'UploadRefused')
  async submit(@CurrentCaller() caller: Caller, @Param('upload_id') uploadId: string): Promise<{ data: UploadAnswer }> {
    const state = await submitUpload(this.uploads.ports, caller, uploadId);
    this.uploads.worker.enqueue(uploadId);
    return { data: uploadAnswer(state) };
  }

  /** DELETE …/{upload_id}: cancels the upload before it is submitted. */
  @Delete(':upload_id')
  @Idempotent()
  @Operation('cancelTraineeUpload', 'Cancel an upload of new trainees', 'Before it is submitted.')
  @UPLOAD_ID
  @Answers(200, 'The upload, `cancelled`.', 'UploadResponse')
  @NotFoundAnswer(NOT_FOUND)
  @Answers(409, 'Already submitted, or cancelled.', 'Conflict')
  async cancel(@CurrentCaller() caller: Caller, @Param('upload_id') uploadId: string): Promise<{ data: UploadAnswer }> {
    return { data: uploadAnswer(await cancelUpload(this.uploads.ports, caller, uploadId)) };
  }
}
