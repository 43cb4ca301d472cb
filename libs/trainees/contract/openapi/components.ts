/**
 * The schemas of a version's OpenAPI document (components), built from the same tables as its wire
 * checks (libs/trainees/contract/wire) and its serializers (libs/trainees/answers):
 * request bodies with their types, formats, lengths and code lists; answers with every field, its
 * type, format, enum and nullability; and the error bodies of docs/spec/trainee-records-api.md
 * "Errors" and docs/DESIGN.md ruling 4. JSON Schema 2020-12, as OpenAPI 3.1 uses it.
 */
import {
  BODY_MAX_TEXT,
  REFERENCE_LISTS,
  type ApiVersion,
  DISABILITY_KEYS_MAX,
  JSON_BOUNDS_TEXT,
  TEXT_MAX_CHARS,
} from '@app/trainees/record';
import { contractFor, type VersionContract } from '../contract';
import { degreeWire } from '../wire/degree.wire';
import { lifecycleWireFor } from '../wire/lifecycle.wire';
import { PLACEMENT_WIRE } from '../wire/placement.wire';
import { DISABILITY_KEY, traineeWire } from '../wire/trainee.wire';
import type { JsonSchema, WireObject } from '../wire/wire-object';
import { numberAsTextSchema } from '../wire/values';
import { AUDIT_SCHEMAS } from './audit-components';
import { HISTORY_SCHEMAS } from './history-schemas';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * The request schema of a wire object: its fields, those required on the wire, unknown keys allowed
 * (ignored, docs/reference/API-FACTS.md §5.3).
 */
function requestSchema(wire: WireObject<unknown>, description: string, extra: JsonSchema = {}): JsonSchema {
  const required = wire.fields.filter((f) => f.required).map((f) => f.wire);
  return {
    type: 'object',
    description: `${description} Keys the version does not read are ignored (docs/reference/API-FACTS.md §5.3).`,
    properties: Object.fromEntries(wire.fields.map((f) => [f.wire, f.schema])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: true,
    ...extra,
  };
}

/**
 * Where some routes may leave `study_mode` out, it leaves `required` (a requirement on another field's value would restate the route
 * list) and its description states the rule; the decider's 422 holds it.
 */
function withStudyModeRule(schema: JsonSchema, optionalForRoutes: readonly string[]): JsonSchema {
  if (optionalForRoutes.length === 0) return schema;
  const properties = schema.properties as Record<string, JsonSchema>;
  const required = (schema.required as string[]).filter((name) => name !== 'study_mode');
  const studyMode = properties.study_mode;
  const rule = `Required except on the training routes ${optionalForRoutes.join(', ')}, where it may be left out.`;
  return {
    ...schema,
    required,
    properties: { ...properties, study_mode: { ...studyMode, description: `${String(studyMode.description ?? '')} ${rule}`.trim() } },
  };
}

/** `{data: <schema>}`, the envelope of every write body and of most answers. */
function envelope(schema: JsonSchema, description?: string): JsonSchema {
  return {
    type: 'object',
    ...(description ? { description } : {}),
    properties: { data: schema },
    required: ['data'],
    additionalProperties: false,
  };
}

/** `{errors: [{error: <name>, message}]}` (docs/DESIGN.md ruling 4). */
export function errorList(names: readonly string[], description: string, extra: JsonSchema = {}): JsonSchema {
  return {
    type: 'object',
    description,
    properties: {
      errors: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          properties: { error: { type: 'string', enum: [...names] }, message: { type: 'string' } },
          required: ['error', 'message'],
          additionalProperties: false,
        },
      },
      ...((extra.properties as JsonSchema | undefined) ?? {}),
    },
    required: ['errors'],
    additionalProperties: false,
  };
}

/** A coded list of the reference-data endpoint (docs/reference/API-FACTS.md §17.2). */
const REFERENCE_DATA_LIST: JsonSchema = {
  type: 'object',
  properties: {
    metadata: {
      type: 'object',
      properties: { name: { type: 'string' }, display_name: { type: 'string' }, description: { type: 'string' } },
      required: ['name', 'display_name'],
      additionalProperties: false,
    },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          display_name: { type: 'string' },
          start_year: { type: ['integer', 'null'] },
          end_year: { type: ['integer', 'null'] },
        },
        required: ['code', 'display_name', 'start_year', 'end_year'],
        additionalProperties: false,
      },
    },
  },
  required: ['metadata', 'entries'],
  additionalProperties: false,
};

/** The withdrawal reasons of the reference-data endpoint (docs/reference/API-FACTS.md §17.2). */
const WITHDRAWAL_REASONS_LIST: JsonSchema = {
  type: 'object',
  properties: {
    metadata: REFERENCE_DATA_LIST.properties && (REFERENCE_DATA_LIST.properties as Record<string, JsonSchema>).metadata,
    triggers: { type: 'array', items: { type: 'string' } },
    future_interest: { type: 'array', items: { type: 'string' } },
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          display_name: { type: 'string' },
          trigger: { type: 'string', enum: REFERENCE_LISTS.withdrawal_trigger.map((t) => t.code) },
          requires_another_reason: { type: 'boolean' },
          requires_safeguarding_concern_reasons: { type: 'boolean' },
        },
        required: ['code', 'display_name', 'trigger', 'requires_another_reason', 'requires_safeguarding_concern_reasons'],
        additionalProperties: false,
      },
    },
  },
  required: ['metadata', 'triggers', 'future_interest', 'entries'],
  additionalProperties: false,
};

/**
 * The `components.schemas` of `version`'s OpenAPI document. Names are the same in every version
 * (so the operations refer to them alike); their content is the version's.
 */
export function openApiSchemas(version: ApiVersion): Record<string, JsonSchema> {
  const contract = contractFor(version);
  return {
    ...requestSchemas(version),
    ...responseSchemas(contract.output),
    ...ANSWER_SCHEMAS,
    ...HISTORY_SCHEMAS,
    ...AUDIT_SCHEMAS,
    ...ERROR_SCHEMAS,
    ...(contract.referenceData ? referenceDataSchemas(Object.keys(contract.referenceData)) : {}),
  };
}

/** The bounds of the `disabilityN` keys (docs/DESIGN.md ruling 14). */
const DISABILITY_BOUNDS =
  `At most ${DISABILITY_KEYS_MAX} such keys, disability1 to disability99, each value at most ${TEXT_MAX_CHARS} characters. ` +
  `A trainee holds at most ${DISABILITY_KEYS_MAX} however many updates add them: an update that would leave more answers 422 ` +
  `(a key sent as null removes that disability).`;

/** What a `disabilityN` key says of a JSON number sent for it: its decimal text meets the value's length. */
const DISABILITY_NUMBER = numberAsTextSchema(TEXT_MAX_CHARS);

/** The write bodies of `version`: each input (with its bounds) and its `{data: …}` envelope. */
function requestSchemas(version: ApiVersion): Record<string, JsonSchema> {
  return {
    TraineeInput: withStudyModeRule(
      requestSchema(traineeWire(version, 'create'), 'A trainee to create, with its nested degrees and placements.', {
        patternProperties: {
          [DISABILITY_KEY.source]: {
            type: ['string', 'number', 'null'],
            maxLength: TEXT_MAX_CHARS,
            ...DISABILITY_NUMBER.bounds,
            description: `A disability code, stored and answered as sent. ${DISABILITY_BOUNDS} ${DISABILITY_NUMBER.note}`,
          },
        },
      }),
      contractFor(version).rules.studyModeOptionalForRoutes,
    ),
    TraineeUpdateInput: requestSchema(
      traineeWire(version, 'update'),
      'The fields to change (merge: the fields sent replace the stored ones; null leaves a field as it is, docs/reference/API-FACTS.md §7.4). Nested degrees and placements are not read: use their endpoints.',
      {
        patternProperties: {
          [DISABILITY_KEY.source]: {
            type: ['string', 'number', 'null'],
            maxLength: TEXT_MAX_CHARS,
            ...DISABILITY_NUMBER.bounds,
            description: `A disability code; null or empty removes the key. ${DISABILITY_BOUNDS} ${DISABILITY_NUMBER.note}`,
          },
        },
      },
    ),
    PlacementInput: requestSchema(PLACEMENT_WIRE, 'A school placement.'),
    DegreeInput: requestSchema(
      degreeWire(version),
      'A previous degree. UK or non-UK is decided from country and institution (docs/reference/API-FACTS.md §11.2).',
    ),
    DeferralInput: requestSchema(lifecycleWireFor('deferral', version), 'A deferral.'),
    WithdrawalInput: requestSchema(lifecycleWireFor('withdrawal', version), 'A withdrawal.'),
    RecommendationInput: requestSchema(lifecycleWireFor('recommendation', version), 'A recommendation for QTS or EYTS.'),
    TraineeCreateRequest: envelope(ref('TraineeInput')),
    TraineeUpdateRequest: envelope(ref('TraineeUpdateInput')),
    PlacementRequest: envelope(ref('PlacementInput')),
    DegreeRequest: envelope(ref('DegreeInput')),
    DeferralRequest: envelope(ref('DeferralInput')),
    WithdrawalRequest: envelope(ref('WithdrawalInput')),
    RecommendationRequest: envelope(ref('RecommendationInput')),
  };
}

/** The version's representations of trainees, placements and degrees, and their answers. */
function responseSchemas(output: VersionContract['output']): Record<string, JsonSchema> {
  return {
    Trainee: output.traineeSchema({ nested: true }),
    TraineeListItem: output.traineeSchema({ nested: false }),
    Placement: output.placementSchema(),
    PlacementCreated: output.placementSchema({ created: true }),
    Degree: output.degreeSchema(),
    TraineeResponse: envelope(ref('Trainee')),
    PlacementResponse: envelope(ref('Placement')),
    PlacementCreatedResponse: envelope(ref('PlacementCreated')),
    PlacementListResponse: envelope(
      { type: 'array', items: ref('Placement') },
      'In creation order; empty when the trainee has none (docs/DESIGN.md ruling 9).',
    ),
    DegreeResponse: envelope(ref('Degree')),
    DegreeCreatedResponse: envelope(
      { type: 'array', items: ref('Degree'), minItems: 1, maxItems: 1 },
      'An array holding the created degree (docs/DESIGN.md ruling 2).',
    ),
    DegreeListResponse: envelope(
      { type: 'array', items: ref('Degree') },
      'In creation order; empty when the trainee has none (docs/DESIGN.md ruling 9).',
    ),
  };
}

/** The answers every version shapes alike: the list's meta, info, the history. */
const ANSWER_SCHEMAS: Record<string, JsonSchema> = {
  ListMeta: {
    type: 'object',
    properties: {
      current_page: { type: 'integer', minimum: 1 },
      total_pages: { type: 'integer', minimum: 0 },
      total_count: { type: 'integer', minimum: 0 },
      per_page: { type: 'integer', minimum: 0 },
    },
    required: ['current_page', 'total_pages', 'total_count', 'per_page'],
    additionalProperties: false,
  },
  TraineeListResponse: {
    type: 'object',
    properties: { data: { type: 'array', items: ref('TraineeListItem'), minItems: 1 }, meta: ref('ListMeta') },
    required: ['data', 'meta'],
    additionalProperties: false,
  },
  InfoResponse: {
    type: 'object',
    properties: {
      status: { type: 'string', const: 'ok' },
      version: {
        type: 'object',
        properties: {
          requested: { type: 'string', description: 'The version segment of the path, as requested.' },
          latest: { type: 'string', description: 'The newest version this deployment serves.' },
        },
        required: ['requested', 'latest'],
        additionalProperties: false,
      },
    },
    required: ['status', 'version'],
    additionalProperties: false,
  },
};

/** The error answers (docs/spec/trainee-records-api.md "Errors"; docs/DESIGN.md ruling 4). */
const ERROR_SCHEMAS: Record<string, JsonSchema> = {
  Unauthorized: {
    type: 'object',
    description: 'A missing, unknown or revoked token (docs/spec/trainee-records-api.md "Authentication").',
    properties: { error: { type: 'string', const: 'Unauthorized' } },
    required: ['error'],
    additionalProperties: false,
  },
  NotFound: errorList(
    ['NotFound'],
    'Trainee(s), Placement(s) or Degree(s) not found; No trainees found; Not found (an unknown route, or a version that is not served: the message names the served ones).',
  ),
  BadRequest: errorList(['BadRequest'], `The body is not valid JSON, or not bounded: ${JSON_BOUNDS_TEXT} (the message names the limit).`),
  PayloadTooLarge: errorList(['PayloadTooLarge'], `The body is over ${BODY_MAX_TEXT}.`),
  UnprocessableEntity: errorList(
    ['UnprocessableEntity', 'StateTransitionError'],
    "Every failed rule, one entry each, in a stable order (docs/DESIGN.md ruling 4); or the action is not allowed in the trainee's state (StateTransitionError); or `data` is missing.",
  ),
  EnhancedValidationErrors: {
    type: 'object',
    description: 'With the request header `Enhanced-Errors: true` (docs/reference/API-FACTS.md §5.4): the messages keyed by field.',
    properties: {
      message: { type: 'string', example: 'Validation failed: 1 error prohibited this trainee from being saved' },
      errors: {
        type: 'object',
        additionalProperties: {
          oneOf: [
            { type: 'array', items: { type: 'string' } },
            { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          ],
        },
      },
    },
    required: ['message', 'errors'],
    additionalProperties: false,
  },
  ListQueryErrors: {
    type: 'object',
    description: 'An invalid parameter of the list (docs/spec/trainee-records-api.md "GET /trainees").',
    properties: {
      message: { type: 'string', example: 'Validation failed: 1 error prohibited this request being run' },
      errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
    required: ['message', 'errors'],
    additionalProperties: false,
  },
  Conflict: errorList(['Conflict'], 'The trainee was changed by another request at the same time; retry.'),
  DuplicateTrainee: errorList(
    ['Conflict'],
    'The trainee is already registered (the existing trainees in `data`), or a concurrent change (no `data`).',
    {
      properties: { data: { type: 'array', items: ref('Trainee') } },
    },
  ),
  DuplicateDegree: errorList(
    ['Conflict'],
    'The degree duplicates one the trainee has (the existing degrees in `data`), or a concurrent change (no `data`).',
    {
      properties: { data: { type: 'array', items: ref('Degree') } },
    },
  ),
  ServiceUnavailable: errorList(['ServiceUnavailable'], 'Not available now: the message says why.'),
  InternalServerError: errorList(['InternalServerError'], 'A fault of the service, logged for its operators; the message names nothing.'),
  TooManyRequests: { type: 'string', description: 'Plain text `Retry later`.', example: 'Retry later\n' },
};

/** The reference data answers of a version that serves them (docs/reference/API-FACTS.md §17), for its fields. */
function referenceDataSchemas(fields: string[]): Record<string, JsonSchema> {
  return {
    ReferenceDataList: REFERENCE_DATA_LIST,
    WithdrawalReasonsList: WITHDRAWAL_REASONS_LIST,
    ReferenceData: {
      type: 'object',
      properties: Object.fromEntries(
        fields.map((k) => [k, ref(k === 'withdrawal_reasons' ? 'WithdrawalReasonsList' : 'ReferenceDataList')]),
      ),
      required: fields,
      additionalProperties: false,
    },
    ReferenceDataField: { oneOf: [ref('ReferenceDataList'), ref('WithdrawalReasonsList')] },
  };
}
