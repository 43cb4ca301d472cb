import { OpenApiResponseValidator } from './openapi-validator';

/** The validators of served OpenAPI documents, by `<base URL>/api/<segment>` (null: no document there). */
const validators = new Map<string, Promise<OpenApiResponseValidator | null>>();

/** The documents of services started in this process, by base URL: what each serves at `/api/<segment>/openapi.json`. */
const inProcess = new Map<string, (segment: string) => Record<string, unknown> | undefined>();

/**
 * Has the checks of the service at `baseUrl` read its documents from `documents` (the running
 * application's own, by version segment; undefined where none is served) instead of fetching them,
 * so that a test's rate limits count only its own requests.
 */
export function useServedDocuments(baseUrl: string, documents: (segment: string) => Record<string, unknown> | undefined): void {
  inProcess.set(baseUrl, documents);
}

/**
 * The validator of the document a running service serves at `/api/<segment>/openapi.json`, read
 * once (null when the service serves none there: 404). Any other answer to the fetch throws: a
 * check that could not read its document must not pass.
 */
function validatorFor(baseUrl: string, segment: string): Promise<OpenApiResponseValidator | null> {
  const key = `${baseUrl}/api/${segment}`;
  let validator = validators.get(key);
  if (!validator) {
    const local = inProcess.get(baseUrl);
    validator = local ? Promise.resolve(validatorOf(local(segment))) : fetchValidator(key);
    validators.set(key, validator);
  }
  return validator;
}

async function fetchValidator(key: string): Promise<OpenApiResponseValidator | null> {
  const res = await fetch(`${key}/openapi.json`);
  if (res.status === 404) return null;
  if (res.status !== 200) throw new Error(`${key}/openapi.json answered ${res.status}: the answers there cannot be checked`);
  return validatorOf((await res.json()) as Record<string, unknown>);
}

function validatorOf(document: Record<string, unknown> | undefined): OpenApiResponseValidator | null {
  return document ? new OpenApiResponseValidator(document) : null;
}

/**
 * Checks a response of the service at `baseUrl` against the OpenAPI document it serves for the
 * path's version: a documented operation's response must match its status, media type, headers
 * and schema, or this throws with the problems. Paths the document does not describe (unknown
 * routes, versions not served, /healthz) pass unchecked.
 */
export async function checkAgainstServedDocument(
  baseUrl: string,
  method: string,
  path: string,
  res: { status: number; headers: Headers; text: string },
): Promise<void> {
  const segment = /^\/api\/([^/?]+)\//.exec(path)?.[1];
  if (!segment) return;
  const validator = await validatorFor(baseUrl, segment);
  if (!validator) return;
  const check = validator.check({
    method,
    url: path,
    status: res.status,
    contentType: res.headers.get('content-type'),
    text: res.text,
    headers: Object.fromEntries(res.headers.entries()),
  });
  if (check.problems.length > 0) {
    throw new Error(
      `${method} ${path} answered what the served OpenAPI document does not describe:\n  ${check.problems.join('\n  ')}\n${res.text.slice(0, 2000)}`,
    );
  }
}

/**
 * Checks a request the service at `baseUrl` answered 2xx against the OpenAPI document it serves
 * for the path's version: a body it accepted must validate against the operation's request schema
 * (a validating client would otherwise refuse to send what the service takes), or this throws with
 * the problems. A blank value the service took as absent counts as the null the document allows. Other
 * answers, and paths the document does not describe, pass unchecked.
 */
export async function checkRequestAgainstServedDocument(
  baseUrl: string,
  method: string,
  path: string,
  body: string | undefined,
  status: number,
): Promise<void> {
  const segment = /^\/api\/([^/?]+)\//.exec(path)?.[1];
  if (!segment || status < 200 || status > 299 || body === undefined) return;
  const validator = await validatorFor(baseUrl, segment);
  if (!validator) return;
  const check = validator.checkRequest({ method, url: path, text: body });
  // `false`, white space, `[]` and `{}` are blank (docs/reference/API-FACTS.md §7.4): the service takes them as the document's null.
  const blank = check.problems.length > 0 ? validator.checkRequest({ method, url: path, text: withBlanksAsNull(body) }) : null;
  if (blank?.problems.length === 0) return;
  if (check.problems.length > 0) {
    throw new Error(
      `${method} ${path} was answered ${status} but its body breaks the served OpenAPI document:\n  ${check.problems.join('\n  ')}\n${body.slice(0, 2000)}`,
    );
  }
}

/**
 * `body` (JSON text) with every `false`, string of only white space, empty array and empty object
 * below `data` made `null`; the text as it is when it is not JSON.
 */
function withBlanksAsNull(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), (key, value: unknown) => (key !== '' && key !== 'data' && isBlankValue(value) ? null : value));
  } catch {
    return body;
  }
}

/** Ruby's `blank?` on a JSON value other than null: `false`, white space, `[]` or `{}`. */
function isBlankValue(value: unknown): boolean {
  if (value === false) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}
