/**
 * A browser-less client of the uploads page: it keeps the session cookie, reads each form's CSRF
 * token from the page it was given, posts forms (urlencoded, or multipart with a file) and does not
 * follow redirects, so a test sees each answer.
 */

/** One answer: status, headers, body text. */
export interface PageAnswer {
  status: number;
  headers: Headers;
  text: string;
}

/** The CSRF token of the first form of a page. */
export function csrfTokenOf(html: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!match) throw new Error('no CSRF token on the page');
  return match[1];
}

export class PageClient {
  cookie: string | null = null;
  /** The CSRF token of the last page read that had a form. */
  csrfToken = '';

  constructor(private readonly baseUrl: string) {}

  private async send(method: string, path: string, body?: string | FormData, headers: Record<string, string> = {}): Promise<PageAnswer> {
    const h: Record<string, string> = { ...headers };
    if (this.cookie) h.cookie = this.cookie;
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers: h, body, redirect: 'manual' });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = /Max-Age=0/.test(set) ? null : set.split(';')[0];
    const text = await res.text();
    const token = /name="csrf_token" value="([^"]+)"/.exec(text);
    if (token) this.csrfToken = token[1];
    return { status: res.status, headers: res.headers, text };
  }

  get(path: string): Promise<PageAnswer> {
    return this.send('GET', path);
  }

  /** Posts a urlencoded form; the CSRF token of the last page unless `fields` names one (or `csrf` is false). */
  post(path: string, fields: Record<string, string> = {}, csrf = true): Promise<PageAnswer> {
    const form = new URLSearchParams({ ...(csrf ? { csrf_token: this.csrfToken } : {}), ...fields });
    return this.send('POST', path, form.toString(), { 'content-type': 'application/x-www-form-urlencoded' });
  }

  /** Posts an upload form (the add-trainees one unless `path` says): the file (bytes, name) and the CSRF token of the last page. */
  upload(file: string | Uint8Array, name = 'trainees.csv', path = '/uploads/files'): Promise<PageAnswer> {
    const form = new FormData();
    form.set('csrf_token', this.csrfToken);
    form.set('file', new Blob([typeof file === 'string' ? new TextEncoder().encode(file) : file], { type: 'text/csv' }), name);
    return this.send('POST', path, form);
  }

  /** Signs in with `token` from the sign-in page; returns the answer to the sign-in. */
  async signIn(token: string): Promise<PageAnswer> {
    await this.get('/uploads');
    return this.post('/uploads/sign-in', { token });
  }

  /**
   * Signs in as a demo person at the sandbox's own identity provider (apps/api/src/uploads-page/sandbox-identity.ts): the start of
   * the sign-in, the provider's redirects and its sign-in form (with cookies of its own), then the callback. Returns the callback's
   * answer (303 to /uploads when signed in).
   */
  async signInAsPerson(person: { name?: string; ukprn: string; role?: 'uploader' | 'viewer' }): Promise<PageAnswer> {
    const start = await this.get('/uploads/sign-in');
    if (start.status !== 303) return start;
    const jar = new Map<string, string>();
    const visit = async (url: string, init: RequestInit = {}) => {
      const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(url, { ...init, redirect: 'manual', headers: { ...(init.headers as object), cookie } });
      for (const set of res.headers.getSetCookie()) {
        const [pair] = set.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      return { res, text: await res.text() };
    };
    let url = start.headers.get('location')!;
    const callback = `${this.baseUrl}/uploads/sign-in/callback`;
    for (let hops = 0; hops < 10 && !url.startsWith(callback); hops++) {
      const { res } = await visit(url);
      if (res.status === 200) {
        const form = new URLSearchParams({ name: person.name ?? 'demo', ukprn: person.ukprn, role: person.role ?? 'uploader' });
        const posted = await visit(url, {
          method: 'POST',
          body: form.toString(),
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        url = new URL(posted.res.headers.get('location')!, url).href;
      } else {
        url = new URL(res.headers.get('location')!, url).href;
      }
    }
    return this.get(url.slice(this.baseUrl.length));
  }

  /** Reads the upload's page until its status is past checking, adding or recommending; returns that page. */
  async settled(location: string): Promise<PageAnswer> {
    for (let i = 0; i < 600; i++) {
      const page = await this.get(location);
      if (!/<h1 class="govuk-heading-l">(Checking your file|Adding trainees|Recommending trainees)<\/h1>/.test(page.text)) return page;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`${location} did not settle`);
  }
}
