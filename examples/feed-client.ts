/**
 * Follows a provider's change feed and prints each change (docs/change-feed.md "Reading the feed"):
 * the shortest correct integration. TypeScript, no framework: `fetch`, a file for the cursor, and
 * the types made from the served OpenAPI document (`api-types.ts`).
 *
 *   BASE_URL=http://localhost:3000 TOKEN=<token> node --import tsx examples/feed-client.ts [--once]
 *
 * Environment: BASE_URL (default http://localhost:3000), TOKEN (required), API_VERSION (default
 * v2026.1), CURSOR_FILE (default ./feed-cursor.txt), POLL_MS (default 5000). `--once` stops when
 * the feed is caught up instead of polling for more.
 *
 * Each page is processed before its `next_cursor` is stored (atomically: a temporary file renamed
 * over the old one), so a crash repeats at most one page and loses nothing: make processing
 * idempotent (a change's `cursor` identifies it).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Change, ChangesPage, ListQueryErrors } from './api-types';

interface Settings {
  baseUrl: string;
  token: string;
  version: string;
  cursorFile: string;
  pollMs: number;
  once: boolean;
}

function settings(): Settings {
  const token = process.env.TOKEN;
  if (!token) throw new Error('TOKEN is required: an API token of the provider');
  return {
    baseUrl: (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/$/, ''),
    token,
    version: process.env.API_VERSION ?? 'v2026.1',
    cursorFile: process.env.CURSOR_FILE ?? 'feed-cursor.txt',
    pollMs: Number(process.env.POLL_MS ?? 5000),
    once: process.argv.includes('--once'),
  };
}

/** The stored cursor, or undefined to start at the first change. */
function loadCursor(file: string): string | undefined {
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || undefined : undefined;
}

function saveCursor(file: string, cursor: string): void {
  writeFileSync(`${file}.tmp`, `${cursor}\n`);
  renameSync(`${file}.tmp`, file);
}

/** What the client does with one change: here, one line on stdout. */
function handle(change: Change): void {
  const item = change.placement_id ? ` placement ${change.placement_id}` : change.degree_id ? ` degree ${change.degree_id}` : '';
  process.stdout.write(
    `${change.occurred_at} ${change.trainee_id} ${change.type}${item} [${change.changed_fields.join(', ')}] state=${change.state}` +
      ` trn=${change.trn ?? '-'}\n`,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One page after `cursor`; retries 429 and 5xx answers and network errors with back-off, throws on anything else. */
async function page(s: Settings, cursor: string | undefined): Promise<ChangesPage> {
  const url = `${s.baseUrl}/api/${s.version}/changes?limit=100${cursor ? `&after=${encodeURIComponent(cursor)}` : ''}`;
  for (let wait = 1000; ; wait = Math.min(wait * 2, 60_000)) {
    let res: Response;
    try {
      res = await fetch(url, { headers: { authorization: `Bearer ${s.token}`, accept: 'application/json' } });
    } catch (err) {
      process.stderr.write(`network error (${String(err)}); retrying in ${wait} ms\n`);
      await sleep(wait);
      continue;
    }
    if (res.ok) return (await res.json()) as ChangesPage;
    if (res.status === 429 || res.status >= 500) {
      process.stderr.write(`answered ${res.status}; retrying in ${wait} ms\n`);
      await sleep(wait);
      continue;
    }
    const body = await res.text();
    if (res.status === 422)
      throw new Error(`the feed refused the request: ${JSON.stringify((JSON.parse(body) as ListQueryErrors).errors)}`);
    throw new Error(`GET ${url} answered ${res.status}: ${body.slice(0, 300)}`);
  }
}

async function main(): Promise<void> {
  const s = settings();
  let cursor = loadCursor(s.cursorFile);
  for (;;) {
    const { data, next_cursor, has_more } = await page(s, cursor);
    for (const change of data) handle(change);
    if (next_cursor !== cursor) saveCursor(s.cursorFile, next_cursor);
    cursor = next_cursor;
    if (has_more) continue;
    if (s.once) return;
    await sleep(s.pollMs);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
