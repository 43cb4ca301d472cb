/**
 * The change between two benchmark runs (`npm run bench -- --compare <results.json>`, or
 * `node --import tsx bench/compare.ts <before.json> <after.json>`): per HTTP scenario the ratio to
 * the ceiling before → after and its change (×), since only ratios compare across runs on a shared
 * machine (BENCHMARKS.md); then the offline figures and the API start-up.
 */
import type { BenchResults } from './report';

const num = (n: number, digits = 0): string => n.toLocaleString('en-GB', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** `a → b (×c)`, or `a → –` / `– → b` where one side has no figure. */
function change(before: number | null | undefined, after: number | null | undefined, digits: number, unit = ''): string {
  const show = (n: number | null | undefined) => (n === null || n === undefined ? '–' : `${num(n, digits)}${unit}`);
  const factor = before && after ? ` (×${(after / before).toFixed(2)})` : '';
  return `${show(before)} → ${show(after)}${factor}`;
}

/** A plain-text table of the changes from `before` to `after`. */
export function formatComparison(before: BenchResults, after: BenchResults): string {
  const lines = [
    `before: ${before.date} ${before.code.commit}${before.label ? ` (${before.label})` : ''}; after: ${after.date} ${after.code.commit}${after.label ? ` (${after.label})` : ''}`,
    '',
    'ratio to the ceiling (req/s ÷ ceiling req/s, same run):',
  ];
  const names = [...new Set([...before.scenarios.map((s) => s.name), ...after.scenarios.map((s) => s.name)])];
  for (const name of names) {
    const b = before.scenarios.find((s) => s.name === name);
    const a = after.scenarios.find((s) => s.name === name);
    lines.push(`  ${name.padEnd(16)} ${change(b?.ratio, a?.ratio, 3)}   p99 ${change(b?.service.p99, a?.service.p99, 0, ' ms')}`);
  }
  const rebuild = (r: BenchResults) => r.rebuild?.blueGreen?.eventsPerSecond ?? r.rebuild?.eventsPerSecond;
  lines.push(
    '',
    `projections rebuild trainees: ${change(rebuild(before), rebuild(after), 0, ' events/s')}`,
    `initial projection: ${change(before.rebuild?.eventsPerSecond, after.rebuild?.eventsPerSecond, 0, ' events/s')}`,
    `history replay (median): ${change(before.history.medianMs, after.history.medianMs, 2, ' ms')}`,
    `API start: ${change(before.apiStartSeconds, after.apiStartSeconds, 2, ' s')}`,
    `RSS peak: ${change(before.rss.peakMiB, after.rss.peakMiB, 0, ' MiB')}`,
  );
  if (before.soak || after.soak) lines.push(`soak RSS growth: ${change(before.soak?.growthPct, after.soak?.growthPct, 1, ' %')}`);
  return lines.join('\n');
}
