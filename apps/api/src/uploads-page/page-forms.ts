/** The session cookie and a posted form's fields (urlencoded, or multipart with a chosen file), each bounded. */
import type { FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'trainee_records_uploads';

/** More is not one of its forms. */
const FIELDS_MAX = 8;
/** The longest is an API token. */
export const FIELD_CHARS_MAX = 512;

export interface PostedForm {
  fields: Record<string, string>;
  file: { name: string; bytes: Uint8Array } | null;
}

/** Too many fields, a field too long, or not a form. */
export class FormRefused extends Error {}

export function sessionCookie(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === SESSION_COOKIE) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * HttpOnly, SameSite=Lax (the identity provider's redirect back is a top-level navigation from another site, which Strict would send
 * without it), for /uploads, `Secure` outside local http; `maxAgeS` 0 ends it.
 */
export function sessionCookieHeader(id: string, maxAgeS: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${id}; Path=/uploads; Max-Age=${maxAgeS}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

function addField(fields: Record<string, string>, name: string, value: string): void {
  if (Object.keys(fields).length >= FIELDS_MAX || value.length > FIELD_CHARS_MAX) throw new FormRefused();
  fields[name] = value;
}

/** A urlencoded body, or multipart read by the platform's `Response.formData` (files as bytes); {@link FormRefused} otherwise. */
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
