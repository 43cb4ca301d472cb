/**
 * The uploads page's sessions kept in the stores (docs/DESIGN.md "The uploads page"): a restart between two steps keeps the person
 * signed in (with a token or an account at the sandbox's identity provider), and two API processes on one data directory (two app
 * instances here) serve, and end, the same session.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunningApi } from '../support/api-harness';
import { PageClient } from '../support/page-client';
import { csvFile, traineeRows } from '../support/upload-files';

const A = '10000471';
const V = 'v2026.1';

/** The same browser (its cookie and last CSRF token) pointed at another API process. */
function sameBrowserAt(client: PageClient, api: RunningApi): PageClient {
  const moved = new PageClient(api.baseUrl);
  moved.cookie = client.cookie;
  moved.csrfToken = client.csrfToken;
  return moved;
}

describe('the uploads page’s sessions across restarts and processes', () => {
  let dataDir: string;
  const running: RunningApi[] = [];
  const start = async (projector: 'in-process' | 'external' = 'in-process') => {
    const api = await RunningApi.start({ dataDir, projector });
    running.push(api);
    return api;
  };

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'page-sessions-e2e-'));
  });
  afterAll(async () => {
    for (const api of running.reverse()) await api.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps a person signed in across a restart between choosing a file and submitting it', async () => {
    const first = await start();
    const token = await first.providerToken(A);
    const browser = new PageClient(first.baseUrl);
    expect((await browser.signIn(token)).status).toBe(303);
    await browser.get('/uploads');
    const sent = await browser.upload(csvFile(V, traineeRows(V, 1)));
    expect(sent.status).toBe(303);
    const location = sent.headers.get('location')!;
    await browser.settled(location);
    await first.close();
    running.splice(running.indexOf(first), 1);

    const second = await start();
    const after = sameBrowserAt(browser, second);
    const page = await after.settled(location);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Submit trainees');
    const submitted = await after.post(`${location}/submit`);
    expect([submitted.status, submitted.headers.get('location')]).toEqual([303, location]);
  });

  it('keeps a person signed in by OpenID Connect across a restart, their provider still named', async () => {
    const [one] = running;
    const browser = new PageClient(one.baseUrl);
    await one.providerToken(`${Number(A) + 2}`);
    expect((await browser.signInAsPerson({ ukprn: `${Number(A) + 2}` })).status).toBe(303);
    expect((await browser.get('/uploads')).text).toContain('Sign out');
    await one.close();
    running.splice(0, 1);
    const again = await start();
    const page = await sameBrowserAt(browser, again).get('/uploads');
    expect(page.text).toContain('Sign out');
    expect(page.text).toContain(`(UKPRN ${Number(A) + 2})`);
  });

  it('serves one session from two API processes on one data directory, and signing out on one ends it on both', async () => {
    const [one] = running;
    const two = await start('external');
    const token = await one.providerToken(`${Number(A) + 1}`);
    const browser = new PageClient(one.baseUrl);
    expect((await browser.signIn(token)).status).toBe(303);
    const there = sameBrowserAt(browser, two);
    const page = await there.get('/uploads');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Sign out');
    expect((await there.post('/uploads/sign-out')).status).toBe(303);
    const here = await sameBrowserAt(browser, one).get('/uploads');
    expect(here.text).not.toContain('Sign out');
    expect(here.text).toContain('Sign in');
  });
});
