import { Inject, Injectable, type INestApplication } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@app/runtime/process';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { CHANGE_SCHEMAS } from '@app/changes';
import { UPLOAD_SCHEMAS } from '@app/uploads/write';
import { contractFor, openApiSchemas, requestExample, type VersionContract } from '@app/trainees/contract';
import { implementedVersion, type ApiVersion } from '@app/trainees/record';
import { dump } from 'js-yaml';
import { VersionRegistry } from '../composition/versions';
import { limitsDescription } from './limits';
import { addCommonAnswers } from './common-answers';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

/**
 * What the documents say about the API as a whole: the spec's "Conventions", "Authentication",
 * "Errors" and "Versioning" in short (docs/spec/trainee-records-api.md).
 */
const DESCRIPTION = `An HTTP API over JSON through which teacher-training providers import trainee records from their
student record systems and keep them in sync (docs/spec/trainee-records-api.md).

- **Authentication**: every endpoint but the reference data and these documents needs
  \`Authorization: Bearer <token>\` (the bare token is taken too, as the service this one replaces
  takes it); a token belongs to one provider and sees only its trainees (another provider's trainee
  answers 404).
- **Envelopes**: bodies are \`{"data": …}\`; \`GET /info\` and \`GET /reference-data\` answer bare objects.
- **Errors**: \`{"errors": [{"error", "message"}]}\` with one entry per failed rule; 401 is
  \`{"error": "Unauthorized"}\`; the list's 422 is \`{"message", "errors": {"<param>": […]}}\`.
- **Blank values**: where a field's schema allows \`null\`, \`false\`, a string of only white
  space, an empty array and an empty object are taken as a blank value of that field too (Ruby's
  \`blank?\`); what a blank does is the field's rule (a
  required name answers "can't be blank"; docs/reference/API-FACTS.md §7.4). A free-text field also
  takes a JSON number, as its decimal text.
- **Versions**: the path's \`api_version\`; each served version has its own document at
  \`/api/<version>/openapi.json\` (and \`.yaml\`).`;

/** Tag descriptions, in the order the docs page lists them. */
const TAGS: { name: string; description: string }[] = [
  { name: 'Trainees', description: 'Register, read, list and change trainees.' },
  { name: 'Placements', description: "A trainee's school placements." },
  { name: 'Degrees', description: "A trainee's previous degrees." },
  { name: 'Lifecycle', description: 'Defer, withdraw, recommend for QTS or EYTS.' },
  { name: 'History', description: "A trainee's audit history, replayed from its events." },
  { name: 'Changes', description: "The provider's change feed, and the same changes pushed to its webhook endpoints." },
  { name: 'Uploads', description: 'New trainees added from a CSV file: checked, then submitted, each row once.' },
  { name: 'Reference data', description: 'The coded value lists.' },
  { name: 'Info', description: 'The versions served.' },
];

/**
 * The OpenAPI 3.1 documents of the served versions, generated from the code: the operations,
 * parameters and answers from the controllers' `@nestjs/swagger` decorators, the schemas and
 * request examples from each version's contract (libs/trainees/contract/openapi). The documents are
 * built once, at start; each YAML text on its first request (dumping both takes about 0.1 s, which
 * the start need not wait for).
 */
@Injectable()
export class OpenApiDocuments {
  private readonly documents = new Map<string, OpenAPIObject>();
  private readonly yaml = new Map<string, string>();

  constructor(
    private readonly versions: VersionRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Builds the document of every served version name (an alias gets its version's document). */
  build(app: INestApplication): void {
    const base = SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setOpenAPIVersion('3.1.0')
        .setTitle('Trainee records API')
        .setDescription(`${DESCRIPTION}\n\n${limitsDescription(this.config)}`)
        .addBearerAuth(
          {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'opaque: <environment>_<64 lower-case hex>',
            description: 'An API token of the provider, issued by the service team or the admin CLI.',
          },
          'token',
        )
        .addApiKey(
          {
            type: 'apiKey',
            in: 'header',
            name: 'Authorization',
            description:
              'The same token sent bare, without `Bearer ` (white space around it is ignored), as the service this one replaces accepts it (docs/DESIGN.md ruling 20).',
          },
          'bareToken',
        )
        .addServer('/', 'This service')
        .build(),
      { operationIdFactory: (_controller, method) => method },
    );
    for (const version of this.versions.versions) {
      const names = this.versions.names.filter((n) => implementedVersion(n) === version);
      const document = versionDocument(base, contractFor(version), names);
      for (const name of names) this.documents.set(name, document);
    }
  }

  /** The JSON document of a served version name, or undefined. */
  json(name: string): OpenAPIObject | undefined {
    return this.documents.get(name);
  }

  /** The YAML text of a served version name's document (dumped once, then kept), or undefined. */
  yamlText(name: string): string | undefined {
    const document = this.documents.get(name);
    if (!document) return undefined;
    let text = this.yaml.get(name);
    if (text === undefined) this.yaml.set(name, (text = dump(document, { noRefs: true, lineWidth: 120 })));
    return text;
  }
}

/**
 * One version's document from the operations `base` holds: operations the version lacks are left
 * out (`x-contract-feature`), `api_version` lists the names that reach the version, each write
 * carries the reference's request example, and the schemas are the version's.
 */
function versionDocument(base: OpenAPIObject, contract: VersionContract, names: readonly string[]): OpenAPIObject {
  const document = structuredClone(base);
  const version: ApiVersion = contract.version;
  document.info = { ...document.info, version };
  document.tags = TAGS.map((t) => ({ ...t }));
  document.components = {
    ...document.components,
    schemas: { ...openApiSchemas(version), ...CHANGE_SCHEMAS, ...UPLOAD_SCHEMAS } as NonNullable<OpenAPIObject['components']>['schemas'],
  };
  for (const [path, item] of Object.entries(document.paths)) {
    const operations = item as Record<string, Record<string, unknown> | undefined>;
    for (const method of METHODS) {
      const operation = operations[method];
      if (!operation) continue;
      const feature = operation['x-contract-feature'] as 'referenceData' | 'updateQtsOrEytsStatus' | undefined;
      delete operation['x-contract-feature'];
      const has = feature === undefined || (feature === 'referenceData' ? contract.referenceData !== null : contract.features[feature]);
      if (!has) {
        delete operations[method];
        continue;
      }
      // An operation without a token says so (reference data): an empty security list.
      if (!operation.security) operation.security = [];
      for (const parameter of (operation.parameters as Record<string, unknown>[] | undefined) ?? []) {
        if (parameter.name === 'api_version') parameter.schema = { type: 'string', enum: [...names] };
      }
      const example = requestExample(version, `${method.toUpperCase()} ${path}`);
      const content = (operation.requestBody as { content?: Record<string, Record<string, unknown>> } | undefined)?.content?.[
        'application/json'
      ];
      if (example && content) content.example = example;
    }
    if (!METHODS.some((m) => operations[m])) delete document.paths[path];
  }
  addCommonAnswers(document);
  document.webhooks = structuredClone(WEBHOOKS) as unknown as OpenAPIObject['webhooks'];
  return document;
}

/** A Standard Webhooks header of every delivery (docs/change-feed.md "Webhooks"). */
const header = (name: string, description: string, example: string) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string', maxLength: 1000 },
  example,
});

/**
 * The deliveries an endpoint receives (OpenAPI 3.1 `webhooks`, docs/change-feed.md "Webhooks"): a
 * POST per change, its body the feed's item in the endpoint's API version, signed as the Standard
 * Webhooks specification says.
 */
const WEBHOOKS: Record<string, unknown> = {
  change: {
    post: {
      operationId: 'changeDelivered',
      summary: 'A change to one of the provider’s trainees',
      description:
        'Sent to each active endpoint of the provider that asked for the change’s type, in order per trainee, at least once: ' +
        'deduplicate on `webhook-id`. Verify `webhook-signature` over `webhook-id`, `webhook-timestamp` and the raw body with ' +
        'the endpoint’s secret (any Standard Webhooks library). Any 2xx acknowledges it; anything else, or no answer within ' +
        '10 s, is retried with exponential back-off for up to 3 days, then the endpoint is disabled (the changes stay in ' +
        '`GET /changes`).',
      tags: ['Changes'],
      parameters: [
        header('webhook-id', 'The message id: the same on every attempt of this change to this endpoint.', 'msg_wh_0a1b2c_4711'),
        header('webhook-timestamp', 'When this attempt was signed, seconds since the Unix epoch.', '1767225600'),
        header(
          'webhook-signature',
          'Space-separated `v1,<base64 HMAC-SHA256>` signatures.',
          'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
        ),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Change' } } } },
      responses: { '2XX': { description: 'Received; not sent again.' }, default: { description: 'Not received; sent again later.' } },
      security: [],
    },
  },
};
