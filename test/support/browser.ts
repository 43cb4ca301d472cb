/**
 * A real browser for page tests: the system's Chromium (Debian's `chromium` package; `CHROMIUM`
 * names another), driven by `puppeteer-core`, which downloads no browser of its own, headless and
 * with a fresh empty profile; and `axe-core` run in a page, for the accessibility rules of WCAG 2.2
 * AA (the level UK public-sector services must meet).
 */
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import axe from 'axe-core';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { findChromium } from './headless-browser';

/**
 * The flags Chromium runs with: no sandbox (CI runs as root, where Chromium's sandbox refuses to
 * start), no GPU, and nothing that reaches the network on its own (no QUIC, first-run pages,
 * background requests, component updates or sync). Puppeteer adds `--headless` itself.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

/** The axe-core tags of WCAG 2.0, 2.1 and 2.2, levels A and AA. */
export const WCAG_22_AA_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;

/** One rule a page breaks: its id, impact, help text and the elements (CSS selectors) that break it. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** A running browser: pages to open, and `close`, which ends it and removes its profile. */
export interface TestBrowser {
  browser: Browser;
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

/** The absolute path of `command`: as given when it names a path, else its first executable file on PATH. */
function pathOf(command: string): string {
  if (isAbsolute(command)) return command;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = resolve(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return resolve(command);
}

/**
 * Starts Chromium headless with {@link CHROMIUM_FLAGS} and an empty profile of its own (a new
 * temporary `--user-data-dir`), talking over a pipe rather than a debugging port. Throws, naming the
 * fix, when no Chromium is installed: `.ci/run` installs Debian's.
 */
export async function launchBrowser(): Promise<TestBrowser> {
  const found = findChromium();
  if ('reason' in found) throw new Error(`Cannot run the browser tests: ${found.reason}`);
  const executablePath = pathOf(found.command);
  const userDataDir = await mkdtemp(join(tmpdir(), 'browser-test-profile-'));
  let browser: Browser;
  try {
    browser = await puppeteer.launch({
      executablePath,
      headless: true,
      pipe: true,
      userDataDir,
      args: [...CHROMIUM_FLAGS],
      timeout: 60_000,
    });
  } catch (error) {
    await rm(userDataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    browser,
    newPage: () => browser.newPage(),
    async close() {
      await browser.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The WCAG 2.2 AA rules (axe-core's {@link WCAG_22_AA_TAGS}) the page as it stands breaks, in
 * axe's order; empty when it breaks none. Injects axe-core's own source into the page, so the page
 * needs no network and no script of its own.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axe.source);
  const tags = [...WCAG_22_AA_TAGS];
  const results = await page.evaluate((runOnly) => {
    // Runs in the page: its globals, which this project's Node typings do not declare.
    const inPage = globalThis as unknown as { axe: typeof axe; document: axe.ElementContext };
    return inPage.axe.run(inPage.document, { runOnly: { type: 'tag', values: runOnly } });
  }, tags);
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? null,
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(' ')),
  }));
}
