import { createReadStream, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { PROVIDER_STREAM_PREFIX } from '@app/domain';
import { importSchoolsCsv } from '@app/read-model';
import type { Infrastructure } from './infrastructure/infrastructure';

/** The demo provider registered in an empty sandbox. */
export const DEMO_PROVIDER = { ukprn: '10000001', name: 'Demo Teacher Training Provider' };

/**
 * In `APP_ENV=sandbox`: loads the sample schools into an empty schools directory; with no provider
 * registered yet, registers the demo provider, issues a token and prints it once on stdout, so a new
 * user can call the API at once.
 */
export async function bootstrapSandbox(infra: Infrastructure, logger: Logger): Promise<void> {
  await loadSampleSchools(infra, logger);
  const anyProvider = await infra.eventStore.readAll({ maxCount: 1, filter: { streamPrefixes: [PROVIDER_STREAM_PREFIX] } });
  if (anyProvider.length > 0) return;
  await infra.providers.addProvider(DEMO_PROVIDER.ukprn, DEMO_PROVIDER.name);
  const issued = await infra.providers.issueToken(DEMO_PROVIDER.ukprn, 'sandbox');
  await infra.catchUp();
  logger.info({ ukprn: DEMO_PROVIDER.ukprn, token_id: issued.token_id }, 'sandbox: demo provider registered');
  process.stdout.write(
    `\nSandbox demo provider ${DEMO_PROVIDER.ukprn} (${DEMO_PROVIDER.name}). Its API token, shown once:\n\n  ${issued.token}\n\n` +
      `Try: curl -H "Authorization: Bearer ${issued.token}" http://localhost:${infra.config.port}/api/v2025.0/info\n\n`,
  );
}

/** `samples/schools.csv` of the repo (found upward from this file, so it works from src and dist). */
export function sampleSchoolsFile(): string | null {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    const candidate = join(dir, 'samples', 'schools.csv');
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Loads the sample schools into an empty schools directory, so sandbox placements can link to schools. */
async function loadSampleSchools(infra: Infrastructure, logger: Logger): Promise<void> {
  if ((await infra.schools.count()) > 0) return;
  const file = sampleSchoolsFile();
  if (!file) return;
  const result = await importSchoolsCsv(createReadStream(file), infra.schools);
  logger.info({ file, ...result }, 'sandbox: sample schools loaded');
}
