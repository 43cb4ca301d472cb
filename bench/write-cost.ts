/**
 * `node --import tsx bench/write-cost.ts <results.json> <scenario> <profile>...`: the cost of one
 * request of `scenario`, µs per step and thread (bench/lib/write-cost.ts), from the API's profiles
 * of a bench run with `--cpu-prof` (bench/results/profiles/) and the results file of a run without
 * it (its CPU per request). `--skip s` leaves out the first seconds of each profile (the
 * API's start; default 2). Prints a Markdown table.
 */
import { readFileSync } from 'node:fs';
import type { BenchResults } from './lib/report';
import { costRows, stepsOf } from './lib/write-cost';

const args = process.argv.slice(2);
const skipAt = args.indexOf('--skip');
const skipS = skipAt >= 0 ? Number(args.splice(skipAt, 2)[1]) : 2;
const [resultsFile, scenarioName, ...profiles] = args;
if (!resultsFile || !scenarioName || profiles.length === 0 || !(skipS >= 0)) {
  process.stderr.write('usage: node --import tsx bench/write-cost.ts <results.json> <scenario> <profile>... [--skip s]\n');
  process.exit(2);
}
const text = readFileSync(resultsFile, 'utf8');
const results = JSON.parse(text.slice(text.indexOf('{'))) as BenchResults;
const scenario = results.scenarios.find((s) => s.name === scenarioName);
if (!scenario?.apiCpu) {
  process.stderr.write(`${resultsFile} has no CPU per request of scenario ${scenarioName}\n`);
  process.exit(2);
}
const rows = costRows(
  profiles.map((p) => stepsOf(p, skipS * 1000)),
  scenario.apiCpu.mainUs,
);
const out = [`| thread | step | µs per request |`, `|---|---|---:|`];
const others = [...new Set(rows.map((r) => r.thread))].filter((t) => !['main', 'projection', 'log writer'].includes(t)).sort();
for (const thread of ['main', 'projection', 'log writer', ...others]) {
  const own = rows.filter((r) => r.thread === thread);
  for (const r of own) if (r.us >= 0.5) out.push(`| ${r.thread} | ${r.step} | ${r.us.toFixed(0)} |`);
  if (own.length > 0) out.push(`| ${thread} | **busy in all** | **${own.reduce((a, r) => a + r.us, 0).toFixed(0)}** |`);
}
out.push(
  `| (from /proc) | CPU of the main thread + of the other threads | ${scenario.apiCpu.mainUs.toFixed(0)} + ${scenario.apiCpu.otherUs.toFixed(0)} |`,
);
process.stdout.write(`${out.join('\n')}\n`);
