/**
 * Checks HTTP responses received by tests against an OpenAPI 3.1 document: the path and method
 * must match a documented operation, the status a documented response, the Content-Type a
 * documented media type, and a JSON (or text) body the media type's schema. Schemas are JSON
 * Schema 2020-12, as OpenAPI 3.1 uses, validated with Ajv.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ErrorObject } from 'ajv';
import { CompiledSchemas, COMPILED_SCHEMAS_DIR, documentHash } from './compiled-schemas';
import {
  cleanDocument,
  compileTemplate,
  type CompiledTemplate,
  isJsonMediaType,
  isObject,
  type Json,
  mediaTypeKey,
  pathOf,
  pointer,
  responseKey,
} from './openapi-document';

/** One response as a test received it. */
export interface ObservedResponse {
  /** 'GET', 'post', ... (case-insensitive). */
  method: string;
  /** Path with optional query string, e.g. '/api/v2026.1/trainees/abc?x=1'. */
  url: string;
  status: number;
  /** The Content-Type header as received (may carry '; charset=utf-8'). */
  contentType: string | null;
  /** The raw body. */
  text: string;
  /**
   * Response headers (any case). When given, headers the response object declares with
   * `required: true` must be present, present documented headers must satisfy their schema, and
   * every header present must be declared, except the connection's and the representation's own
   * ({@link UNDECLARED_HEADERS}). When absent, headers are not checked.
   */
  headers?: Record<string, string | string[] | undefined>;
}

/**
 * Headers an answer may carry without its response object declaring them: HTTP's own framing and
 * connection headers and `Content-Type`, which the specification says a document does not declare
 * as a header.
 */
export const UNDECLARED_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'content-type',
  'date',
  'keep-alive',
  'transfer-encoding',
]);

export interface ResponseCheck {
  /** `METHOD /template` of the documented operation that matched, or null when none did. */
  operation: string | null;
  /** Human-readable problems; empty when the response conforms. */
  problems: string[];
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface PathParameterCheck {
  name: string;
  /** Pointer to the parameter's schema, '' when it has none. */
  schemaPointer: string;
}

interface OperationMatch {
  label: string;
  operation: Json;
  operationPointer: string;
  method: string;
  /** The path parameters whose values break their schemas (the template matched on its literal segments only). */
  outsideSchema: string[];
}

interface Located {
  value: Json;
  pointer: string;
}

/**
 * Validates responses against one OpenAPI 3.1 document (see `check`). The document is deep-copied
 * on construction (and `nullable` dropped from its schemas, see stripNullable in
 * openapi-document.ts); schemas are compiled on first use and cached, so one instance can check
 * thousands of responses cheaply. The constructor throws only if the document cannot be cloned (it
 * should be parsed JSON or YAML).
 */
export class OpenApiResponseValidator {
  private readonly document: Json;
  private readonly templates: CompiledTemplate[];
  /** Body schemas: allErrors, no coercion. */
  private readonly bodies: CompiledSchemas;
  /** Path parameters and headers arrive as strings: coerce to the schema's type. */
  private readonly strings: CompiledSchemas;

  /** `cacheDir`: where compiled validators are kept across test files ({@link CompiledSchemas}); null: nowhere. */
  constructor(document: Record<string, unknown>, cacheDir: string | null = COMPILED_SCHEMAS_DIR) {
    this.document = structuredClone(document) as Json;
    cleanDocument(this.document, [], new Set());
    const hash = documentHash(this.document);
    this.bodies = new CompiledSchemas(this.document, hash, false, cacheDir);
    this.strings = new CompiledSchemas(this.document, hash, true, cacheDir);
    const paths = isObject(this.document.paths) ? this.document.paths : {};
    this.templates = Object.entries(paths)
      .filter((entry): entry is [string, Json] => isObject(entry[1]))
      .map(([template, pathItem]) => compileTemplate(template, pathItem));
    this.templates.sort(
      (a, b) => b.literalSegments - a.literalSegments || b.literalChars - a.literalChars || a.paramNames.length - b.paramNames.length,
    );
  }

  /**
   * Checks one response. Returns the matched operation (`METHOD /template`, null when the path or
   * method is not documented, in which case there are no problems; a HEAD request matches the GET
   * operation when HEAD is not documented, and is labelled GET) and the problems found: an
   * undocumented status, media type or header, an unparseable JSON body, schema violations (one
   * per Ajv error, prefixed with `METHOD /template status:`), an unresolvable `$ref`. A path whose
   * parameters break their schemas (an id longer than its `maxLength`) still names the operation of
   * its template: the document calls the request invalid, so the answer must be one of its 4xx.
   */
  check(response: ObservedResponse): ResponseCheck {
    const match = this.matchOperation(response.method, pathOf(response.url));
    if (!match) return { operation: null, problems: [] };
    const prefix = `${match.label} ${response.status}:`;
    const problems: string[] = [];
    try {
      this.checkResponse(match, response, prefix, problems);
    } catch (error) {
      problems.push(`${prefix} ${(error as Error).message}`);
    }
    return { operation: match.label, problems };
  }

  /**
   * Checks one request body against its documented operation's `requestBody` (the JSON media
   * type's schema): the matched operation (null when the path or method is not documented, or it
   * documents no JSON body) and the problems found, one per Ajv error, prefixed with
   * `METHOD /template request:`. A body that is not JSON is a problem; an empty one is one only
   * when the body is `required`.
   */
  checkRequest(request: { method: string; url: string; text: string }): ResponseCheck {
    const match = this.matchOperation(request.method, pathOf(request.url));
    if (!match || !isObject(match.operation.requestBody)) return { operation: null, problems: [] };
    const prefix = `${match.label} request:`;
    const problems: string[] = [];
    try {
      const requestBody = this.resolve(match.operation.requestBody, pointer(match.operationPointer, 'requestBody'));
      const content = isObject(requestBody.value.content) ? requestBody.value.content : {};
      const key = mediaTypeKey(content, 'application/json');
      if (key === null) return { operation: null, problems: [] };
      if (request.text.trim() === '') {
        if (requestBody.value.required === true) problems.push(`${prefix} the body is required but empty`);
        return { operation: match.label, problems };
      }
      const mediaTypeObject = this.resolve(content[key], pointer(requestBody.pointer, 'content', key));
      if (!isObject(mediaTypeObject.value.schema)) return { operation: match.label, problems };
      const validate = this.bodies.validator(pointer(mediaTypeObject.pointer, 'schema'));
      if (validate instanceof Error) problems.push(`${prefix} ${validate.message}`);
      else if (!validate(JSON.parse(request.text)))
        for (const error of validate.errors ?? []) problems.push(`${prefix} ${describeError(error)}`);
    } catch (error) {
      problems.push(`${prefix} ${(error as Error).message}`);
    }
    return { operation: match.label, problems };
  }

  private matchOperation(method: string, path: string): OperationMatch | null {
    const found = this.matchPath(method, path);
    if (found || !path.endsWith('.json')) return found;
    return this.matchPath(method, path.slice(0, -'.json'.length));
  }

  /**
   * The most specific documented operation of the path and method whose path parameters meet their
   * schemas; else the most specific one whose template the path matches, with the parameters that
   * break their schemas named.
   */
  private matchPath(rawMethod: string, path: string): OperationMatch | null {
    const method = rawMethod.toLowerCase();
    let outside: OperationMatch | null = null;
    for (const candidate of this.templates) {
      const groups = candidate.regExp.exec(path);
      if (!groups) continue;
      const values = new Map<string, string>();
      let decoded = true;
      candidate.paramNames.forEach((name, i) => {
        try {
          values.set(name, decodeURIComponent(groups[i + 1]));
        } catch {
          decoded = false;
        }
      });
      if (!decoded) continue;
      let operationMethod = method;
      if (!isObject(candidate.pathItem[method]) && method === 'head' && isObject(candidate.pathItem.get)) operationMethod = 'get';
      const operation = candidate.pathItem[operationMethod];
      if (!HTTP_METHODS.includes(operationMethod) || !isObject(operation)) continue;
      const operationPointer = pointer(candidate.pathItemPointer, operationMethod);
      const parameters = this.pathParameters(candidate, operation, operationPointer);
      const broken = parameters.filter((p) => values.has(p.name) && !this.stringValueMatches(p, values.get(p.name)!)).map((p) => p.name);
      const match = {
        label: `${operationMethod.toUpperCase()} ${candidate.template}`,
        operation,
        operationPointer,
        method,
        outsideSchema: broken,
      };
      if (broken.length === 0) return match;
      outside ??= match;
    }
    return outside;
  }

  /** Path parameters of the path item, overridden by the operation's of the same name. */
  private pathParameters(candidate: CompiledTemplate, operation: Json, operationPointer: string): PathParameterCheck[] {
    const byName = new Map<string, PathParameterCheck>();
    const collect = (list: unknown, listPointer: string): void => {
      if (!Array.isArray(list)) return;
      list.forEach((item, index) => {
        let parameter: Located;
        try {
          parameter = this.resolve(item, pointer(listPointer, String(index)));
        } catch {
          return; // a broken parameter $ref does not constrain matching; validateOpenApiDocument reports it
        }
        if (parameter.value.in !== 'path' || typeof parameter.value.name !== 'string') return;
        byName.set(parameter.value.name, {
          name: parameter.value.name,
          schemaPointer: isObject(parameter.value.schema) ? pointer(parameter.pointer, 'schema') : '',
        });
      });
    };
    collect(candidate.pathItem.parameters, pointer(candidate.pathItemPointer, 'parameters'));
    collect(operation.parameters, pointer(operationPointer, 'parameters'));
    return [...byName.values()];
  }

  private stringValueMatches(parameter: PathParameterCheck, value: string): boolean {
    if (!parameter.schemaPointer) return true;
    const validate = this.strings.validator(parameter.schemaPointer);
    // A parameter schema that cannot be compiled does not constrain matching; the document
    // validator reports broken documents.
    return validate instanceof Error ? true : validate(value) === true;
  }

  private checkResponse(match: OperationMatch, response: ObservedResponse, prefix: string, problems: string[]): void {
    const responses = isObject(match.operation.responses) ? match.operation.responses : {};
    const responsesPointer = pointer(match.operationPointer, 'responses');
    const key = responseKey(responses, response.status);
    if (key === null) {
      const documented = Object.keys(responses).join(', ') || 'none';
      problems.push(`${prefix} status ${response.status} is not documented (documented: ${documented})`);
      return;
    }
    if (match.outsideSchema.length > 0 && (response.status < 400 || response.status > 499)) {
      problems.push(
        `${prefix} path parameter ${match.outsideSchema.join(', ')} breaks its schema, yet the request was not refused with a 4xx`,
      );
    }
    const responseObject = this.resolve(responses[key], pointer(responsesPointer, key));
    if (response.headers) this.checkHeaders(responseObject, response.headers, prefix, problems);
    this.checkContent(match, responseObject, response, prefix, problems);
  }

  private checkHeaders(
    responseObject: Located,
    received: Record<string, string | string[] | undefined>,
    prefix: string,
    problems: string[],
  ): void {
    const declared = isObject(responseObject.value.headers) ? responseObject.value.headers : {};
    const lowerCased = new Map(Object.entries(received).map(([name, value]) => [name.toLowerCase(), value]));
    const names = new Set(Object.keys(declared).map((name) => name.toLowerCase()));
    for (const name of lowerCased.keys()) {
      if (!UNDECLARED_HEADERS.has(name) && !names.has(name)) problems.push(`${prefix} header ${name} is sent but not declared`);
    }
    for (const [name, raw] of Object.entries(declared)) {
      // The specification says a documented Content-Type header is ignored.
      if (name.toLowerCase() === 'content-type') continue;
      const header = this.resolve(raw, pointer(responseObject.pointer, 'headers', name));
      const value = lowerCased.get(name.toLowerCase());
      if (value === undefined) {
        if (header.value.required === true) problems.push(`${prefix} required header ${name} is missing`);
        continue;
      }
      if (!isObject(header.value.schema)) continue;
      const validate = this.strings.validator(pointer(header.pointer, 'schema'));
      if (validate instanceof Error) {
        problems.push(`${prefix} header ${name}: ${validate.message}`);
        continue;
      }
      const text = Array.isArray(value) ? value.join(', ') : value;
      if (!validate(text)) {
        for (const error of validate.errors ?? []) problems.push(`${prefix} header ${name} ${describeError(error)}`);
      }
    }
  }

  private checkContent(
    match: OperationMatch,
    responseObject: Located,
    response: ObservedResponse,
    prefix: string,
    problems: string[],
  ): void {
    const content = responseObject.value.content;
    const hasContent = isObject(content) && Object.keys(content).length > 0;
    const bodyEmpty = response.text.length === 0;
    if (!hasContent) {
      if (!bodyEmpty) problems.push(`${prefix} the response documents no content but the body is not empty`);
      return;
    }
    if (bodyEmpty) {
      if (response.status !== 204 && response.status !== 304 && match.method !== 'head') {
        problems.push(`${prefix} the body is empty but the response documents content (${Object.keys(content).join(', ')})`);
      }
      return;
    }
    const mediaType = response.contentType?.split(';')[0].trim().toLowerCase() || null;
    if (!mediaType) {
      problems.push(`${prefix} the response has a body but no Content-Type`);
      return;
    }
    const key = mediaTypeKey(content, mediaType);
    if (key === null) {
      problems.push(`${prefix} media type ${mediaType} is not documented (documented: ${Object.keys(content).join(', ')})`);
      return;
    }
    const mediaTypeObject = this.resolve(content[key], pointer(responseObject.pointer, 'content', key));
    const hasSchema = isObject(mediaTypeObject.value.schema) || typeof mediaTypeObject.value.schema === 'boolean';
    let body: unknown;
    if (isJsonMediaType(mediaType)) {
      try {
        body = JSON.parse(response.text);
      } catch (error) {
        problems.push(`${prefix} the body is not valid JSON (${(error as Error).message})`);
        return;
      }
    } else if (mediaType.startsWith('text/')) {
      body = response.text;
    } else {
      return; // binary or other media types: presence is all that is checked
    }
    if (!hasSchema) return;
    const validate = this.bodies.validator(pointer(mediaTypeObject.pointer, 'schema'));
    if (validate instanceof Error) {
      problems.push(`${prefix} ${validate.message}`);
      return;
    }
    if (!validate(body)) for (const error of validate.errors ?? []) problems.push(`${prefix} ${describeError(error)}`);
  }

  /** Follows `$ref` chains (local refs only) from a node, returning the object and its pointer. */
  private resolve(node: unknown, at: string): Located {
    let value = node;
    let current = at;
    const seen = new Set<string>();
    while (isObject(value) && typeof value.$ref === 'string') {
      const ref = value.$ref;
      if (!ref.startsWith('#')) throw new Error(`$ref ${ref} is not a local reference`);
      if (seen.has(ref)) throw new Error(`$ref ${ref} is circular`);
      seen.add(ref);
      const fragment = ref.slice(1);
      value = fragment
        .split('/')
        .slice(1)
        .map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>(
          (parent, segment) => (isObject(parent) || Array.isArray(parent) ? (parent as Json)[segment] : undefined),
          this.document,
        );
      if (value === undefined) throw new Error(`$ref ${ref} cannot be resolved`);
      current = fragment
        .split('/')
        .slice(1)
        .map((s) => '/' + encodeURIComponent(decodeURIComponent(s)))
        .join('');
    }
    if (!isObject(value)) throw new Error(`#${decodeURIComponent(current)} is not an object`);
    return { value, pointer: current };
  }
}

/** `/data/0/trn must be string,null`, with the offending property name where Ajv has one. */
function describeError(error: ErrorObject): string {
  const where = error.instancePath || '(root)';
  const params = error.params as Record<string, unknown>;
  let detail = '';
  if (error.keyword === 'additionalProperties') detail = `: '${String(params.additionalProperty)}'`;
  else if (error.keyword === 'unevaluatedProperties') detail = `: '${String(params.unevaluatedProperty)}'`;
  else if (error.keyword === 'enum') detail = `: ${JSON.stringify(params.allowedValues)}`;
  return `${where} ${error.message ?? error.keyword}${detail}`;
}

/**
 * Validates a whole document against the OpenAPI schema of its version (2.0, 3.0, 3.1, 3.2) with
 * the `@seriousme/openapi-schema-validator` CLI in a child process (the package is ESM-only and
 * cannot be loaded by Jest in CommonJS mode), including that local `$ref`s resolve. Returns
 * `valid` and the validator's errors (Ajv error objects, or one message string when the version is
 * unsupported or a `$ref` does not resolve); empty when valid. Throws if the CLI cannot be run or
 * prints something other than its JSON report.
 */
export function validateOpenApiDocument(document: Record<string, unknown>): { valid: boolean; errors: unknown[] } {
  const cli = join(dirname(require.resolve('@seriousme/openapi-schema-validator/package.json')), 'bin', 'validate-api-cli.js');
  const directory = mkdtempSync(join(tmpdir(), 'openapi-document-'));
  try {
    const file = join(directory, 'openapi.json');
    writeFileSync(file, JSON.stringify(document));
    const run = spawnSync(process.execPath, [cli, file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (run.error) throw run.error;
    // The CLI prints JSON.stringify({ valid, errors? }) and exits 1 when not valid.
    let report: { valid?: unknown; errors?: unknown };
    try {
      report = JSON.parse(run.stdout) as { valid?: unknown; errors?: unknown };
    } catch {
      throw new Error(
        `the OpenAPI validator CLI exited with ${run.status ?? run.signal} and printed no report: ${run.stderr || run.stdout}`,
      );
    }
    const valid = report.valid === true;
    if (valid !== (run.status === 0)) {
      throw new Error(`the OpenAPI validator CLI reported valid=${String(report.valid)} but exited with ${run.status ?? run.signal}`);
    }
    const errors = report.errors === undefined ? [] : Array.isArray(report.errors) ? report.errors : [report.errors];
    return { valid, errors };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
