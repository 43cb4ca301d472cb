/**
 * Prints the change between two results files (bench/lib/compare.ts):
 *
 *   node --import tsx bench/compare.ts bench/results/<before>.json bench/results/<after>.json
 */
import { readFileSync } from 'node:fs';
import { formatComparison } from './lib/compare';
import type { BenchResults } from './lib/report';

const [before, after] = process.argv.slice(2);
if (!before || !after) {
  process.stderr.write('usage: node --import tsx bench/compare.ts <before.json> <after.json>\n');
  process.exit(2);
}
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
process.stdout.write(`${formatComparison(read(before), read(after))}\n`);
