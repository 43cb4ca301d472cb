/**
 * The runbooks run (docs/runbooks/README.md): every `sh` block of README.md, docs/operations.md and
 * docs/runbooks/*.md is run as written, in order, each page on a fresh directory, and each
 * documented outcome is checked; a block is left out only with its reason written beside it. A
 * copy of a page with one step broken fails, naming the step. One page at a time: the pages name
 * the port the service listens on (3000). README.md's `npm` commands run npm itself; the other
 * pages' `npm start` and `npm run` run the package's scripts as npm does, without npm's start-up
 * (test/support/runbook.ts; its spec compares the two).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt, inheritedEnv, ROOT } from '../support/processes';
import { runRunbook, type PackageScripts, type RunbookRun } from '../support/runbook';

/** What a fresh working directory of a runbook holds of the project: what its commands use, linked. */
const LINKED = [
  'package.json',
  'package-lock.json',
  'node_modules',
  'dist',
  'scripts',
  'apps',
  'libs',
  'samples',
  'examples',
  'tsconfig.json',
  'tsconfig.build.json',
  'nest-cli.json',
];

const PAGES = [
  'README.md',
  join('docs', 'operations.md'),
  ...readdirSync(join(ROOT, 'docs', 'runbooks'))
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .map((f) => join('docs', 'runbooks', f)),
];

/** The page whose `npm` commands run npm itself: the first a newcomer follows. */
const THROUGH_NPM = 'README.md';

const PACKAGE: PackageScripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

/** Runs the runbook `file` (absolute, or relative to the project) in a fresh directory; what it did. */
async function run(file: string): Promise<RunbookRun> {
  const cwd = mkdtempSync(join(tmpdir(), 'runbook-'));
  for (const name of LINKED) symlinkSync(join(ROOT, name), join(cwd, name));
  try {
    return await runRunbook(file.startsWith('/') ? file : join(ROOT, file), {
      cwd,
      env: { ...(inheritedEnv() as Record<string, string>), RATE_LIMIT_IP_PER_MINUTE: '0', RATE_LIMIT_TOKEN_PER_MINUTE: '0' },
      packageScripts: file === THROUGH_NPM ? undefined : PACKAGE,
    });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}

describe('the runbooks, run as written', () => {
  const ran: { file: string; commands: number; skipped: number }[] = [];
  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(() => {
    const commands = ran.reduce((n, r) => n + r.commands, 0);
    process.stdout.write(
      `runbooks: ${commands} commands run in ${ran.length} pages, ${ran.reduce((n, r) => n + r.skipped, 0)} blocks left out with their reasons\n`,
    );
  });

  it.each(PAGES)(
    '%s does what it says',
    async (file) => {
      const result = await run(file);
      ran.push({ file, commands: result.commands, skipped: result.skipped.length });
      expect(result.failure).toBeNull();
      expect(result.commands).toBeGreaterThan(0);
    },
    300_000,
  );
});

describe('a runbook with one step broken', () => {
  it('fails, naming the step: a doc step that no longer works fails the suite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'runbook-broken-'));
    try {
      const text = readFileSync(join(ROOT, 'docs', 'runbooks', 'first-start.md'), 'utf8');
      const broken = text.replace('token revoke --token-id', 'token withdraw --token-id');
      expect(broken).not.toBe(text);
      const file = join(dir, 'first-start.md');
      writeFileSync(file, broken);
      const line = broken.split('\n').findIndex((l) => l.includes('token withdraw')) + 1;
      const result = await run(file);
      expect(result.failure).toMatch(new RegExp(`^${file}:${line}: \`npm run --silent admin -- token withdraw`));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
