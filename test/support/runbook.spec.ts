/** How a runbook page is read (docs/runbooks/README.md): commands, their outcomes, and the runner's comments. */
import { outcomePattern, readRunbook } from './runbook';

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
