/**
 * The OpenAPI documents and responses of the response validator's specifications
 * (openapi-validator*.spec.ts): small hand-written OpenAPI 3.1 documents, one per API version,
 * shaped like the service's: `/api/{api_version}/...` with the version as an enum path parameter.
 */
import type { ObservedResponse } from './openapi-validator';

const TRAINEE_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** A trainee as the document's Trainee schema allows it. */
export const trainee = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  trainee_id: TRAINEE_ID,
  trn: '1234567',
  first_names: 'Ada',
  middle_names: 'Augusta',
  date_of_birth: '1990-12-10',
  email: 'ada@example.org',
  disabilities: { disability1: 'blind', disability2: 'deaf' },
  ...overrides,
});

/** The test document of API version `version` (the enum of its `api_version` path parameter). */
export function documentFor(version: string): Record<string, unknown> {
  const json = (schema: unknown): Record<string, unknown> => ({ 'application/json': { schema } });
  return {
    openapi: '3.1.0',
    info: { title: 'Trainee records', version },
    paths: {
      '/api/{api_version}/trainees': {
        parameters: [{ $ref: '#/components/parameters/ApiVersion' }],
        get: {
          responses: {
            '200': { $ref: '#/components/responses/TraineeList' },
            '429': {
              description: 'Too many requests',
              headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } },
              content: { 'text/plain': { schema: { type: 'string', pattern: '^Slow down' } } },
            },
            '4XX': { $ref: '#/components/responses/Problem' },
          },
        },
        post: {
          responses: {
            '201': { description: 'Created', content: json({ $ref: '#/components/schemas/Trainee' }) },
            default: { $ref: '#/components/responses/Problem' },
          },
        },
      },
      '/api/{api_version}/trainees/{trainee_id}': {
        parameters: [
          { $ref: '#/components/parameters/ApiVersion' },
          { name: 'trainee_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[a-z0-9-]+$' } },
        ],
        get: {
          responses: {
            '200': { description: 'A trainee', content: json({ $ref: '#/components/schemas/Trainee' }) },
            '404': { $ref: '#/components/responses/NotFound' },
          },
        },
        delete: {
          // Operation-level parameter overriding the path item's: only numeric ids can be deleted.
          parameters: [{ name: 'trainee_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } }],
          responses: { '204': { description: 'Deleted' } },
        },
      },
      // Declared before the more specific template on purpose: declaration order must not decide.
      '/api/{api_version}/trainees/{trainee_id}/{section}': {
        parameters: [{ $ref: '#/components/parameters/ApiVersion' }],
        get: {
          responses: {
            '200': {
              description: 'Any section',
              content: json({ type: 'object', required: ['section'], properties: { section: { type: 'string' } } }),
            },
          },
        },
      },
      '/api/{api_version}/trainees/{trainee_id}/degrees': {
        parameters: [{ $ref: '#/components/parameters/ApiVersion' }],
        get: {
          responses: {
            '200': {
              description: 'Degrees',
              content: json({ type: 'object', required: ['degrees'], properties: { degrees: { type: 'array' } } }),
            },
          },
        },
      },
      '/api/{api_version}/exports/{name}': {
        parameters: [{ $ref: '#/components/parameters/ApiVersion' }],
        get: {
          responses: {
            '200': {
              description: 'Any representation',
              content: { 'application/json': { schema: { type: 'object' } }, '*/*': {} },
            },
          },
        },
      },
      '/api/{api_version}/openapi.json': {
        parameters: [{ $ref: '#/components/parameters/ApiVersion' }],
        get: { responses: { '200': { description: 'This document', content: json({ type: 'object', required: ['openapi'] }) } } },
      },
    },
    components: {
      parameters: {
        ApiVersion: { name: 'api_version', in: 'path', required: true, schema: { type: 'string', enum: [version] } },
      },
      headers: {
        RetryAfter: { $ref: '#/components/headers/RetryAfterSeconds' },
        RetryAfterSeconds: { required: true, schema: { type: 'integer', minimum: 1 } },
      },
      responses: {
        TraineeList: {
          description: 'A page of trainees',
          content: json({ $ref: '#/components/schemas/TraineeList' }),
        },
        NotFound: { $ref: '#/components/responses/Problem' },
        Problem: {
          description: 'A problem',
          content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
        },
      },
      schemas: {
        TraineeList: {
          type: 'object',
          required: ['data'],
          additionalProperties: false,
          properties: { data: { type: 'array', items: { $ref: '#/components/schemas/Trainee' } } },
        },
        Trainee: {
          type: 'object',
          required: ['trainee_id', 'trn', 'first_names'],
          additionalProperties: false,
          example: { trainee_id: TRAINEE_ID },
          externalDocs: { url: 'https://example.org/trainees' },
          xml: { name: 'trainee' },
          'x-internal': false,
          properties: {
            trainee_id: { type: 'string', format: 'uuid' },
            trn: { type: ['string', 'null'], pattern: '^[0-9]{7}$' },
            first_names: { type: 'string', examples: ['Ada'] },
            // `nullable` is not an OpenAPI 3.1 keyword: null must still be rejected here.
            middle_names: { type: 'string', nullable: true },
            date_of_birth: { type: 'string', format: 'date' },
            email: { type: 'string', format: 'email' },
            disabilities: { $ref: '#/components/schemas/Disabilities' },
          },
        },
        Disabilities: {
          type: 'object',
          additionalProperties: false,
          patternProperties: { '^disability\\d+$': { type: 'string' } },
        },
        Problem: {
          type: 'object',
          required: ['title', 'status'],
          discriminator: { propertyName: 'type' },
          properties: { title: { type: 'string' }, status: { type: 'integer' }, type: { type: 'string', format: 'uri' } },
        },
      },
    },
  };
}

/** The path prefix of the v2026.1 document's operations. */
export const V2026 = '/api/v2026.1';

/** A JSON response to `method url` with `status` and `body`, as a test would observe it. */
export const jsonResponse = (method: string, url: string, status: number, body: unknown): ObservedResponse => ({
  method,
  url,
  status,
  contentType: 'application/json; charset=utf-8',
  text: JSON.stringify(body),
});
