/**
 * What the uploads page reads from a request: its session cookie, and the fields of a form posted
 * `application/x-www-form-urlencoded` or `multipart/form-data` (a chosen file), each bounded:
 * fields counted, sizes limited by the body parsers (uploads-page.ts).
 */
import type { FastifyRequest } from 'fastify';

/** The session cookie's name. */
export const SESSION_COOKIE = 'trainee_records_uploads';

/** Fields a form of the page may post: more is not one of its forms. */
const FIELDS_MAX = 8;
/** Characters a text field may hold (the longest is an API token). */
export const FIELD_CHARS_MAX = 512;

/** A form as read: its text fields, and its chosen file (bytes and name) if it had a file field. */
export interface PostedForm {
  fields: Record<string, string>;
  file: { name: string; bytes: Uint8Array } | null;
}

/** A form that is not one of the page's: too many fields, a field too long, or a body that is not a form. */
export class FormRefused extends Error {}

/** The session id of the request's cookie, if it sends one. */
export function sessionCookie(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The `Set-Cookie` value of a session: HttpOnly, SameSite=Strict, for /uploads, `Secure` in production; `maxAgeS` 0 ends it. */
export function sessionCookieHeader(id: string, maxAgeS: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${id}; Path=/uploads; Max-Age=${maxAgeS}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** Adds a text field, refusing a form past the bounds. */
function addField(fields: Record<string, string>, name: string, value: string): void {
  if (Object.keys(fields).length >= FIELDS_MAX || value.length > FIELD_CHARS_MAX) throw new FormRefused();
  fields[name] = value;
}

/**
 * The form of a request whose body the page's parsers read: a urlencoded body (text) or a
 * multipart one (bytes, read by the platform's `Response.formData`, whose file fields are kept as
 * bytes). Throws {@link FormRefused} for anything else or past the bounds.
 */
export async function postedForm(request: FastifyRequest): Promise<PostedForm> {
  const form: PostedForm = { fields: {}, file: null };
  const body = request.body;
  if (typeof body === 'string') {
    for (const [name, value] of new URLSearchParams(body)) addField(form.fields, name, value);
    return form;
  }
  if (!Buffer.isBuffer(body)) throw new FormRefused();
  let parts: FormData;
  try {
    parts = await new Response(body, { headers: { 'content-type': String(request.headers['content-type']) } }).formData();
  } catch {
    throw new FormRefused();
  }
  for (const [name, value] of parts) {
    if (typeof value === 'string') addField(form.fields, name, value);
    else if (name === 'file' && form.file === null) form.file = { name: value.name, bytes: new Uint8Array(await value.arrayBuffer()) };
    else throw new FormRefused();
  }
  return form;
}
