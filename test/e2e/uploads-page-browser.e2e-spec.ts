// Slow by design: two walks through every page in headless Chromium, axe-core run on each page at two widths.
/**
 * The providers' staff pages in a real browser (the system's Chromium through puppeteer-core; the test fails, naming the fix, when
 * none is installed): a staff member's day from sign-in to sign-out ({@link walk}), once with JavaScript and once without; axe-core
 * finds no WCAG 2.2 AA violation on any page met, 1280 and 320 px wide, and nothing scrolls sideways at 320 px. Also a list request
 * out of bounds and a form posted without its CSRF token. One service for the file.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { addTraineeColumns } from '@app/uploads/write';
import { RunningApi } from '../support/api-harness';
import { axeViolations, launchBrowser, type TestBrowser } from '../support/browser';
import { clickAndWait, download, errorSummaryLinks, heading, overflowX, settled, summaryCards, uploadFile } from '../support/page-walk';
import { recommendableTrainee } from '../support/trainee-input';
import { csvFile, spreadsheetRoundTrip, traineeRows } from '../support/upload-files';

const A = '10000471';
const V = 'v2026.1';
/** Degree grade 02's meaning. */
const GRADE_02 = 'Upper Second Class Honours';

describe('the uploads page in a browser', () => {
  let api: RunningApi;
  let token: string;
  let browser: TestBrowser;
  let dir: string;

  /** Trainees the provider's system registered, each able to be recommended (two placements, as their route needs). */
  const recommendable: { id: string; last: string }[] = [];

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken(A);
    for (let i = 0; i < 2; i++) {
      const body = recommendableTrainee(V);
      const res = await api.request('POST', `/api/${V}/trainees`, token, body);
      expect(res.status).toBe(201);
      recommendable.push({ id: res.body.data.trainee_id, last: String(body.data.last_name) });
    }
    dir = await mkdtemp(join(tmpdir(), 'uploads-page-browser-'));
    browser = await launchBrowser();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /**
   * A tab in a browser context of its own (its own cookies), JavaScript on or off, saving downloads
   * into `downloads`; it records what the page's policy refused and any script error.
   */
  async function tab(javaScript: boolean, downloads: string): Promise<{ page: Page; refused: string[] }> {
    await mkdir(downloads, { recursive: true });
    const context = await browser.browser.createBrowserContext({ downloadBehavior: { policy: 'allow', downloadPath: downloads } });
    const page = await context.newPage();
    await page.setJavaScriptEnabled(javaScript);
    const refused: string[] = [];
    // Failed loads of 4xx pages are logged as errors too: only the policy's refusals count.
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    page.on('pageerror', (e) => refused.push(String(e)));
    return { page, refused };
  }

  /**
   * No WCAG 2.2 AA violation on the page as it stands, 1280 px wide and 320 px wide, and nothing to scroll sideways at 320 px. axe-core
   * runs as a script in the page: on a page read with JavaScript off, scripts are let run for the check only (the page's own scripts,
   * already passed over, do not run: the page checked is the one without JavaScript).
   */
  async function accessible(page: Page, javaScript = true): Promise<void> {
    if (!javaScript) await page.setJavaScriptEnabled(true);
    const found: unknown[] = [];
    for (const width of [320, 1280]) {
      await page.setViewport({ width, height: 800 });
      found.push({ width, violations: await axeViolations(page), overflow: width === 320 ? await overflowX(page) : 0 });
    }
    if (!javaScript) await page.setJavaScriptEnabled(false);
    const h1 = await heading(page);
    expect([h1, found]).toEqual([h1, [320, 1280].map((width) => ({ width, violations: [], overflow: 0 }))]);
  }

  /** A form field emptied, then `text` typed into it. */
  async function typeInto(page: Page, selector: string, text: string): Promise<void> {
    await page.$eval(selector, (input) => ((input as unknown as { value: string }).value = ''));
    await page.type(selector, text);
  }

  /** The rows of the summary list `list` (a selector) as [key, value]: by default the checked file's summary. */
  function fileSummary(page: Page, list = '#file-summary'): Promise<[string, string][]> {
    return page.$$eval(`${list} .govuk-summary-list__row`, (rows) =>
      rows.map((row): [string, string] => [
        (row.querySelector('dt')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
        (row.querySelector('dd')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      ]),
    );
  }

  /**
   * A staff member's day, as the page's users have it: sign in with their account (the sandbox's own OpenID provider), read the
   * column guide, fill in the template in a spreadsheet and upload it, read what is wrong with each row, fix the file, read the
   * summary, submit, upload the same file again by mistake, find a new trainee in their list and open it, recommend a trainee from
   * the recommendations template, sign out. Every page at 1280 and 320 px ({@link accessible}).
   */
  async function walk(javaScript: boolean, recommended: { id: string; last: string }): Promise<void> {
    const downloads = join(dir, javaScript ? 'on' : 'off');
    // The files the person writes, apart from the downloads (`download` empties that folder of CSV files first).
    const files = join(dir, javaScript ? 'on-files' : 'off-files');
    await mkdir(files, { recursive: true });
    const { page, refused } = await tab(javaScript, downloads);
    await page.goto(`${api.baseUrl}/uploads`);
    expect(await heading(page)).toBe('Sign in to add trainees from a file');
    // The inline script ran under the page's policy with JavaScript on, and not at all without.
    const bodyClass = await page.$eval('body', (b) => b.className);
    expect(bodyClass.includes('js-enabled govuk-frontend-supported')).toBe(javaScript);
    await accessible(page, javaScript);

    // The sandbox's token sign-in refuses a wrong token with an error summary, focused when scripts run.
    await page.type('#token', 'sandbox_wrong');
    expect((await clickAndWait(page, 'form[action="/uploads/sign-in"] button'))?.status()).toBe(401);
    expect(await errorSummaryLinks(page)).toEqual([
      { href: '#token', text: 'Enter a valid API token: this one is not active, or has expired' },
    ]);
    expect(await page.title()).toMatch(/^Error: /);
    if (javaScript)
      expect(
        await page.evaluate(
          () => (globalThis as unknown as { document: { activeElement: { className: string } | null } }).document.activeElement?.className,
        ),
      ).toMatch(/govuk-error-summary/);
    await accessible(page, javaScript);

    // A person's sign-in: to the identity provider and back.
    await clickAndWait(page, 'a[href="/uploads/sign-in"]');
    expect(await heading(page)).toBe('Sandbox sign-in');
    await accessible(page, javaScript);
    await typeInto(page, '#name', 'Ada Quillfeather');
    await typeInto(page, '#ukprn', A);
    await page.select('#role', 'uploader');
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('form button[type=submit]')]);
    for (let i = 0; i < 50 && (await heading(page)) !== 'Add trainees from a CSV file'; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await heading(page)).toBe('Add trainees from a CSV file');
    expect(await page.$eval('#signed-in-provider', (p) => (p.textContent ?? '').replace(/\s+/g, ' ').trim())).toBe(
      `Signed in for Provider ${A} (UKPRN ${A})`,
    );
    await accessible(page, javaScript);

    // The column guide, and a long code list of it.
    await clickAndWait(page, 'a[href="/uploads/columns"]');
    await accessible(page, javaScript);
    await page.goto(`${api.baseUrl}/uploads/columns/degree_subject`);
    await accessible(page, javaScript);
    await page.goto(`${api.baseUrl}/uploads`);
    const template = await download(page, downloads, 'Download the CSV template');
    expect(template.trimEnd().split(',')).toEqual(addTraineeColumns(V));

    // The file as a spreadsheet saves it, and other mistakes people make.
    const rows = traineeRows(V, 4);
    const mistaken = [
      spreadsheetRoundTrip(rows[0]),
      { ...rows[1], sex: 'Female', email: 'not an address' },
      { ...rows[2], fund_code: '7', funding_method: 'E' },
      { ...rows[3], first_names: '' },
    ];
    await writeFile(join(files, 'with-mistakes.csv'), csvFile(V, mistaken));
    await uploadFile(page, join(files, 'with-mistakes.csv'));
    expect(await settled(page)).toBe('Fix the errors in your file');
    const zeros = (label: string, typed: string, code: string) =>
      `${label} ${typed} is not a code: a spreadsheet may have removed its leading zeros. Enter ${code} and format the column as text so the zeros stay`;
    const dayFirst = (label: string, example: string, iso: string) =>
      `Enter ${label} in the format YYYY-MM-DD, for example ${example}: a spreadsheet may have changed ${iso} to ${iso.split('-').reverse().join('/')}`;
    const first = spreadsheetRoundTrip(rows[0]);
    expect(await summaryCards(page)).toEqual([
      {
        title: 'Row 2',
        rows: expect.arrayContaining([
          ['Date of birth Column: date_of_birth', dayFirst('date of birth', '1998-04-27', rows[0].date_of_birth)],
          ['ITT start date Column: itt_start_date', dayFirst('ITT start date', '2025-08-01', rows[0].itt_start_date)],
          ['Degree grade Column: degree_grade', zeros('Degree grade', first.degree_grade, rows[0].degree_grade + ` (${GRADE_02})`)],
          [
            'Statistics agency ID Column: statsagency_id',
            `Statistics agency ID ${first.statsagency_id} is too short: a spreadsheet may have removed its leading zeros. ` +
              'Enter all 13 or 17 characters and format the column as text so the zeros stay',
          ],
          [
            'Graduation year Column: degree_graduation_year',
            `Enter graduation year in the format YYYY, like 2003: a spreadsheet may have changed ${rows[0].degree_graduation_year} ` +
              `to ${first.degree_graduation_year}`,
          ],
        ]),
      },
      {
        title: 'Row 3',
        rows: [
          ['Sex Column: sex', 'Enter sex as a code, not its name: 10 for Female'],
          ['Email address Column: email', 'Enter email address in the correct format, like name@example.com'],
        ],
      },
      {
        title: 'Row 4',
        rows: [
          [
            'Funding method Column: funding_method',
            'Funding method E (Grant) is not available for training route 11 (Primary and Secondary Undergraduate Fee Funded) and ' +
              'course subject 1 100346 (Biology) in academic year 2025 to 2026. Check the funding method, training route and course subject 1',
          ],
        ],
      },
      { title: 'Row 5', rows: [['First names Column: first_names', 'Enter first names']] },
    ]);
    expect(await fileSummary(page)).toEqual([
      ['Will be added', 'None'],
      ['Already registered', 'None'],
      ['Has errors', '4 rows: rows 2 to 5'],
    ]);
    expect(await download(page, downloads, 'Download your file with its errors')).toMatch(/,errors\r\n/);
    await accessible(page, javaScript);

    // The fixed file: its summary names whom it adds.
    await writeFile(join(files, 'fixed.csv'), csvFile(V, rows));
    await uploadFile(page, join(files, 'fixed.csv'));
    expect(await settled(page)).toBe('4 trainees will be added');
    expect(await fileSummary(page)).toEqual([
      ['Will be added', '4 trainees: rows 2 to 5'],
      ['Already registered', 'None'],
      ['Has errors', 'None'],
    ]);
    await accessible(page, javaScript);
    await clickAndWait(page, 'form[action$="/submit"] button');
    expect(await settled(page)).toBe('Trainees added');
    await accessible(page, javaScript);
    const result = await fileSummary(page, '#result-rows');
    expect(result.map((r) => r[0])).toEqual(['Row 2', 'Row 3', 'Row 4', 'Row 5']);
    const ids = await download(page, downloads, 'Download the trainee ids');
    for (const [row, id] of result) expect(ids).toContain(`${row.slice(4)},${id},`);
    const uploadUrl = page.url();

    // The same file again: nothing to add, said once.
    await page.goto(`${api.baseUrl}/uploads`);
    await uploadFile(page, join(files, 'fixed.csv'));
    expect(await settled(page)).toBe('All 4 trainees in your file are already registered');
    expect(await fileSummary(page)).toEqual([
      ['Will be added', 'None'],
      ['Already registered', '4 trainees: rows 2 to 5'],
      ['Has errors', 'None'],
    ]);
    await accessible(page, javaScript);

    // The new trainees in the provider's list, found by name, and one opened.
    await clickAndWait(page, 'a.govuk-service-navigation__link[href="/uploads/trainees"]');
    expect(await heading(page)).toBe('Your trainees');
    await accessible(page, javaScript);
    await typeInto(page, '#search', rows[1].last_name);
    // The year their course starts in: an academic year runs from 1 August.
    const [startYear, startMonth] = rows[1].itt_start_date.split('-').map(Number);
    await page.select('#cycle', String(startMonth >= 8 ? startYear : startYear - 1));
    await clickAndWait(page, 'form[action="/uploads/trainees"] button');
    const found = await summaryCards(page);
    expect(found.map((c) => c.title)).toEqual([`${rows[1].first_names} ${rows[1].last_name}`]);
    expect(found[0].rows).toEqual([
      ['Provider trainee ID', rows[1].provider_trainee_id],
      ['Status', expect.any(String)],
      ['TRN', 'Not yet'],
    ]);
    await accessible(page, javaScript);
    await clickAndWait(page, `a[href="/uploads/trainees/${result[1][1]}"]`);
    expect(await heading(page)).toBe(`${rows[1].first_names} ${rows[1].last_name}`);
    await accessible(page, javaScript);

    // A recommendation from the provider's recommendations template.
    await clickAndWait(page, 'a.govuk-service-navigation__link[href="/uploads/recommendations"]');
    expect(await heading(page)).toBe('Recommend trainees for QTS or EYTS');
    await accessible(page, javaScript);
    const lines = (await download(page, downloads, 'Download your recommendations template')).trimEnd().split('\r\n');
    const dated = lines.map((l, i) => (i > 0 && l.startsWith(`${recommended.id},`) ? `${l}2026-07-20` : l));
    expect(dated.filter((l) => l.endsWith('2026-07-20'))).toHaveLength(1);
    await writeFile(join(files, 'recommendations.csv'), `${dated.join('\r\n')}\r\n`);
    await uploadFile(page, join(files, 'recommendations.csv'), '/uploads/recommendations/files');
    expect(await settled(page)).toBe('1 trainee will be recommended');
    await accessible(page, javaScript);
    await clickAndWait(page, 'form[action$="/submit"] button');
    expect(await settled(page)).toBe('Trainees recommended');
    await accessible(page, javaScript);

    // Signing out ends the session: an upload's page now asks to sign in.
    await clickAndWait(page, 'form[action="/uploads/sign-out"] button');
    expect(await heading(page)).toBe('Sign in to add trainees from a file');
    await page.goto(uploadUrl);
    expect(await heading(page)).toBe('Sign in to add trainees from a file');
    expect(refused).toEqual([]);
    await page.browserContext().close();
  }

  it(
    'walks a staff member through a day’s work with JavaScript on: every page free of WCAG 2.2 AA violations at 1280 and 320 px',
    () => walk(true, recommendable[0]),
    300_000,
  );

  it('walks the same way with JavaScript off', () => walk(false, recommendable[1]), 300_000);

  it('answers a list request out of bounds with an error summary', async () => {
    const { page } = await tab(true, join(dir, 'bounds'));
    await page.goto(`${api.baseUrl}/uploads`);
    await page.type('#token', token);
    await clickAndWait(page, 'form[action="/uploads/sign-in"] button');
    await page.goto(`${api.baseUrl}/uploads/trainees?page=0`);
    expect(await errorSummaryLinks(page)).toEqual([{ href: '#results', text: 'Page must be a whole number from 1 to 10,000' }]);
    await accessible(page);
    await page.browserContext().close();
  }, 120_000);

  it('refuses a form posted without its CSRF token with a 403 page', async () => {
    const { page } = await tab(true, join(dir, 'csrf'));
    await page.goto(`${api.baseUrl}/uploads`);
    await page.type('#token', token);
    await clickAndWait(page, 'form[action="/uploads/sign-in"] button');
    await page.$eval('form[action="/uploads/files"] input[name=csrf_token]', (input) => input.remove());
    await writeFile(join(dir, 'one.csv'), csvFile(V, traineeRows(V, 1)));
    expect((await uploadFile(page, join(dir, 'one.csv')))?.status()).toBe(403);
    expect(await heading(page)).toBe('Your form could not be sent');
    await accessible(page);
    await page.goto(`${api.baseUrl}/uploads/files/no-such-upload`);
    expect(await heading(page)).toBe('Page not found');
    await accessible(page);
    await page.browserContext().close();
  }, 120_000);
});
