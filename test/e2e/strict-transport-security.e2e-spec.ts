/**
 * `Strict-Transport-Security` in production on every answer (the uploads page, its `/assets/`, the
 * API, health, refusals and 404s included), and never in the sandbox, served over plain HTTP on
 * localhost (apps/api/src/admission/transport-security.ts).
 */
import { RunningApi } from '../support/api-harness';
import { PageClient, type PageAnswer } from '../support/page-client';

const UKPRN = '10000471';

/** The answers of the paths the page and the API serve, by what was asked; signed in by token where the sandbox offers it. */
async function answers(api: RunningApi, token: string, tokenSignIn: boolean): Promise<[string, PageAnswer][]> {
  const c = new PageClient(api.baseUrl);
  const seen: [string, PageAnswer][] = [];
  const ask = async (what: string, answer: Promise<PageAnswer>, status: number) => {
    const res = await answer;
    expect([what, res.status]).toEqual([what, status]);
    seen.push([what, res]);
  };
  const get = async (path: string): Promise<PageAnswer> => {
    const res = await fetch(`${api.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  await ask('the sign-in page', c.get('/uploads'), 200);
  await ask('a form without its CSRF token', c.post('/uploads/sign-out', {}, false), 403);
  await ask('a page not found', c.get('/uploads/nothing-here'), 404);
  if (tokenSignIn) {
    await ask('the sign-in', c.signIn(token), 303);
    await ask('the start page', c.get('/uploads'), 200);
    await ask('the template', c.get('/uploads/template.csv'), 200);
  } else {
    // Production signs a person in by OpenID Connect only: with no identity provider set, its start answers so.
    await ask('the sign-in, not set up', c.get('/uploads/sign-in'), 404);
    await ask('a signed-in page, signed out', c.get('/uploads/template.csv'), 303);
  }
  await ask('the stylesheet', c.get('/assets/govuk-frontend.min.css'), 200);
  await ask('an asset not served', c.get('/assets/package.json'), 404);
  await ask('the API', get('/api/v2025.0/info'), 200);
  await ask('the API without a token', c.get('/api/v2025.0/info'), 401);
  await ask('health', c.get('/healthz'), 200);
  return seen;
}

describe.each([
  ['production', 'max-age=31536000; includeSubDomains'],
  ['sandbox', null],
] as const)('Strict-Transport-Security with APP_ENV=%s', (appEnv, expected) => {
  let api: RunningApi;
  let token: string;

  beforeAll(async () => {
    api = await RunningApi.start({ appEnv });
    token = await api.providerToken(UKPRN);
  });
  afterAll(() => api.close());

  it(expected ? 'is on every answer, page, assets, API and refusals alike' : 'is on no answer', async () => {
    for (const [what, res] of await answers(api, token, appEnv === 'sandbox')) {
      expect([what, res.headers.get('strict-transport-security')]).toEqual([what, expected]);
    }
  });
});
