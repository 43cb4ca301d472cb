import { execFile, spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';

/** The names a Chromium is installed under, looked for on PATH in this order (`CHROMIUM` names another). */
const CANDIDATES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

/**
 * A headless Chromium to render a page with: `CHROMIUM` when set, else the first of
 * {@link CANDIDATES} on PATH that answers `--version`; or, when there is none, why not (for the
 * skipped test's title).
 */
export function findChromium(): { command: string } | { reason: string } {
  const named = process.env.CHROMIUM?.trim();
  for (const command of named ? [named] : CANDIDATES) {
    const probe = spawnSync(command, ['--version'], { stdio: 'ignore', timeout: 20_000 });
    if (probe.error === undefined && probe.status === 0) return { command };
  }
  return {
    reason: named
      ? `CHROMIUM=${named} does not run`
      : `no Chromium on PATH (looked for ${CANDIDATES.join(', ')}; CHROMIUM names another; on Debian: apt-get install chromium)`,
  };
}

/**
 * The DOM Chromium builds of the HTML file at `file`, serialized (`--dump-dom`), headless, with
 * no network of its own to use (the page is read from disk).
 */
export function renderedDom(command: string, file: string): Promise<string> {
  const args = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--dump-dom', pathToFileURL(file).href];
  return new Promise((resolve, reject) =>
    execFile(command, args, { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
  );
}
