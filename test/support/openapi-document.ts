/**
 * Reading an OpenAPI 3.1 document for the response validator (openapi-validator.ts): JSON
 * pointers into it, the cleanup of its schemas before Ajv compiles them, its path templates as
 * regular expressions, and how a status and a media type pick a documented response and content.
 */

/** A JSON object of the document. */
export type Json = Record<string, unknown>;

/** Schema keywords whose value is one subschema, an array of them, or a map of them. */
const SUBSCHEMA_KEYWORDS = [
  'not',
  'if',
  'then',
  'else',
  'contains',
  'additionalProperties',
  'propertyNames',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contentSchema',
  'additionalItems',
  'items',
];
const SUBSCHEMA_ARRAY_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
const SUBSCHEMA_MAP_KEYWORDS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];

/** True for a JSON object (not null, not an array). */
export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON pointer segment: `~` and `/` escaped, then URI-encoded. */
const escapePointerSegment = (segment: string): string => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1'));

/** The JSON pointer of `segments` under `base`, each segment escaped (and URI-encoded, as Ajv reads `$ref`s). */
export const pointer = (base: string, ...segments: string[]): string => base + segments.map((s) => '/' + escapePointerSegment(s)).join('');

/** `text` with the characters a regular expression gives meaning escaped. */
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Removes the keyword `nullable` from a schema and its subschemas, in place. In OpenAPI 3.1
 * `nullable` is not a keyword (null is allowed with `type: [..., 'null']`), but Ajv honours
 * `nullable: true` in every dialect, which would silently accept nulls the document does not
 * allow. Only keyword positions are touched: a property *named* `nullable` stays.
 */
function stripNullable(schema: unknown, seen: Set<object>): void {
  if (!isObject(schema) || seen.has(schema)) return;
  seen.add(schema);
  delete schema.nullable;
  for (const keyword of SUBSCHEMA_KEYWORDS) stripNullable(schema[keyword], seen);
  for (const keyword of SUBSCHEMA_ARRAY_KEYWORDS) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const item of list) stripNullable(item, seen);
  }
  for (const keyword of SUBSCHEMA_MAP_KEYWORDS) {
    const map = schema[keyword];
    if (isObject(map)) for (const value of Object.values(map)) stripNullable(value, seen);
  }
  // Draft-07 style `dependencies`: each value is a schema or a list of property names.
  if (isObject(schema.dependencies)) for (const value of Object.values(schema.dependencies)) stripNullable(value, seen);
}

/**
 * Walks the OpenAPI structure (not schemas) and cleans every schema position: `schema` of media
 * types, parameters and headers, and `components.schemas`. Examples and extensions are data, not
 * structure, and are skipped.
 */
export function cleanDocument(node: unknown, path: string[], seen: Set<object>): void {
  if (Array.isArray(node)) {
    for (const item of node) cleanDocument(item, path, seen);
    return;
  }
  if (!isObject(node)) return;
  const inComponentSchemas = path.length === 2 && path[0] === 'components' && path[1] === 'schemas';
  for (const [key, value] of Object.entries(node)) {
    if (inComponentSchemas || key === 'schema') stripNullable(value, seen);
    else if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
    else cleanDocument(value, [...path, key], seen);
  }
}

/** A path template of the document, compiled for matching request paths. */
export interface CompiledTemplate {
  template: string;
  regExp: RegExp;
  paramNames: string[];
  /** Segments without any `{param}`; more of them = more specific. */
  literalSegments: number;
  literalChars: number;
  pathItem: Json;
  pathItemPointer: string;
}

/** Compiles path template `template` of path item `pathItem`: `{param}` segments become capture groups. */
export function compileTemplate(template: string, pathItem: Json): CompiledTemplate {
  const paramNames: string[] = [];
  let source = '';
  let last = 0;
  for (const m of template.matchAll(/\{([^}/]+)\}/g)) {
    source += escapeRegExp(template.slice(last, m.index)) + '([^/]+)';
    paramNames.push(m[1]);
    last = m.index + m[0].length;
  }
  source += escapeRegExp(template.slice(last));
  const segments = template.split('/').filter((s) => s.length > 0);
  return {
    template,
    regExp: new RegExp(`^${source}$`),
    paramNames,
    literalSegments: segments.filter((s) => !s.includes('{')).length,
    literalChars: template.replace(/\{[^}/]+\}/g, '').length,
    pathItem,
    pathItemPointer: pointer('', 'paths', template),
  };
}

/** The path of a URL (absolute or not), without query string or fragment. */
export function pathOf(url: string): string {
  const withoutOrigin = /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') : url;
  const path = withoutOrigin.split(/[?#]/, 1)[0];
  return path === '' ? '/' : path;
}

/** Exact status code, then range key ('4XX'), then 'default'. */
export function responseKey(responses: Json, status: number): string | null {
  const keys = Object.keys(responses);
  const exact = keys.find((k) => k === String(status));
  if (exact) return exact;
  const range = keys.find((k) => k.toUpperCase() === `${String(status)[0]}XX`);
  if (range) return range;
  return keys.includes('default') ? 'default' : null;
}

/** Exact media type (documented keys compared without parameters), then `type/*`, then `*\/*`. */
export function mediaTypeKey(content: Json, mediaType: string): string | null {
  const keys = Object.keys(content);
  const base = (key: string): string => key.split(';')[0].trim().toLowerCase();
  const [type] = mediaType.split('/');
  return (
    keys.find((k) => base(k) === mediaType) ?? keys.find((k) => base(k) === `${type}/*`) ?? keys.find((k) => base(k) === '*/*') ?? null
  );
}

/** True for `application/json` and the `+json` media types. */
export function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}
