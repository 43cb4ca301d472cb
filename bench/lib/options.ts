/**
 * The benchmark's command line (bench/run.ts): the options of a run, their defaults, and the
 * parser that refuses a bad flag with the usage.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { FLOOD_SCENARIO } from './flood';
import { CENSUS_SCENARIO } from './census';
import { METRICS_SCENARIO } from './metrics-overhead';
import { CHAIN_SCENARIO, SEALING_SCENARIO } from './switch-cost';
import { STREAM_LENGTH_SCENARIO } from './stream-length';
import { SWAP_SCENARIO } from './swap';
import { BACKUP_SCENARIO } from './backup';
import { UPLOAD_SCENARIO } from './upload';
import { UPLOAD_BURST_SCENARIO } from './upload-burst';
import { ROTATE_SCENARIO } from './rotation';

/** The scenarios `--only` may name (besides `none`). */
export const SCENARIO_NAMES = [
  'get',
  'list',
  'list_filtered',
  'create',
  'patch',
  'sync',
  'feed',
  STREAM_LENGTH_SCENARIO,
  FLOOD_SCENARIO,
  METRICS_SCENARIO,
  SWAP_SCENARIO,
  BACKUP_SCENARIO,
  UPLOAD_SCENARIO,
  UPLOAD_BURST_SCENARIO,
  ROTATE_SCENARIO,
  SEALING_SCENARIO,
  CHAIN_SCENARIO,
  CENSUS_SCENARIO,
];

/** Command-line options of the harness. */
export interface BenchOptions {
  trainees: number;
  providers: number;
  duration: number;
  connections: number;
  warmup: number;
  /** Service and ceiling runs alternate this many times per scenario (each `duration / rounds` long). */
  rounds: number;
  soak: number;
  only: string[] | null;
  cpuProf: boolean;
  label: string | null;
  jsonOnly: boolean;
  /** A results file to compare this run with (bench/lib/compare.ts), or null. */
  compare: string | null;
  save: boolean;
  keepData: boolean;
  seed: number;
  /** Data dir to load into and keep, or to reuse when it holds a data set of an earlier run. */
  dataDir: string | null;
}

/** Parses `argv` (without node and the script); exits 2 with a message on a bad flag. */
export function parseArgs(argv: string[]): BenchOptions {
  const o: BenchOptions = {
    trainees: 100_000,
    providers: 25,
    duration: 10,
    connections: 32,
    warmup: 2,
    rounds: 2,
    soak: 0,
    only: null,
    cpuProf: false,
    label: null,
    jsonOnly: false,
    compare: null,
    save: true,
    keepData: false,
    seed: 7,
    dataDir: null,
  };
  const fail = (message: string): never => {
    process.stderr.write(
      `${message}\nusage: npm run bench -- [--trainees N] [--providers N] [--duration s] [--connections N] [--warmup s] [--rounds N] [--soak min] [--only a,b] [--cpu-prof] [--label name] [--json-only] [--compare results.json] [--no-save] [--keep-data] [--data-dir dir] [--seed N]\n`,
    );
    process.exit(2);
  };
  const num = (flag: string, value: string | undefined, min: number): number => {
    const n = Number(value);
    if (value === undefined || !Number.isFinite(n) || n < min) fail(`${flag} needs a number ≥ ${min}, got ${value ?? 'nothing'}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    switch (flag) {
      case '--trainees':
        o.trainees = Math.floor(num(flag, argv[++i], 10));
        break;
      case '--providers':
        o.providers = Math.floor(num(flag, argv[++i], 1));
        break;
      case '--duration':
        o.duration = num(flag, argv[++i], 1);
        break;
      case '--connections':
        o.connections = Math.floor(num(flag, argv[++i], 1));
        break;
      case '--warmup':
        o.warmup = num(flag, argv[++i], 0);
        break;
      case '--rounds':
        o.rounds = Math.floor(num(flag, argv[++i], 1));
        break;
      case '--soak':
        o.soak = num(flag, argv[++i], 0);
        break;
      case '--seed':
        o.seed = Math.floor(num(flag, argv[++i], 0));
        break;
      case '--only': {
        const names = (argv[++i] ?? '')
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const unknown = names.filter((n) => n !== 'none' && !SCENARIO_NAMES.includes(n));
        if (unknown.length > 0) fail(`--only: unknown scenario ${unknown.join(', ')} (known: ${SCENARIO_NAMES.join(', ')}, none)`);
        o.only = names;
        break;
      }
      case '--label': {
        const label = argv[++i] ?? '';
        if (!/^[\w.-]+$/.test(label)) fail('--label needs letters, digits, dots, dashes or underscores');
        o.label = label;
        break;
      }
      case '--cpu-prof':
        o.cpuProf = true;
        break;
      case '--compare': {
        const file = argv[++i] ?? '';
        if (!existsSync(file)) fail(`--compare needs a results file, got ${JSON.stringify(file)}`);
        o.compare = file;
        break;
      }
      case '--json-only':
        o.jsonOnly = true;
        break;
      case '--no-save':
        o.save = false;
        break;
      case '--keep-data':
        o.keepData = true;
        break;
      case '--data-dir': {
        const dir = argv[++i];
        if (!dir) fail('--data-dir needs a directory');
        o.dataDir = resolve(dir!);
        o.keepData = true;
        break;
      }
      default:
        fail(`unknown flag ${flag}`);
    }
  }
  return o;
}
