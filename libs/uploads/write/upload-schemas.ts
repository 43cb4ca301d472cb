/**
 * The uploads' answers in the OpenAPI documents (the same in every version): an upload, with its
 * errors and rows' outcomes, one upload answered, and a page of them. Bounds: an upload holds at
 * most `UPLOAD_ROWS_MAX` trainee rows (libs/uploads/decider/upload.limits.ts).
 */
import { errorList, type JsonSchema } from '@app/trainees/contract';
import { UPLOAD_BYTES_MAX, UPLOAD_ROWS_MAX, UPLOAD_STATUSES } from '@app/uploads/decider';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const instant = (description: string, nullable = true): JsonSchema => ({
  type: nullable ? ['string', 'null'] : 'string',
  format: 'date-time',
  description,
});

const ROW: JsonSchema = {
  type: 'integer',
  minimum: 2,
  description: "The spreadsheet's row number: the header is row 1, the first trainee row 2 (blank rows count).",
  example: 4,
};
const MESSAGE: JsonSchema = { type: 'string', minLength: 1, description: "Worded as the API's 422 messages." };
const COLUMN: JsonSchema = {
  type: ['string', 'null'],
  description: 'The template column the message is about; null for the row as a whole (a duplicate).',
  example: 'date_of_birth',
};

export const UPLOAD_SCHEMAS: Record<string, JsonSchema> = {
  UploadTooLarge: errorList(['PayloadTooLarge'], `The file is over ${UPLOAD_BYTES_MAX} bytes (1MB).`),
  UploadRefused: errorList(
    ['UnprocessableEntity'],
    'The file is refused as a whole, or the upload cannot be submitted: the message says why (columns named as written).',
  ),
  UnsupportedMediaType: errorList(
    ['UnsupportedMediaType'],
    'The body is not of a media type the operation takes (an upload: `text/csv`), or its `Content-Type` is no media type.',
  ),
  UploadQuotaExceeded: errorList(
    ['TooManyRequests'],
    "One of the provider's upload quotas is reached: the message names it (files waiting for their check, or bytes uploaded in " +
      'the UTC day); `Retry-After` says when to try again.',
  ),
  UploadRowError: {
    type: 'object',
    properties: { row: ROW, column: COLUMN, message: MESSAGE },
    required: ['row', 'column', 'message'],
    additionalProperties: false,
    example: { row: 4, column: 'date_of_birth', message: "date_of_birth can't be blank" },
  },
  UploadRowOutcome: {
    type: 'object',
    description: 'What became of one submitted row: the trainee it made, or why it was refused when written.',
    properties: {
      row: ROW,
      trainee_id: { type: 'string', description: 'The trainee the row made.' },
      errors: {
        type: 'array',
        items: {
          type: 'object',
          properties: { column: COLUMN, message: MESSAGE },
          required: ['column', 'message'],
          additionalProperties: false,
        },
      },
    },
    required: ['row'],
    additionalProperties: false,
    example: { row: 2, trainee_id: 'pM5Hy1Fi2jbYCzw7wKUc7Kqm' },
  },
  Upload: {
    type: 'object',
    description:
      'A CSV file of trainees the provider uploaded: checked in the background (`pending` → `validated` or `failed`), then, ' +
      'once submitted (`in_progress`), each row written as a trainee (`succeeded`); `cancelled` before submit.',
    properties: {
      upload_id: { type: 'string', example: 'Zq4w9CDbXb2B1nnH5yKf8Tu3' },
      status: { type: 'string', enum: [...UPLOAD_STATUSES], example: 'validated' },
      api_version: { type: 'string', description: 'The API version whose template the file follows.', example: 'v2026.1' },
      row_count: { type: 'integer', minimum: 0, maximum: UPLOAD_ROWS_MAX, description: 'Trainee rows (0 until checked).', example: 500 },
      error_count: { type: 'integer', minimum: 0, example: 0 },
      errors: { type: 'array', items: ref('UploadRowError'), description: 'In row order.' },
      rows: { type: 'array', items: ref('UploadRowOutcome'), maxItems: UPLOAD_ROWS_MAX, description: 'Once submitted, in row order.' },
      received_at: instant('UTC.', false),
      checked_at: instant('UTC; null until checked.'),
      submitted_at: instant('UTC; null until submitted.'),
      ended_at: instant('UTC; when every row had its outcome, or the upload was cancelled.'),
    },
    required: ['upload_id', 'status', 'api_version', 'row_count', 'error_count', 'errors', 'rows', 'received_at'],
    additionalProperties: false,
  },
  UploadResponse: { type: 'object', properties: { data: ref('Upload') }, required: ['data'], additionalProperties: false },
  UploadListResponse: {
    type: 'object',
    properties: { data: { type: 'array', items: ref('Upload') }, meta: ref('ListMeta') },
    required: ['data', 'meta'],
    additionalProperties: false,
  },
};
