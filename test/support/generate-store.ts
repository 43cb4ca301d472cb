/**
 * Generates an embedded event store of realistic trainee histories for measurements
 * (`projections rebuild`, history replay): `node --import tsx test/support/generate-store.ts
 * --dir <DATA_DIR> --trainees <n> [--changes <k>]`. Each trainee has 4 + k events.
 */
import { SqliteEventStore } from '@app/stores/sqlite';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { writeHistories } from './history-generator';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const arg = (name: string, fallback?: string) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : fallback;
  };
  const dir = arg('dir');
  if (!dir) throw new Error('--dir <DATA_DIR> is required');
  const trainees = Number(arg('trainees', '65000'));
  const changes = Number(arg('changes', '4'));
  mkdirSync(dir, { recursive: true });
  const store = new SqliteEventStore({ filename: join(dir, 'events.sqlite'), synchronous: 'normal' });
  const started = Date.now();
  const chunk = 5000;
  for (let done = 0; done < trainees; done += chunk) {
    await writeHistories(store, {
      trainees: Math.min(chunk, trainees - done),
      changesEach: changes,
      onePerTrainee: true,
      prefix: `S${done / chunk}-`,
    });
    process.stderr.write(`${Math.min(done + chunk, trainees)} trainees\r`);
  }
  const head = await store.headPosition();
  await store.close();
  process.stdout.write(`\n${head} events for ${trainees} trainees in ${((Date.now() - started) / 1000).toFixed(0)} s in ${dir}\n`);
}

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
