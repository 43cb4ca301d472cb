/**
 * The uploads page over HTTP, without a browser: GOV.UK Frontend's files served by the service
 * itself, the pages' headers, the session and its CSRF token, the steps of an upload, refusals as
 * error summaries, and another provider's uploads out of reach. The browser's walk through the page
 * is uploads-page-browser.e2e-spec.ts.
 */
import { RunningApi } from '../support/api-harness';
import { PageClient, type PageAnswer } from '../support/page-client';
import { csvFile, traineeRows } from '../support/upload-files';
import { addTraineeColumns } from '@app/uploads/write';
import { Uploads } from '../../apps/api/src/uploads/uploads';

const A = '10000461';
const B = '10000462';
const V = 'v2026.1';

/** The ids of the error summary's links and its messages; [] when the page has none. */
function summary(page: PageAnswer): { href: string; message: string }[] {
  if (!page.text.includes('govuk-error-summary')) return [];
  expect(page.text).toContain('There is a problem');
  expect(page.text).toMatch(/<title>Error: /);
  return [...page.text.matchAll(/<li><a href="(#[\w-]+)">([^<]*)<\/a><\/li>/g)].map((m) => ({ href: m[1], message: m[2] }));
}

/** The summary of a checked file: its rows as [key, value], spaces folded. */
function summaryOf(text: string): [string, string][] {
  const list = /<dl class="govuk-summary-list" id="file-summary">([\s\S]*?)<\/dl>/.exec(text)?.[1] ?? '';
  return [
    ...list.matchAll(/<dt class="govuk-summary-list__key">([\s\S]*?)<\/dt>\s*<dd class="govuk-summary-list__value">([\s\S]*?)<\/dd>/g),
  ].map((m): [string, string] => [m[1].trim(), m[2].replace(/\s+/g, ' ').trim()]);
}

describe('the uploads page over HTTP', () => {
  let api: RunningApi;
  let tokenA: string;
  let tokenB: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    tokenA = await api.providerToken(A);
    tokenB = await api.providerToken(B);
  });
  afterAll(() => api.close());

  const client = () => new PageClient(api.baseUrl);

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

  it('answers the sign-in page with a session cookie (HttpOnly, SameSite=Lax, bounded), no-store and a CSP of self', async () => {
    const res = await fetch(`${api.baseUrl}/uploads`);
    const text = await res.text();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).toMatch(/script-src 'self' 'sha256-[\w+/=]+' 'sha256-[\w+/=]+'(;|$)/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(res.headers.get('set-cookie')).toMatch(
      /^trainee_records_uploads=[\w-]{43}; Path=\/uploads; Max-Age=28800; HttpOnly; SameSite=Lax$/,
    );
    expect(text).toContain('<html lang="en" class="govuk-template">');
    expect(text).toMatch(/<input type="hidden" name="csrf_token" value="[\w-]{43}" \/>/);
    expect(text).toContain('<label class="govuk-label govuk-label--m" for="token">API token</label>');
  });

  it('has the generic header, naming the service without GOV.UK’s crown, on every page: the service is not on GOV.UK', async () => {
    const c = client();
    const pages = [await c.get('/uploads'), await c.get('/uploads/no-such-page')];
    await c.signIn(tokenA);
    pages.push(await c.get('/uploads'));
    for (const page of pages) {
      expect(page.text).toMatch(
        /<header class="govuk-generic-header">[\s\S]*?<a href="\/uploads" class="govuk-generic-header__homepage-link">Register trainee teachers<\/a>/,
      );
      expect(page.text).not.toMatch(/govuk-header__|aria-label="GOV.UK"|<title>GOV.UK<\/title>|govuk-service-navigation__service-name/);
      expect(page.text).toContain('class="govuk-service-navigation__list"');
    }
  });

  it('refuses a wrong or empty token with an error summary, and a form without its CSRF token with 403', async () => {
    const c = client();
    const wrong = await c.signIn('sandbox_not-a-token');
    expect(wrong.status).toBe(401);
    expect(summary(wrong)).toEqual([{ href: '#token', message: 'Enter a valid API token: this one is not active, or has expired' }]);
    expect(wrong.text).not.toMatch(/at \w+ \(|Error:\s+\w+Error/);
    const empty = await c.post('/uploads/sign-in', { token: '  ' });
    expect([empty.status, summary(empty)]).toEqual([422, [{ href: '#token', message: 'Enter your API token' }]]);
    const tooLong = await c.post('/uploads/sign-in', { token: 'x'.repeat(600) });
    expect(tooLong.status).toBe(400);

    const noToken = await c.post('/uploads/sign-in', { token: tokenA }, false);
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain('Your form could not be sent');
    const badToken = await c.post('/uploads/sign-in', { token: tokenA, csrf_token: 'x'.repeat(43) });
    expect(badToken.status).toBe(403);
    expect(c.cookie).not.toBeNull();
    // Still not signed in.
    expect((await c.get('/uploads/template.csv')).status).toBe(303);
  });

  it('signs in with the token, downloads the template and the column guide, and signs out for good', async () => {
    const c = client();
    const before = c.cookie;
    const signIn = await c.signIn(tokenA);
    expect([signIn.status, signIn.headers.get('location')]).toEqual([303, '/uploads']);
    expect(c.cookie).not.toBe(before);
    const start = await c.get('/uploads');
    expect(start.text).toContain('Add trainees from a CSV file');
    expect(start.text).toContain('Sign out');

    const template = await c.get('/uploads/template.csv');
    expect(template.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(template.headers.get('cache-control')).toBe('no-store');
    expect(template.text.trimEnd().split(',')).toEqual(addTraineeColumns(V));
    const guide = await c.get('/uploads/column-guide.csv');
    expect(guide.text.split('\r\n')[0]).toBe('column,label,required,format,example,codes');
    expect(guide.text).toMatch(/\r\nsex,Sex,Required,A code from the list,11,"10: Female\n11: Male/);

    const signedInCookie = c.cookie;
    // Signing out needs the CSRF token too.
    expect((await c.post('/uploads/sign-out', {}, false)).status).toBe(403);
    const out = await c.post('/uploads/sign-out');
    expect([out.status, out.headers.get('set-cookie')]).toEqual([303, expect.stringMatching(/Max-Age=0/)]);
    // The old cookie no longer signs anyone in.
    c.cookie = signedInCookie;
    expect((await c.get('/uploads/template.csv')).status).toBe(303);
    expect((await c.get('/uploads')).text).toContain('Sign in to add trainees from a file');
  });

  it('takes a file with errors, shows them by row and column, takes the fixed file, submits it and shows each row’s trainee id', async () => {
    const c = client();
    await c.signIn(tokenA);
    await c.get('/uploads');
    const rows = traineeRows(V, 3);
    const bad = rows.map((r, i) => (i === 1 ? { ...r, sex: '77' } : r));
    const sent = await c.upload(csvFile(V, bad));
    expect(sent.status).toBe(303);
    const location = sent.headers.get('location')!;
    expect(location).toMatch(/^\/uploads\/files\/[\w-]+$/);

    const errors = await c.settled(location);
    expect(errors.text).toContain('Fix the errors in your file');
    expect(errors.text).toMatch(/Row 3<\/h3>[\s\S]*?<dt class="govuk-summary-list__key">\s*Sex <br \/>/);
    const errorsFile = await c.get(`${location}/errors.csv`);
    expect(errorsFile.text.split('\r\n')[0]).toMatch(/,errors$/);
    expect(errorsFile.text).toContain('sex');

    const fixed = await c.upload(csvFile(V, rows));
    const checked = await c.settled(fixed.headers.get('location')!);
    expect(checked.text).toContain('3 trainees will be added');
    const submitted = await c.post(`${fixed.headers.get('location')}/submit`);
    expect(submitted.status).toBe(303);
    const result = await c.settled(fixed.headers.get('location')!);
    expect(result.text).toContain('Trainees added');
    const ids = await c.get(`${fixed.headers.get('location')}/trainees.csv`);
    const lines = ids.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('row,trainee_id,errors');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['2', '3', '4']);
    for (const line of lines.slice(1)) expect(result.text).toContain(line.split(',')[1]);

    // A second submit shows the upload as it stands.
    const again = await c.post(`${fixed.headers.get('location')}/submit`);
    expect([again.status, again.headers.get('location')]).toEqual([303, fixed.headers.get('location')]);

    // Another provider's session: every resource of the upload is "Page not found".
    const other = client();
    await other.signIn(tokenB);
    await other.get('/uploads');
    for (const path of [location, `${location}/errors.csv`, `${fixed.headers.get('location')}/trainees.csv`]) {
      const res = await other.get(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.text).toContain('Page not found');
    }
    expect((await other.post(`${location}/cancel`)).status).toBe(404);
    expect((await c.get(location)).status).toBe(200);
  });

  it('sums up a checked file: the same file again names each trainee already registered once, plainly, never as errors', async () => {
    const c = client();
    await c.signIn(tokenA);
    await c.get('/uploads');
    const rows = traineeRows(V, 3);
    const first = (await c.upload(csvFile(V, rows))).headers.get('location')!;
    const checked = await c.settled(first);
    expect(summaryOf(checked.text)).toEqual([
      ['Will be added', '3 trainees: rows 2 to 4'],
      ['Already registered', 'None'],
      ['Has errors', 'None'],
    ]);
    for (const r of rows) expect(checked.text).toContain(`${r.first_names} ${r.last_name}<br />`);
    await c.post(`${first}/submit`);
    expect((await c.settled(first)).text).toContain('Trainees added');

    const again = (await c.upload(csvFile(V, rows))).headers.get('location')!;
    const page = await c.settled(again);
    expect(page.text).toContain('<h1 class="govuk-heading-l">All 3 trainees in your file are already registered</h1>');
    expect(page.text).toContain('There is nothing to add from this file, so you do not need to upload it again.');
    expect(summaryOf(page.text)).toEqual([
      ['Will be added', 'None'],
      ['Already registered', '3 trainees: rows 2 to 4'],
      ['Has errors', 'None'],
    ]);
    expect(page.text.match(/already in Register/g)).toHaveLength(1);
    expect(page.text).not.toMatch(/Errors by row|govuk-summary-card__title">Row |Submit trainees/);
    rows.forEach((r, i) => {
      const named = new RegExp(
        `Row ${i + 2}</dt>\\s*<dd class="govuk-summary-list__value">${r.first_names} ${r.last_name}<br /><span[^>]*>Provider trainee ID: ${r.provider_trainee_id}<`,
      );
      expect(page.text).toMatch(named);
    });
    // The API answers the same upload as before: each row an error, worded as its 422s, nothing of the page's.
    const answer = await api.request('GET', `/api/${V}/trainee-uploads/${again.split('/').pop()}`, tokenA);
    expect(answer.body.data).toMatchObject({ status: 'failed', error_count: 3 });
    expect(answer.body.data.errors).toEqual(
      [2, 3, 4].map((row) => ({ row, column: null, message: 'This trainee is already in Register' })),
    );

    // One new, one already registered, one twice in the file, one with an error: four groups' worth of words.
    const newOnes = traineeRows(V, 2);
    const mixed = [newOnes[0], rows[0], { ...newOnes[0] }, { ...newOnes[1], sex: '77' }];
    const mixedPage = await c.settled((await c.upload(csvFile(V, mixed))).headers.get('location')!);
    expect(mixedPage.text).toContain('<h1 class="govuk-heading-l">Fix the errors in your file</h1>');
    expect(summaryOf(mixedPage.text)).toEqual([
      ['Will be added', '1 trainee: row 2'],
      ['Already registered', '1 trainee: row 3'],
      ['Has errors', '2 rows: rows 4 and 5'],
    ]);
    expect(mixedPage.text).toContain('This trainee is also in row 2 of your file: keep one of the two rows');
    expect([...mixedPage.text.matchAll(/govuk-summary-card__title">Row (\d+)</g)].map((m) => m[1])).toEqual(['4', '5']);
  });

  it('refuses files as a whole with an error summary linked to the file field, never a 5xx', async () => {
    const c = client();
    await c.signIn(tokenA);
    await c.get('/uploads');
    const header = addTraineeColumns(V).join(',');
    const oneRow = csvFile(V, traineeRows(V, 1));
    const cases: [string, string | Uint8Array, string][] = [
      ['over 1 MB', `${oneRow}${' '.repeat(1_048_577 - oneRow.length)}`, 'The selected file must be smaller than 1MB'],
      [
        'not UTF-8',
        new Uint8Array([...new TextEncoder().encode(`${header}\r\n`), 0xff, 0xfe, 0x41]),
        'The selected file must be a CSV file saved as UTF-8',
      ],
      ['an unknown header', `${header},favourite_colour\r\n${'x,'.repeat(addTraineeColumns(V).length)}blue\r\n`, 'favourite_colour'],
      ['header only', `${header}\r\n`, 'trainee'],
      [
        '1,001 rows',
        csvFile(
          V,
          Array.from({ length: 1001 }, () => ({ first_names: 'A' })),
        ),
        '1,000',
      ],
      ['a picture', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00]), 'The selected file must be a CSV file'],
    ];
    for (const [what, file, message] of cases) {
      const res = await c.upload(file, what === 'a picture' ? 'photo.png' : 'trainees.csv');
      expect([what, res.status]).toEqual([what, 422]);
      const errors = summary(res);
      expect([what, errors.length, errors[0].href]).toEqual([what, 1, '#file']);
      expect([what, errors[0].message]).toEqual([what, expect.stringContaining(message.replace(/'/g, '&#39;'))]);
      expect(res.text).toContain('govuk-file-upload--error');
    }
    const none = await c.upload(new Uint8Array(), '');
    expect([none.status, summary(none)]).toEqual([422, [{ href: '#file', message: 'Select a CSV file' }]]);
    // Past what the form reads at all: the same summary, from the form's own bound.
    const huge = await c.upload(new Uint8Array(3 * 1_048_576).fill(0x41));
    expect([huge.status, summary(huge)]).toEqual([413, [{ href: '#file', message: 'The selected file must be smaller than 1MB' }]]);
    expect((await fetch(`${api.baseUrl}/readyz`)).status).toBe(200);
  });

  it('answers 503 with Retry-After and an apology when the storage cannot take the file (docs/operations.md "When the disk fills")', async () => {
    const c = client();
    await c.signIn(tokenA);
    await c.get('/uploads');
    // The upload's first step, made to fail as a store on a full disk fails.
    const ports = api.app.get(Uploads).ports;
    const newUploadId = ports.newUploadId;
    ports.newUploadId = () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    try {
      const sent = await c.upload(csvFile(V, traineeRows(V, 1)));
      expect([sent.status, sent.headers.get('retry-after')]).toEqual([503, '30']);
      expect(sent.text).toContain('Sorry, the service is unavailable');
      expect(sent.text).not.toContain('disk');
    } finally {
      ports.newUploadId = newUploadId;
    }
    expect((await c.upload(csvFile(V, traineeRows(V, 1)))).status).toBe(303);
  });

  it('holds 50 sessions a provider: one provider signing in again and again signs no other provider out', async () => {
    const b = client();
    await b.signIn(tokenB);
    const first = client();
    await first.signIn(tokenA);
    for (let i = 0; i < 50; i++) await client().signIn(tokenA);
    expect((await first.get('/uploads')).text).toContain('Sign in to add trainees from a file');
    expect((await b.get('/uploads')).text).toContain('Sign out');
  });

  it('holds 20 sign-in forms an address: the oldest form’s token no longer signs in', async () => {
    const oldest = client();
    await oldest.get('/uploads');
    for (let i = 0; i < 20; i++) await client().get('/uploads');
    expect((await oldest.post('/uploads/sign-in', { token: tokenA })).status).toBe(403);
    expect((await client().signIn(tokenA)).status).toBe(303);
  });
});

describe('the uploads page on GOV.UK (PAGES_ON_GOV_UK=true)', () => {
  let api: RunningApi;
  beforeAll(async () => {
    api = await RunningApi.start({ pagesOnGovUk: true });
  });
  afterAll(() => api.close());

  it('has GOV.UK’s header with its crown logo, the service named in the service navigation, on every page', async () => {
    const c = new PageClient(api.baseUrl);
    const token = await api.providerToken(A);
    const pages = [await c.get('/uploads'), await c.get('/uploads/no-such-page')];
    await c.signIn(token);
    pages.push(await c.get('/uploads'));
    for (const page of pages) {
      expect(page.text).toMatch(
        /<header class="govuk-header" data-module="govuk-header">[\s\S]*?class="govuk-header__logotype" aria-label="GOV.UK"/,
      );
      expect(page.text).toMatch(
        /<span class="govuk-service-navigation__service-name"\s*><a href="\/uploads" class="govuk-service-navigation__link">Register trainee teachers<\/a><\/span\s*>/,
      );
      expect(page.text).not.toContain('govuk-generic-header');
    }
  });
});
