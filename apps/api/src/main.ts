import { ConfigError, loadConfig } from './shared/config';
import { createLogger } from './shared/logger';
import { createApp } from './create-app';
import { Infrastructure } from './infrastructure/infrastructure';
import { bootstrapSandbox } from './sandbox';

/**
 * Starts the API on the embedded default: `PORT` (3000), `DATA_DIR` (./data), `APP_ENV`
 * (sandbox), `LOG_LEVEL` (info). Exits non-zero with a clear message on a bad configuration.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  const app = await createApp(config, logger);
  await app.init();
  if (config.appEnv === 'sandbox') await bootstrapSandbox(app.get(Infrastructure), logger);
  await app.listen({ port: config.port, host: '0.0.0.0' });
  logger.info({ port: config.port, dataDir: config.dataDir, appEnv: config.appEnv }, 'trainee records API listening');
}

main().catch((err) => {
  process.stderr.write(`Failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
