import { createReadStream, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Logger } from 'pino';
import { PROVIDER_STREAM_PREFIX } from '@app/providers/decider';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { ProviderOperations } from '@app/providers/write';
import { EVENT_STORE, type EventStore } from '@app/event-sourcing';
import { APP_CONFIG, type AppConfig } from '@app/runtime/process';
import { importSchoolsCsv, SCHOOL_DIRECTORY, type SchoolDirectory } from '@app/schools';
import { PROVIDER_READ_MODEL, type ProviderReadModel } from '@app/providers/read';
import { Projections } from './composition/projections';

/** The demo provider registered in an empty sandbox. */
export const DEMO_PROVIDER = { ukprn: '10000001', name: 'Demo Teacher Training Provider' };

/**
 * In `APP_ENV=sandbox`: loads the sample schools into an empty schools directory; with no provider
 * registered yet, registers the demo provider, issues a token and prints it once on stdout, so a new
 * user can call the API at once.
 */
export async function bootstrapSandbox(app: NestFastifyApplication, logger: Logger): Promise<void> {
  const eventStore = app.get<EventStore>(EVENT_STORE);
  const config = app.get<AppConfig>(APP_CONFIG);
  await loadSampleSchools(app.get<SchoolDirectory>(SCHOOL_DIRECTORY), logger);
  const anyProvider = await eventStore.readAll({ maxCount: 1, filter: { streamPrefixes: [PROVIDER_STREAM_PREFIX] } });
  if (anyProvider.length > 0) return;
  const providers = new ProviderOperations(eventStore, app.get<ProviderReadModel>(PROVIDER_READ_MODEL));
  await providers.addProvider(DEMO_PROVIDER.ukprn, DEMO_PROVIDER.name);
  const issued = await providers.issueToken(DEMO_PROVIDER.ukprn, 'sandbox');
  await app.get(Projections).catchUp();
  logger.info({ ukprn: DEMO_PROVIDER.ukprn, token_id: issued.token_id }, 'sandbox: demo provider registered');
  process.stdout.write(
    `\nSandbox demo provider ${DEMO_PROVIDER.ukprn} (${DEMO_PROVIDER.name}). Its API token, shown once:\n\n  ${issued.token}\n\n` +
      `Try: curl -H "Authorization: Bearer ${issued.token}" http://localhost:${config.port}/api/v2025.0/info\n\n`,
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
async function loadSampleSchools(schools: SchoolDirectory, logger: Logger): Promise<void> {
  if ((await schools.count()) > 0) return;
  const file = sampleSchoolsFile();
  if (!file) return;
  const result = await importSchoolsCsv(createReadStream(file), schools);
  logger.info({ file, ...result }, 'sandbox: sample schools loaded');
}
