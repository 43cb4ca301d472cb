/**
 * Writes `examples/api-types.ts` from the OpenAPI document a running service serves:
 *
 *   node --import tsx examples/generate-types.ts [base-url] [version] [--check]
 *
 * (defaults `http://localhost:3000` and `v2026.1`; `npm run examples:types -- <base-url>`). With
 * `--check` it writes nothing and exits 1 when the file differs: the test suite runs it against the
 * document the code serves, so the file is rewritten whenever the feed's schemas change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { typesFromDocument } from './types-from-openapi';

async function main(): Promise<void> {
  const check = process.argv.includes('--check');
  const [base = 'http://localhost:3000', version = 'v2026.1'] = process.argv.slice(2).filter((a) => a !== '--check');
  const res = await fetch(`${base}/api/${version}/openapi.json`);
  if (!res.ok) throw new Error(`GET ${base}/api/${version}/openapi.json answered ${res.status}`);
  const source = await typesFromDocument((await res.json()) as Parameters<typeof typesFromDocument>[0]);
  const file = join(__dirname, 'api-types.ts');
  if (check) {
    if (readFileSync(file, 'utf8') === source) return void process.stdout.write('examples/api-types.ts is up to date\n');
    process.stderr.write(`examples/api-types.ts differs from ${base}/api/${version}/openapi.json: run npm run examples:types\n`);
    process.exit(1);
  }
  writeFileSync(file, source);
  process.stdout.write(`examples/api-types.ts written from ${base}/api/${version}/openapi.json\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
