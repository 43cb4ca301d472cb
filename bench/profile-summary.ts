/**
 * Prints the summary of one or more V8 CPU profiles: top functions by self time and self time per
 * package or source file.
 *
 *   node --import tsx bench/profile-summary.ts bench/results/profiles/<file>.cpuprofile [--top 30]
 */
import { formatProfile, summariseProfile } from './lib/profile';

/** Parses the command line and prints each profile's summary. */
function main(argv: string[]): void {
  let top = 25;
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--top') top = Number(argv[++i]);
    else files.push(argv[i]);
  }
  if (files.length === 0) {
    process.stderr.write('usage: node --import tsx bench/profile-summary.ts <file.cpuprofile>... [--top N]\n');
    process.exit(2);
  }
  for (const file of files) process.stdout.write(`${formatProfile(summariseProfile(file, top))}\n\n`);
}

main(process.argv.slice(2));
