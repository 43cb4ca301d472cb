/**
 * Makes the example client's types from a served OpenAPI document (`GET /api/<version>/openapi.json`):
 * the change feed's page and change, and the list-style 422 body, as TypeScript interfaces, with
 * `json-schema-to-typescript`. Used by `generate-types.ts` (writes `api-types.ts`) and by the test
 * that keeps `api-types.ts` equal to what the service serves.
 */
import { compile, type JSONSchema } from 'json-schema-to-typescript';

/** The schemas the examples use. */
const NAMES = ['ChangesPage', 'Change', 'ListQueryErrors'];

/** The TypeScript source of the example types, from a served OpenAPI 3.1 document. */
export async function typesFromDocument(document: {
  info: { version: string };
  components: { schemas: Record<string, unknown> };
}): Promise<string> {
  const schemas = document.components.schemas;
  const defs = JSON.parse(JSON.stringify(schemas).replaceAll('#/components/schemas/', '#/$defs/')) as Record<string, JSONSchema>;
  const root: JSONSchema = {
    title: 'ExampleApi',
    type: 'object',
    properties: Object.fromEntries(NAMES.map((n) => [n, { $ref: `#/$defs/${n}` }])),
    additionalProperties: false,
    $defs: Object.fromEntries(NAMES.map((n) => [n, { ...defs[n], title: n }])),
  };
  // Generated code: ESLint skips the file (eslint.config.mjs ignores it), Prettier formats it.
  const banner = `/* Generated from the served OpenAPI document of ${document.info.version} by examples/generate-types.ts; do not edit. */\n`;
  const source = await compile(root, 'ExampleApi', { bannerComment: banner, additionalProperties: false, unreachableDefinitions: false });
  // The root type only gathers the named schemas; the examples use those.
  return source.replace(/export interface ExampleApi \{[^}]*\}\n\n?/, '');
}
