// Lints snippets of code as if they stood at given paths of the tree, with the project's own
// ESLint configuration: reads [{filePath, code}] as JSON on stdin, writes [[ruleId, message], ...]
// per snippet as JSON on stdout. Used by boundaries.spec.ts (ESLint loads its configuration as an
// ES module, which a CommonJS test cannot).
import { ESLint } from 'eslint';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const snippets = JSON.parse(Buffer.concat(chunks).toString('utf8'));
const eslint = new ESLint({ cwd: process.cwd() });
const out = [];
for (const { filePath, code } of snippets) {
  const [result] = await eslint.lintText(code, { filePath });
  out.push(result.messages.map((m) => [m.ruleId, m.message]));
}
process.stdout.write(JSON.stringify(out));
