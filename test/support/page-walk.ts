/**
 * Steps of a browser through the uploads page (puppeteer-core over the system's Chromium): read a
 * page's heading, the error summary, tables and summary cards, how far it overflows sideways,
 * download a linked file, choose a file and post a form, and wait for an upload's page to leave its
 * progress state. Used by the browser tests and the screenshots script.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { HTTPResponse, Page } from 'puppeteer-core';

/** The page's first heading, trimmed. */
export function heading(page: Page): Promise<string> {
  return page.$eval('h1', (h) => (h.textContent ?? '').trim());
}

/** The error summary's links: where each points and its words. */
export function errorSummaryLinks(page: Page): Promise<{ href: string; text: string }[]> {
  return page.$$eval('.govuk-error-summary__list a', (links) =>
    links.map((a) => ({ href: a.getAttribute('href') ?? '', text: (a.textContent ?? '').trim() })),
  );
}

/** The body cells of the page's tables whose caption is `caption`, a row each. */
export function tableRows(page: Page, caption: string): Promise<string[][]> {
  return page.$$eval(
    'table',
    (tables, wanted) =>
      tables
        .filter((t) => (t.querySelector('caption')?.textContent ?? '').trim() === wanted)
        .flatMap((t) =>
          [...t.querySelectorAll('tbody tr')].map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
        ),
    caption,
  );
}

/** The page's GOV.UK summary cards: each card's title and its rows' keys and values, as the page reads. */
export function summaryCards(page: Page): Promise<{ title: string; rows: [string, string][] }[]> {
  return page.$$eval('.govuk-summary-card', (cards) =>
    cards.map((card) => ({
      title: (card.querySelector('.govuk-summary-card__title')?.textContent ?? '').trim(),
      rows: [...card.querySelectorAll('.govuk-summary-list__row')].map((row): [string, string] => [
        (row.querySelector('dt')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
        (row.querySelector('dd')?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      ]),
    })),
  );
}

/** How far the page reaches past the viewport's width, in CSS pixels: 0 when nothing needs a sideways scroll. */
export function overflowX(page: Page): Promise<number> {
  return page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document
      .documentElement;
    return Math.max(0, root.scrollWidth - root.clientWidth);
  });
}

/** Clicks `selector` and waits for the page it leads to; returns that page's answer. */
export async function clickAndWait(page: Page, selector: string): Promise<HTTPResponse | null> {
  const [response] = await Promise.all([page.waitForNavigation(), page.click(selector)]);
  return response;
}

/** Chooses `file` (a path) in the file input `#file` and posts its form (the add-trainees one unless `action` says). */
export async function uploadFile(page: Page, file: string, action = '/uploads/files'): Promise<HTTPResponse | null> {
  const [chooser] = await Promise.all([page.waitForFileChooser(), page.click('#file')]);
  await chooser.accept([file]);
  return clickAndWait(page, `form[action="${action}"] button[type=submit]`);
}

/**
 * Clicks the link whose text contains `text` and returns the text of the file it downloads into
 * `dir` (the page's browser context's download folder; the CSV files there are removed first).
 */
export async function download(page: Page, dir: string, text: string): Promise<string> {
  for (const name of await readdir(dir)) if (/\.csv(\.crdownload)?$/.test(name)) await rm(join(dir, name), { force: true });
  const links = await page.$$('a[download]');
  let clicked = false;
  for (const link of links) {
    if (((await link.evaluate((a) => a.textContent)) ?? '').includes(text)) {
      await link.click();
      clicked = true;
      break;
    }
  }
  if (!clicked) throw new Error(`no download link "${text}"`);
  for (let i = 0; i < 200; i++) {
    const done = (await readdir(dir)).filter((n) => !n.endsWith('.crdownload'));
    if (done.length > 0) return readFile(join(dir, done[0]), 'utf8');
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`"${text}" was not downloaded`);
}

/** Opens the upload's page until it is past "Checking your file" and writing its rows; returns its heading. */
export async function settled(page: Page): Promise<string> {
  const url = page.url();
  for (let i = 0; i < 300; i++) {
    const h1 = await heading(page);
    if (!['Checking your file', 'Adding trainees', 'Recommending trainees'].includes(h1)) return h1;
    await new Promise((r) => setTimeout(r, 100));
    await page.goto(url);
  }
  throw new Error(`${url} did not settle`);
}
