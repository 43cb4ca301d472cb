/**
 * Screenshots of each step of the uploads page into docs/uploads-page/ (`npm run screenshots`):
 * builds the service if needed, starts it on a temporary data dir with a provider and a token made
 * by the admin CLI, and walks the page in the system's Chromium (as the browser tests do) with a
 * file of made-up trainees, one row wrong then fixed, then the same file again (already registered), and the recommendations' start
 * page. The files are PNG, 1000 pixels wide.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { launchBrowser } from '../test/support/browser';
import { clickAndWait, settled, uploadFile } from '../test/support/page-walk';
import { csvFile, traineeRows } from '../test/support/upload-files';

const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'docs', 'uploads-page');
const UKPRN = '10000481';
const V = 'v2026.1';
const PORT = 3481;

/** Runs the built admin CLI on `dataDir`; returns its stdout. */
function admin(dataDir: string, args: string[]): string {
  return execFileSync(process.execPath, [join(ROOT, 'dist/apps/admin/src/main.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, APP_ENV: 'sandbox', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
}

/** Waits until the API answers `/healthz`. */
async function healthy(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the API did not start');
}

/** Saves the whole page as `docs/uploads-page/<name>.png`. */
async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUT, `${name}.png`) as `${string}.png`, fullPage: true });
  console.log(`docs/uploads-page/${name}.png`);
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-if-needed.js')], { cwd: ROOT, stdio: 'inherit' });
  mkdirSync(OUT, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'uploads-page-screenshots-'));
  admin(dataDir, ['provider', 'add', '--ukprn', UKPRN, '--name', 'Example University']);
  const token = admin(dataDir, ['token', 'issue', '--ukprn', UKPRN]).trim().split('\n').pop()!;
  const api = spawn(process.execPath, [join(ROOT, 'dist/apps/api/src/main.js')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), APP_ENV: 'sandbox', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const url = `http://127.0.0.1:${PORT}`;
  const browser = await launchBrowser();
  try {
    await healthy(url);
    const page = await browser.newPage();
    await page.setViewport({ width: 1000, height: 700 });
    await page.goto(`${url}/uploads`);
    await shot(page, '01-sign-in');
    await page.type('#token', token);
    await clickAndWait(page, 'form[action="/uploads/sign-in"] button');
    await shot(page, '02-start');

    const rows = traineeRows(V, 3);
    const files = mkdtempSync(join(tmpdir(), 'uploads-page-files-'));
    writeFileSync(join(files, 'header-only.csv'), csvFile(V, []));
    await uploadFile(page, join(files, 'header-only.csv'));
    await shot(page, '03-file-refused');
    writeFileSync(
      join(files, 'trainees.csv'),
      csvFile(
        V,
        rows.map((r, i) => (i === 1 ? { ...r, sex: '77' } : r)),
      ),
    );
    await uploadFile(page, join(files, 'trainees.csv'));
    await settled(page);
    await shot(page, '04-errors');
    writeFileSync(join(files, 'trainees.csv'), csvFile(V, rows));
    await uploadFile(page, join(files, 'trainees.csv'));
    await settled(page);
    await shot(page, '05-ready-to-submit');
    await clickAndWait(page, 'form[action$="/submit"] button');
    await settled(page);
    await shot(page, '06-trainees-added');
    await page.goto(`${url}/uploads`);
    await uploadFile(page, join(files, 'trainees.csv'));
    await settled(page);
    await shot(page, '07-already-registered');
    await page.goto(`${url}/uploads/recommendations`);
    await shot(page, '08-recommendations');
    rmSync(files, { recursive: true, force: true });
  } finally {
    await browser.close();
    api.kill('SIGTERM');
    await new Promise((r) => api.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
