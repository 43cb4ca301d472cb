// Slow by design: two walks through the uploads page in headless Chromium, axe-core run on every page met.
/**
 * The uploads page in a real browser (the system's Chromium through puppeteer-core; the test fails,
 * naming the fix, when none is installed): sign in, download the template and the column guide,
 * upload a file with errors, read the error table, upload the fixed file, submit, read the result;
 * sign out; a form posted without its CSRF token; the provider's trainees and a trainee's page, wide
 * and narrow. Once with JavaScript and once without, through the same steps; axe-core finds no WCAG
 * 2.2 AA violation on any page met. One service for the file.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { addTraineeColumns } from '@app/uploads/write';
import { RunningApi } from '../support/api-harness';
import { axeViolations, launchBrowser, type TestBrowser } from '../support/browser';
import {
  clickAndWait,
  download,
  errorSummaryLinks,
  heading,
  overflowX,
  settled,
  summaryCards,
  tableRows,
  uploadFile,
} from '../support/page-walk';
import { uniqueTrainee } from '../support/trainee-input';
import { csvFile, traineeRows } from '../support/upload-files';

const A = '10000471';
const V = 'v2026.1';

describe('the uploads page in a browser', () => {
  let api: RunningApi;
  let token: string;
  let browser: TestBrowser;
  let dir: string;

  beforeAll(async () => {
    api = await RunningApi.start();
    token = await api.providerToken(A);
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
   * No WCAG 2.2 AA violation on the page as it stands. axe-core runs as a script in the page: on a
   * page read with JavaScript off, scripts are let run for the check only (the page's own scripts,
   * already passed over, do not run: the page checked is the one without JavaScript).
   */
  async function accessible(page: Page, javaScript = true): Promise<void> {
    if (!javaScript) await page.setJavaScriptEnabled(true);
    const violations = await axeViolations(page);
    if (!javaScript) await page.setJavaScriptEnabled(false);
    expect([await heading(page), violations]).toEqual([await heading(page), []]);
  }

  async function walk(javaScript: boolean): Promise<void> {
    const downloads = join(dir, javaScript ? 'on' : 'off');
    const { page, refused } = await tab(javaScript, downloads);
    await page.goto(`${api.baseUrl}/uploads`);
    expect(await heading(page)).toBe('Sign in to add trainees from a file');
    // The inline script ran under the page's policy with JavaScript on, and not at all without.
    const bodyClass = await page.$eval('body', (b) => b.className);
    expect(bodyClass.includes('js-enabled govuk-frontend-supported')).toBe(javaScript);
    await accessible(page, javaScript);

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

    await page.type('#token', token);
    await clickAndWait(page, 'form[action="/uploads/sign-in"] button');
    expect(await heading(page)).toBe('Add trainees from a CSV file');
    await accessible(page, javaScript);

    const template = await download(page, downloads, 'Download the CSV template');
    expect(template.trimEnd().split(',')).toEqual(addTraineeColumns(V));
    expect((await download(page, downloads, 'Download the column guide')).split('\r\n')[0]).toBe(
      'column,label,required,format,example,codes',
    );

    // A refused file: the error summary, linked to the field.
    await writeFile(join(downloads, 'header-only.csv'), template);
    expect((await uploadFile(page, join(downloads, 'header-only.csv')))?.status()).toBe(422);
    expect((await errorSummaryLinks(page)).map((l) => l.href)).toEqual(['#file']);
    await accessible(page, javaScript);

    const rows = traineeRows(V, 3);
    await writeFile(
      join(downloads, 'with-errors.csv'),
      csvFile(
        V,
        rows.map((r, i) => (i === 1 ? { ...r, sex: '77' } : r)),
      ),
    );
    await uploadFile(page, join(downloads, 'with-errors.csv'));
    await accessible(page, javaScript);
    expect(await settled(page)).toBe('Fix the errors in your file');
    expect(await summaryCards(page)).toEqual([
      {
        title: 'Row 3',
        rows: [
          [
            'Sex Column: sex',
            'Enter sex as one of the codes 10 (Female), 11 (Male), 12 (Other), 96 (Information refused) or 99 (Not available)',
          ],
        ],
      },
    ]);
    expect(await download(page, downloads, 'Download your file with its errors')).toMatch(/,errors\r\n/);
    await accessible(page, javaScript);

    await writeFile(join(downloads, 'fixed.csv'), csvFile(V, rows));
    await uploadFile(page, join(downloads, 'fixed.csv'));
    expect(await settled(page)).toBe('3 trainees will be added');
    await accessible(page, javaScript);

    await clickAndWait(page, 'form[action$="/submit"] button');
    await accessible(page, javaScript);
    expect(await settled(page)).toBe('Trainees added');
    await accessible(page, javaScript);
    const result = await tableRows(page, 'Trainee id of each row');
    expect(result.map((r) => r[0])).toEqual(['2', '3', '4']);
    const ids = await download(page, downloads, 'Download the trainee ids');
    for (const [row, id] of result) expect(ids).toContain(`${row},${id},`);
    const uploadUrl = page.url();

    // Signing out ends the session: the upload's page now asks to sign in.
    await clickAndWait(page, 'form[action="/uploads/sign-out"] button');
    expect(await heading(page)).toBe('Sign in to add trainees from a file');
    await page.goto(uploadUrl);
    expect(await heading(page)).toBe('Sign in to add trainees from a file');
    expect(refused).toEqual([]);
    await page.browserContext().close();
  }

  it(
    'walks through every step with JavaScript on: no page breaks WCAG 2.2 AA, nothing refused by the page policy',
    () => walk(true),
    240_000,
  );

  it('walks through the same steps with JavaScript off', () => walk(false), 240_000);

  it('shows the errors, the column guide and a long code list at 320 px wide with nothing to scroll sideways', async () => {
    const downloads = join(dir, 'narrow');
    const { page, refused } = await tab(true, downloads);
    await page.setViewport({ width: 320, height: 640 });
    await page.goto(`${api.baseUrl}/uploads`);
    await page.type('#token', token);
    await clickAndWait(page, 'form[action="/uploads/sign-in"] button');
    const bad = traineeRows(V, 2).map((r, i) =>
      i === 0 ? { ...r, date_of_birth: '27/04/1998', degree_institution: '124' } : { ...r, email: 'no', first_names: '' },
    );
    await writeFile(join(downloads, 'narrow.csv'), csvFile(V, bad));
    await uploadFile(page, join(downloads, 'narrow.csv'));
    expect(await settled(page)).toBe('Fix the errors in your file');
    expect((await summaryCards(page)).map((c) => [c.title, c.rows.length])).toEqual([
      ['Row 2', 2],
      ['Row 3', 2],
    ]);
    for (const path of ['', '/uploads/columns', '/uploads/columns/degree_subject']) {
      if (path) await page.goto(`${api.baseUrl}${path}`);
      expect([path, await overflowX(page)]).toEqual([path, 0]);
      await accessible(page);
    }
    expect(refused).toEqual([]);
    await page.browserContext().close();
  }, 120_000);

  it('shows a checked file’s summary, the trainees already registered and the recommendations page at 320 px wide', async () => {
    const downloads = join(dir, 'summary');
    const { page, refused } = await tab(false, downloads);
    await page.setViewport({ width: 320, height: 640 });
    await page.goto(`${api.baseUrl}/uploads`);
    await page.type('#token', token);
    await clickAndWait(page, 'form[action="/uploads/sign-in"] button');
    const rows = traineeRows(V, 2);
    await writeFile(join(downloads, 'first.csv'), csvFile(V, rows));
    await uploadFile(page, join(downloads, 'first.csv'));
    expect(await settled(page)).toBe('2 trainees will be added');
    await clickAndWait(page, 'form[action$="/submit"] button');
    expect(await settled(page)).toBe('Trainees added');

    const [extra] = traineeRows(V, 1);
    await writeFile(join(downloads, 'again.csv'), csvFile(V, [...rows, { ...extra, sex: '77' }]));
    await page.goto(`${api.baseUrl}/uploads`);
    await uploadFile(page, join(downloads, 'again.csv'));
    expect(await settled(page)).toBe('Fix the errors in your file');
    expect((await summaryCards(page)).map((c) => [c.title, c.rows.length])).toEqual([
      ['Row 4', 1],
      ['Already registered: 2 trainees', 2],
    ]);
    for (const path of ['', '/uploads/recommendations']) {
      if (path) await page.goto(`${api.baseUrl}${path}`);
      expect([path, await overflowX(page)]).toEqual([path, 0]);
      await accessible(page, false);
    }
    expect(refused).toEqual([]);
    await page.browserContext().close();
  }, 120_000);

  it("shows the provider's trainees and a trainee's page at 1280 and 320 px wide: nothing to scroll sideways, no WCAG 2.2 AA violation", async () => {
    const base = '/api/v2026.1/trainees';
    const ids: string[] = [];
    for (const i of [1, 2]) {
      const created = await api.request(
        'POST',
        base,
        token,
        uniqueTrainee(V, { last_name: `Featherstonehaugh-Wolstenholme${'ab'[i - 1]}` }),
      );
      expect(created.status).toBe(201);
      ids.push(created.body.data.trainee_id);
    }
    expect(
      (await api.request('POST', `${base}/${ids[0]}/defer`, token, { data: { defer_date: '2026-01-05', defer_reason: 'Health' } })).status,
    ).toBe(200);
    const { page, refused } = await tab(true, join(dir, 'trainees'));
    await page.goto(`${api.baseUrl}/uploads`);
    await page.type('#token', token);
    await clickAndWait(page, 'form[action="/uploads/sign-in"] button');
    await clickAndWait(page, 'a.govuk-service-navigation__link[href="/uploads/trainees"]');
    expect(await heading(page)).toBe('Your trainees');
    for (const width of [1280, 320]) {
      await page.setViewport({ width, height: 800 });
      await page.goto(`${api.baseUrl}/uploads/trainees?cycle=2025&search=featherstonehaugh`);
      expect((await summaryCards(page)).map((c) => c.rows.map(([key]) => key))).toEqual([
        ['Provider trainee ID', 'Status', 'TRN'],
        ['Provider trainee ID', 'Status', 'TRN'],
      ]);
      expect([width, await overflowX(page)]).toEqual([width, 0]);
      await accessible(page);
      await clickAndWait(page, `a[href="/uploads/trainees/${ids[0]}"]`);
      expect(await heading(page)).toMatch(/Featherstonehaugh-Wolstenholmea$/);
      expect([width, await overflowX(page)]).toEqual([width, 0]);
      await accessible(page);
    }
    await page.goto(`${api.baseUrl}/uploads/trainees?page=0`);
    expect(await errorSummaryLinks(page)).toEqual([{ href: '#results', text: 'Page must be a whole number from 1 to 10,000' }]);
    await accessible(page);
    expect(refused).toEqual([]);
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
