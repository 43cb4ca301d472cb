/**
 * Prints the Markdown tables of one or more results files (`bench/results/<date>.json`), as pasted
 * into BENCHMARKS.md:
 *
 *   node --import tsx bench/markdown.ts bench/results/<date>-<label>.json [more.json …]
 */
import { readFileSync } from 'node:fs';
import { formatMarkdown, type BenchResults } from './lib/report';

/** Prints each file's Markdown, separated by a blank line. */
function main(files: string[]): void {
  if (files.length === 0) {
    process.stderr.write('usage: node --import tsx bench/markdown.ts <results.json>...\n');
    process.exit(2);
  }
  for (const file of files) {
    const results = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
    process.stdout.write(`${formatMarkdown(results)}\n\n`);
  }
}

main(process.argv.slice(2));
