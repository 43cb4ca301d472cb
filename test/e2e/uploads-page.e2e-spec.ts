/**
 * The uploads page over HTTP, without a browser: GOV.UK Frontend's files served by the service
 * itself, the pages' headers, the session and its CSRF token, refusals as error summaries, and
 * another provider's uploads out of reach. The browser's walk through the page is
 * uploads-page-browser.e2e-spec.ts.
 */
import { RunningApi } from '../support/api-harness';

describe('the uploads page over HTTP', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await RunningApi.start();
  });
  afterAll(() => api.close());

  it('serves GOV.UK Frontend’s stylesheet, script, fonts and images from the package, cached a day, and nothing else of it', async () => {
    for (const [path, type] of [
      ['/assets/govuk-frontend.min.css', /^text\/css/],
      ['/assets/govuk-frontend.min.js', /javascript/],
      ['/assets/fonts/bold-b542beb274-v2.woff2', /font\/woff2/],
      ['/assets/images/govuk-crest.svg', /image\/svg\+xml/],
      ['/assets/images/favicon.ico', /icon/],
    ] as const) {
      const res = await fetch(`${api.baseUrl}${path}`);
      expect([path, res.status]).toEqual([path, 200]);
      expect(res.headers.get('content-type')).toMatch(type);
      expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
      expect(res.headers.get('etag')).toBeTruthy();
      await res.arrayBuffer();
    }
    for (const path of ['/assets/template.njk', '/assets/components/button/template.njk', '/assets/all.mjs', '/assets/../package.json']) {
      const res = await fetch(`${api.baseUrl}${path}`);
      expect([path, res.status]).toEqual([path, 404]);
      await res.arrayBuffer();
    }
  });
});
