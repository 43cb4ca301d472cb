import { PROVIDER_EVENT_TYPES } from '@app/trainees/decider';
import { TRAINEE_STATES } from '@app/trainees/record';
import type { JsonSchema } from '@app/trainees/record';
import { CURSOR_CHARS } from './cursors';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/** The change feed's answers (docs/change-feed.md "Reading the feed"): the same in every version but `changed_fields`' names. */
export const CHANGE_SCHEMAS: Record<string, JsonSchema> = {
  Change: {
    type: 'object',
    description:
      'One change to a trainee of the provider (docs/change-feed.md "What a change holds"); also the body of each webhook delivery.',
    properties: {
      cursor: {
        type: 'string',
        minLength: CURSOR_CHARS,
        maxLength: CURSOR_CHARS,
        description: 'Opaque, and good for this provider only: send it back as `after` to read the changes after this one.',
        example: 'At1Goir-84CZtsUw3LSRefc',
      },
      occurred_at: { type: 'string', format: 'date-time', description: 'UTC, milliseconds.' },
      trainee_id: { type: 'string' },
      type: { type: 'string', enum: [...PROVIDER_EVENT_TYPES], description: 'What happened (as the trainee history names it).' },
      changed_fields: {
        type: 'array',
        items: { type: 'string' },
        description:
          "Names (in this version) of the fields whose answered value changed: the trainee's, or the placement's or degree's for a placement or degree change; `updated_at` is not listed.",
      },
      placement_id: { type: 'string', description: 'Only for a placement change.' },
      degree_id: { type: 'string', description: 'Only for a degree change.' },
      state: { type: 'string', enum: [...TRAINEE_STATES], description: "The trainee's state after the change." },
      trn: { type: ['string', 'null'], description: "The trainee's TRN after the change." },
    },
    required: ['cursor', 'occurred_at', 'trainee_id', 'type', 'changed_fields', 'state', 'trn'],
    additionalProperties: false,
  },
  ChangesPage: {
    type: 'object',
    properties: {
      data: { type: 'array', items: ref('Change'), maxItems: 1000 },
      next_cursor: { type: 'string', description: "Send it as `after` for the next page (the last change's cursor, or the one sent)." },
      has_more: { type: 'boolean', description: 'More changes are stored after this page now.' },
    },
    required: ['data', 'next_cursor', 'has_more'],
    additionalProperties: false,
  },
};
