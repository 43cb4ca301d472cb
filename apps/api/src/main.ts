import './tracing';
import { ConfigError, exitOnSignal, keepNewFilesPrivate, loadConfig } from '@app/runtime/process';
import { createLogger } from './observability/logger';
import { createApp } from './create-app';
import { bootstrapSandbox } from './sandbox';
import { StoreUnavailable } from '@app/composition';

/**
 * Starts the API on the embedded default: `PORT` (3000), `DATA_DIR` (./data), `APP_ENV`
 * (sandbox), `LOG_LEVEL` (info). Every file it makes is 0600 (umask 077). Exits non-zero with a
 * clear message on a bad configuration.
 */
async function main(): Promise<void> {
  keepNewFilesPrivate();
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
  if (config.appEnv === 'sandbox') await bootstrapSandbox(app, logger);
  await app.listen({ port: config.port, host: config.host });
  exitOnSignal(app, logger);
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  logger.info({ host: config.host, port, dataDir: config.dataDir, appEnv: config.appEnv }, 'trainee records API listening');
}

main().catch((err) => {
  // A store that cannot be reached, or a key file that cannot be read, is an operator's problem, not a bug: say so without a stack.
  const operators = err instanceof StoreUnavailable || err instanceof ConfigError;
  const detail = operators ? err.message : err instanceof Error ? err.stack : String(err);
  process.stderr.write(`Failed to start: ${detail}\n`);
  process.exit(err instanceof ConfigError ? 2 : 1);
});
