/**
 * The browser harness (test/support/browser.ts) proven on static pages marked up as GOV.UK
 * Frontend's components, served by a local HTTP server: Chromium starts headless, a form posts a
 * chosen file with JavaScript off, and axe-core finds no WCAG 2.2 AA violation on a good page and
 * names the ones a bad page has.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { axeViolations, launchBrowser, type TestBrowser } from '../support/browser';

/**
 * The few rules of GOV.UK Frontend's stylesheet that WCAG 2.2's target size (2.5.8) depends on: the
 * skip link hidden until focused, links and buttons at least 24 pixels high. The service's pages
 * load the stylesheet itself; these static pages stand without it.
 */
const STYLE = `.govuk-skip-link:not(:focus){position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}
.govuk-header__link,.govuk-footer__meta a{display:inline-block;min-height:24px;padding:4px 0}
.govuk-button{min-height:40px;padding:8px 10px}`;

const page = (title: string, main: string) => `<!DOCTYPE html>
<html lang="en" class="govuk-template">
<head><meta charset="utf-8"><title>${title}</title><meta name="viewport" content="width=device-width, initial-scale=1">
<style>${STYLE}</style></head>
<body class="govuk-template__body">
<a href="#main-content" class="govuk-skip-link">Skip to main content</a>
<header class="govuk-header"><div class="govuk-header__container govuk-width-container">
<a href="/" class="govuk-header__link govuk-header__link--homepage">GOV.UK</a></div></header>
<div class="govuk-width-container"><main class="govuk-main-wrapper" id="main-content">${main}</main></div>
<footer class="govuk-footer"><div class="govuk-width-container"><p class="govuk-footer__meta">Trainee records</p></div></footer>
</body></html>`;

const UPLOAD_PAGE = page(
  'Error: Add trainees from a CSV file',
  `<div class="govuk-error-summary" data-module="govuk-error-summary"><div role="alert">
<h2 class="govuk-error-summary__title">There is a problem</h2>
<div class="govuk-error-summary__body"><ul class="govuk-list govuk-error-summary__list">
<li><a href="#file">The selected file must be smaller than 1MB</a></li></ul></div></div></div>
<h1 class="govuk-heading-l">Add trainees from a CSV file</h1>
<form method="post" action="/upload" enctype="multipart/form-data" novalidate>
<div class="govuk-form-group govuk-form-group--error">
<label class="govuk-label" for="file">Upload a file</label>
<p id="file-error" class="govuk-error-message"><span class="govuk-visually-hidden">Error:</span> The selected file must be smaller than 1MB</p>
<input class="govuk-file-upload govuk-file-upload--error" id="file" name="file" type="file" accept=".csv" aria-describedby="file-error">
</div>
<button type="submit" class="govuk-button" data-module="govuk-button">Upload file</button>
</form>`,
);

const CHECKED_PAGE = page(
  'Check your file',
  `<h1 class="govuk-heading-l">1 trainee will be added</h1>
<table class="govuk-table"><caption class="govuk-table__caption govuk-table__caption--m">Rows</caption>
<thead class="govuk-table__head"><tr class="govuk-table__row"><th scope="col" class="govuk-table__header">Row</th>
<th scope="col" class="govuk-table__header">Result</th></tr></thead>
<tbody class="govuk-table__body"><tr class="govuk-table__row"><td class="govuk-table__cell">2</td>
<td class="govuk-table__cell">No errors</td></tr></tbody></table>`,
);

const BAD_PAGE = `<!DOCTYPE html><html><head><title>Bad</title></head><body>
<img src="/logo.png"><input type="text" name="surname"><a href="/next"></a></body></html>`;

describe('the browser harness', () => {
  let server: Server;
  let origin: string;
  let browser: TestBrowser;
  let dir: string;
  const posted: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const body: Buffer[] = [];
      req.on('data', (chunk: Buffer) => body.push(chunk));
      req.on('end', () => {
        if (req.method === 'POST') posted.push(Buffer.concat(body).toString('utf8'));
        const html = req.method === 'POST' ? CHECKED_PAGE : req.url === '/bad' ? BAD_PAGE : req.url === '/' ? UPLOAD_PAGE : null;
        res.writeHead(html === null ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' }).end(html ?? '');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    dir = await mkdtemp(join(tmpdir(), 'browser-harness-'));
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('posts a chosen file with JavaScript off and reads the page the server answers', async () => {
    const tab = await browser.newPage();
    await tab.setJavaScriptEnabled(false);
    await tab.goto(`${origin}/`);
    expect(await tab.$eval('.govuk-error-summary__list a', (a) => a.textContent)).toBe('The selected file must be smaller than 1MB');
    const file = join(dir, 'trainees.csv');
    await writeFile(file, 'provider_trainee_id,first_names\r\nP1,Jane\r\n');
    const [chooser] = await Promise.all([tab.waitForFileChooser(), tab.click('#file')]);
    await chooser.accept([file]);
    await Promise.all([tab.waitForNavigation(), tab.click('button[type=submit]')]);
    expect(await tab.$eval('h1', (h) => h.textContent)).toBe('1 trainee will be added');
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain('filename="trainees.csv"');
    expect(posted[0]).toContain('P1,Jane');
    await tab.close();
  }, 60_000);

  it('finds no WCAG 2.2 AA violation on pages marked up as GOV.UK Frontend components', async () => {
    const tab = await browser.newPage();
    await tab.goto(`${origin}/`);
    expect(await axeViolations(tab)).toEqual([]);
    await tab.setContent(CHECKED_PAGE);
    expect(await axeViolations(tab)).toEqual([]);
    await tab.close();
  }, 60_000);

  it('names the violations of a page that breaks the rules', async () => {
    const tab = await browser.newPage();
    await tab.goto(`${origin}/bad`);
    const ids = (await axeViolations(tab)).map((v) => v.id);
    expect(ids).toEqual(expect.arrayContaining(['html-has-lang', 'image-alt', 'label', 'link-name']));
    await tab.close();
  }, 60_000);
});
