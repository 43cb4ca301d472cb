/**
 * How a runbook page is read (docs/runbooks/README.md): commands, their outcomes, and the runner's
 * comments; and the package's scripts run without npm as npm runs them.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { npmScriptsFunction, outcomePattern, readRunbook, type PackageScripts } from './runbook';

const PAGE = `# A page

<!-- runbook: skip needs Docker -->
\`\`\`sh
docker compose up
\`\`\`

<!-- runbook: background api until /listening/ -->
\`\`\`sh
npm start
\`\`\`
<!-- runbook: capture token /(sandbox_\\w+)/ -->

\`\`\`sh
curl -s -H "Authorization: Bearer <token>" \\\\
  http://localhost:3000/api/v2025.0/info     # the token printed above
# {"status":"ok",…}
npm run --silent admin -- keys retire 1
# exit 1
# … refused …

echo done
\`\`\`

\`\`\`json
{"not": "a command"}
\`\`\`
`;

describe('reading a runbook', () => {
  const blocks = readRunbook(PAGE);

  it('reads each sh block, with what the comments around it say', () => {
    expect(blocks.map((b) => ({ line: b.line, skip: b.skip, background: b.background?.name ?? null }))).toEqual([
      { line: 4, skip: 'needs Docker', background: null },
      { line: 9, skip: null, background: 'api' },
      { line: 14, skip: null, background: null },
    ]);
    expect(blocks[1].captures).toEqual([{ name: 'token', pattern: /(sandbox_\w+)/ }]);
  });

  it('joins continued lines into one command, and gives each its outcome lines and exit code', () => {
    expect(blocks[2].commands).toEqual([
      {
        text: 'curl -s -H "Authorization: Bearer <token>" \\\\\n  http://localhost:3000/api/v2025.0/info     # the token printed above',
        expected: ['{"status":"ok",…}'],
        exit: 0,
        line: 15,
      },
      { text: 'npm run --silent admin -- keys retire 1', expected: ['… refused …'], exit: 1, line: 18 },
      { text: 'echo done', expected: [], exit: 0, line: 22 },
    ]);
  });

  it('reads an outcome line with … as any text and spaces as any run of spaces', () => {
    expect(outcomePattern('Version … is current.').test('Version 3 is current.')).toBe(true);
    expect(outcomePattern('{"a": 1,…}').test('{"a":   1,"b":2}')).toBe(true);
    expect(outcomePattern('Version … is current.').test('Version 3 is not current')).toBe(false);
  });

  it('refuses a runner comment it cannot read, naming its line', () => {
    expect(() => readRunbook('```sh\nls\n```\n<!-- runbook: capture token sandbox -->\n', 'page.md')).toThrow(/^page\.md:4: /);
  });
});

describe('the package scripts run without npm', () => {
  const pkg: PackageScripts = {
    name: 'a-package',
    version: '1.2.3',
    scripts: {
      prehello: 'echo before "$0"',
      hello: 'echo hello',
      posthello: 'echo after',
      fails: 'echo failing; exit 3',
      prebroken: 'exit 4',
      broken: 'echo never',
      tool: 'tool-on-path',
      start: 'echo started',
    },
  };
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'npm-scripts-'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg));
    execFileSync('mkdir', ['-p', join(dir, 'node_modules', '.bin')]);
    writeFileSync(join(dir, 'node_modules', '.bin', 'tool-on-path'), '#!/bin/sh\necho the tool "$@"\n', { mode: 0o755 });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** `command` run by bash in the package's directory, with the function or with npm itself. */
  function run(command: string, withFunction: boolean): { status: number | null; stdout: string } {
    const script = withFunction ? `${npmScriptsFunction(pkg)}\n${command}` : command;
    const done = spawnSync('bash', ['--noprofile', '--norc', '-c', script], { cwd: dir, encoding: 'utf8' });
    return { status: done.status, stdout: done.stdout };
  }

  it.each([
    'npm run hello',
    'npm run --silent hello',
    "npm run --silent hello -- one 'two words'",
    'npm run hello -- one two',
    'npm start',
    'npm run fails',
    'npm run -s fails',
    'npm run --silent broken',
    'npm run --silent tool -- x',
  ])('`%s` prints and exits as npm does', (command) => {
    expect(run(command, true)).toEqual(run(command, false));
  });

  it('runs the pre and post scripts around the script, and stops at the first that fails', () => {
    expect(run('npm run --silent hello', true)).toEqual({ status: 0, stdout: 'before sh\nhello\nafter\n' });
    expect(run('npm run --silent broken', true)).toEqual({ status: 4, stdout: '' });
  });
});
