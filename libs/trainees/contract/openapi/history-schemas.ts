import { PROVIDER_EVENT_TYPES } from '@app/trainees/decider';
import type { JsonSchema } from '../wire/wire-object';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * The schemas of a trainee's audit history (GET /trainees/{trainee_id}/history; docs/operations.md
 * "Trainee history"), the same in every version: a timeline entry, a page of them, and the answer
 * (a page, or with `as_of` the version's `Trainee`).
 */
export const HISTORY_SCHEMAS: Record<string, JsonSchema> = {
  TimelineEntry: {
    type: 'object',
    description: 'One event of the trainee\'s stream (docs/operations.md "Trainee history"); it shows no global position.',
    properties: {
      revision: { type: 'integer', minimum: 0, description: "0-based revision in the trainee's stream." },
      occurred_at: { type: 'string', format: 'date-time' },
      event_type: { type: 'string', enum: [...PROVIDER_EVENT_TYPES] },
      changed_fields: {
        type: 'array',
        items: { type: 'string' },
        description: 'Canonical field names (the v2026.1 name where the versions differ).',
      },
      changes: {
        type: 'object',
        description:
          'The new value of each changed field; for a placement or degree added or updated, the whole item as it then stood; removed, its id and `removed: true`.',
      },
      provider_ukprn: { type: ['string', 'null'] },
      token_id: { type: ['string', 'null'], description: 'The id of the token that made the request, never the token.' },
      api_version: { type: ['string', 'null'] },
      request_id: { type: ['string', 'null'] },
      hash: {
        type: ['string', 'null'],
        pattern: '^[0-9a-f]{64}$',
        description:
          'SHA-256 (hex) of the event as stored, chained to `previous_hash` (docs/DESIGN.md "Verifiable history"); null for an event stored before the chain began.',
      },
      previous_hash: {
        type: ['string', 'null'],
        pattern: '^[0-9a-f]{64}$',
        description: "The hash of the stream's event before it; null for the first event.",
      },
      stream_id: { type: 'string', description: "The trainee's stream, `trainee-<trainee_id>`, as the hash covers it." },
      event_id: {
        type: 'string',
        description: "The event's id (lower case), as the hash covers it (events chained by version 2 of the rule).",
      },
      stored_data: {
        type: 'string',
        description: "The event's data exactly as stored (JSON text; personal values sealed), as the hash covers it.",
      },
      stored_metadata: {
        type: 'string',
        description:
          "The event's metadata exactly as stored (JSON text ending with the chain keys: `chainVersion` from version 2 of the rule, `previousHash` and `hash`); the hash covers it without its `hash` key.",
      },
    },
    required: [
      'revision',
      'occurred_at',
      'event_type',
      'changed_fields',
      'changes',
      'provider_ukprn',
      'token_id',
      'api_version',
      'request_id',
      'hash',
      'previous_hash',
      'stream_id',
      'event_id',
      'stored_data',
      'stored_metadata',
    ],
    additionalProperties: false,
  },
  TraineeHistoryResponse: {
    description: 'Without `as_of`: a page of the timeline, oldest first. With `as_of`: the trainee as it stood then.',
    oneOf: [ref('TimelinePage'), { type: 'object', properties: { data: ref('Trainee') }, required: ['data'], additionalProperties: false }],
  },
  TimelinePage: {
    type: 'object',
    description: 'A page of a trainee\'s timeline (docs/operations.md "Trainee history").',
    properties: {
      data: { type: 'array', items: ref('TimelineEntry'), maxItems: 1000 },
      next_cursor: {
        type: 'string',
        description: "Send it as `after` for the next page (the place after the page's last entry, or the one sent).",
      },
      has_more: { type: 'boolean', description: 'More events of the trainee are stored after this page now.' },
    },
    required: ['data', 'next_cursor', 'has_more'],
    additionalProperties: false,
  },
};
