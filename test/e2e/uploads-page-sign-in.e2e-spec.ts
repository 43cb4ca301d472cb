/**
 * A person's sign-in to the uploads page by OpenID Connect, against the sandbox's own identity provider (`oidc-provider`, in the API's
 * process): the authorisation code flow with PKCE, the person's provider and role from the claims, their provider's uploads and no
 * other's, and refusals as 4xx pages.
 */
import { RunningApi } from '../support/api-harness';
import { PageClient } from '../support/page-client';
import { csvFile, traineeRows } from '../support/upload-files';

const A = '10000481';
const B = '10000482';
const V = 'v2026.1';

describe('signing in to the uploads page with an account', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await RunningApi.start();
    await api.providerToken(A);
    await api.providerToken(B);
  });
  afterAll(() => api.close());

  const client = () => new PageClient(api.baseUrl);

  it('offers the account sign-in, sends the browser to the identity provider with PKCE, and signs the person in', async () => {
    const browser = client();
    const first = await browser.get('/uploads');
    expect(first.text).toContain('href="/uploads/sign-in"');
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
    const start = await browser.get('/uploads/sign-in');
    expect(start.status).toBe(303);
    const authorize = new URL(start.headers.get('location')!);
    expect(authorize.pathname).toBe('/sandbox-identity/auth');
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${api.baseUrl}/uploads/sign-in/callback`);

    const person = client();
    const signedIn = await person.signInAsPerson({ ukprn: A });
    expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, '/uploads']);
    expect(signedIn.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Lax/);
    const home = await person.get('/uploads');
    expect(home.text).toContain('Sign out');
    expect(home.text).toContain('Upload your file');
  });

  it('shows the person their provider’s uploads only; another provider’s upload is "Page not found"', async () => {
    const a = client();
    await a.signInAsPerson({ ukprn: A });
    expect((await a.get('/uploads')).text).toContain('Sign out');
    const sent = await a.upload(csvFile(V, traineeRows(V, 1)));
    expect(sent.status).toBe(303);
    const location = sent.headers.get('location')!;
    expect((await a.settled(location)).status).toBe(200);

    const named = (ukprn: string) => `Signed in for <strong>Provider ${ukprn} (UKPRN ${ukprn})</strong>`;
    for (const path of ['/uploads', location]) expect((await a.get(path)).text).toContain(named(A));

    const b = client();
    await b.signInAsPerson({ ukprn: B });
    const page = await b.get(location);
    expect(page.status).toBe(404);
    expect(page.text).toContain('Page not found');
    expect(page.text).toContain(named(B));
    expect(page.text).not.toContain(named(A));
    expect((await b.get(`${location}/errors.csv`)).status).toBe(404);
    const start = await b.get('/uploads');
    expect(start.text).not.toContain(location);
    // B signing out ends B's session only: A's goes on.
    expect((await b.post('/uploads/sign-out')).status).toBe(303);
    expect((await b.get('/uploads')).text).not.toContain('Sign out');
    expect((await a.get('/uploads')).text).toContain(named(A));
  });

  it('records the person’s sub in their events’ metadata, their submit’s trainees’ too, never their name; a token’s none', async () => {
    const browser = client();
    const name = 'Ada Quillfeather';
    await browser.signInAsPerson({ ukprn: A, name });
    await browser.get('/uploads');
    const location = (await browser.upload(csvFile(V, traineeRows(V, 1)))).headers.get('location')!;
    await browser.settled(location);
    await browser.post(`${location}/submit`);
    const uploadId = location.split('/').pop()!;
    const events = await api.infra.eventStore.readStream(`upload-${uploadId}`);
    const byPerson = events.filter((e) => e.type === 'UploadReceived' || e.type === 'UploadSubmitted');
    expect(byPerson.map((e) => e.type)).toEqual(['UploadReceived', 'UploadSubmitted']);
    const users = new Set(byPerson.map((e) => e.metadata.userId));
    expect(users.size).toBe(1);
    expect([...users][0]).toMatch(/^sandbox-[\w-]{22}$/);
    expect(JSON.stringify(events.map((e) => e.metadata))).not.toContain('Quillfeather');

    // Each row's trainee was written by the background at the submit: its events carry the same person's sub.
    const result = await browser.settled(location);
    expect(result.text).toContain('Trainees added');
    const rowTrainees = (await api.infra.eventStore.readStream(`upload-${uploadId}`)).flatMap((e) =>
      e.type === 'UploadRowAppended' ? [(e.data as { trainee_id: string }).trainee_id] : [],
    );
    expect(rowTrainees).toHaveLength(1);
    const traineeEvents = await api.infra.eventStore.readStream(`trainee-${rowTrainees[0]}`);
    expect(traineeEvents.map((e) => [e.type, e.metadata.userId])).toEqual(
      ['TraineeRegistered', 'PlacementAdded', 'DegreeAdded', 'TraineeSubmittedForTrn'].map((type) => [type, [...users][0]]),
    );
    expect(JSON.stringify(traineeEvents.map((e) => e.metadata))).not.toContain('Quillfeather');

    const token = await api.providerToken(B);
    const viaToken = new PageClient(api.baseUrl);
    await viaToken.signIn(token);
    await viaToken.get('/uploads');
    const other = (await viaToken.upload(csvFile(V, traineeRows(V, 1)))).headers.get('location')!;
    const received = (await api.infra.eventStore.readStream(`upload-${other.split('/').pop()}`))[0];
    expect([received.type, 'userId' in received.metadata, received.metadata.tokenId]).toEqual([
      'UploadReceived',
      false,
      expect.any(String),
    ]);
  });

  it('refuses a person whose organisation is not a provider registered here (403), signing no one in', async () => {
    const browser = client();
    const answer = await browser.signInAsPerson({ ukprn: '10000499' });
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('Your organisation is not registered with this service');
    expect((await browser.get('/uploads')).text).not.toContain('Sign out');
  });

  it('refuses a callback without its login, with a state that does not match, or replayed, with a 400 page', async () => {
    const browser = client();
    expect((await browser.get('/uploads/sign-in/callback?code=x&state=y')).status).toBe(400);
    await browser.get('/uploads/sign-in');
    expect((await browser.get('/uploads/sign-in/callback?code=x&state=not-the-state')).status).toBe(400);
    // The login is spent by a refused callback: the same state again is refused too.
    expect((await browser.get('/uploads/sign-in/callback?code=x&state=not-the-state')).status).toBe(400);
    expect((await browser.get(`/uploads/sign-in/callback?code=${'x'.repeat(5_000)}`)).status).toBe(400);
  });
});

describe('a viewer on the uploads page', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await RunningApi.start();
    await api.providerToken(A);
  });
  afterAll(() => api.close());

  const viewOnly = 'Your role lets you see your provider’s uploads only.';
  /** The page's forms by where they post, the sign-out's left out. */
  const forms = (text: string) =>
    [...text.matchAll(/<form method="post" action="([^"]+)"/g)].map((m) => m[1]).filter((a) => !a.endsWith('/sign-out'));

  it('sees the provider’s uploads, without a form to add, submit or cancel one, and is refused each (403)', async () => {
    const uploader = new PageClient(api.baseUrl);
    await uploader.signInAsPerson({ ukprn: A, role: 'uploader' });
    expect(forms((await uploader.get('/uploads')).text)).toEqual(['/uploads/files']);
    const location = (await uploader.upload(csvFile(V, traineeRows(V, 1)))).headers.get('location')!;
    expect(forms((await uploader.settled(location)).text)).toEqual([`${location}/submit`, `${location}/cancel`]);
    const failed = (
      await uploader.upload(
        csvFile(
          V,
          traineeRows(V, 1).map((r) => ({ ...r, sex: '77' })),
        ),
      )
    ).headers.get('location')!;
    expect(forms((await uploader.settled(failed)).text)).toEqual(['/uploads/files']);

    const viewer = new PageClient(api.baseUrl);
    await viewer.signInAsPerson({ ukprn: A, role: 'viewer', name: 'another' });
    const start = await viewer.get('/uploads');
    expect(start.text).toContain(location);
    for (const page of [start, await viewer.get(location), await viewer.get(failed)]) {
      expect(page.status).toBe(200);
      expect(forms(page.text)).toEqual([]);
      expect(page.text).toContain(viewOnly);
      expect(page.text).toContain('Sign out');
    }
    expect((await uploader.get(location)).text).not.toContain(viewOnly);
    expect((await viewer.upload(csvFile(V, traineeRows(V, 1)))).status).toBe(403);
    expect((await viewer.post(`${location}/submit`)).status).toBe(403);
    expect((await viewer.post(`${location}/cancel`)).status).toBe(403);
    expect((await uploader.settled(location)).text).toContain('Submit trainees');
  });
});

describe('the uploads page in production', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await RunningApi.start({ appEnv: 'production' });
  });
  afterAll(() => api.close());

  it('never signs in with a token, and without OIDC_ISSUER_URL says signing in is not set up', async () => {
    const token = await api.providerToken(A);
    const browser = new PageClient(api.baseUrl);
    const start = await browser.get('/uploads');
    expect(start.text).toContain('Signing in is not set up for this service yet');
    expect(start.text).not.toContain('name="token"');
    expect((await browser.post('/uploads/sign-in', { token })).status).toBe(404);
    expect((await browser.get('/uploads/sign-in')).status).toBe(404);
    expect((await browser.get('/sandbox-identity/.well-known/openid-configuration')).status).toBe(404);
  });
});
