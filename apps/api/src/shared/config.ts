import { cleanEnv, port, str, EnvError, EnvMissingError } from 'envalid';

/** Service configuration (DESIGN.md "Configuration"), validated once at start. */
export interface AppConfig {
  port: number;
  dataDir: string;
  appEnv: 'sandbox' | 'production';
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  eventStoreUrl: string | null;
  mongodbUrl: string | null;
}

/** Raised when the environment holds an invalid or unsupported setting; the message says which. */
export class ConfigError extends Error {}

/**
 * Reads and validates the environment. Throws {@link ConfigError} naming every bad variable.
 * EventStoreDB and MongoDB are selected by `EVENTSTORE_URL` / `MONGODB_URL`; their adapters are
 * not part of this build yet, so setting either is refused rather than silently ignored.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const clean = cleanEnv(
    env,
    {
      PORT: port({ default: 3000, desc: 'HTTP port' }),
      DATA_DIR: str({ default: './data', desc: 'directory of the embedded SQLite files' }),
      APP_ENV: str({ choices: ['sandbox', 'production'], default: 'sandbox' }),
      LOG_LEVEL: str({ choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], default: 'info' }),
      EVENTSTORE_URL: str({ default: '' }),
      MONGODB_URL: str({ default: '' }),
    },
    {
      reporter: ({ errors }) => {
        for (const [name, err] of Object.entries(errors)) {
          const e = err as EnvError | EnvMissingError;
          problems.push(`${name}: ${e.message}`);
        }
      },
    },
  );
  if (clean.EVENTSTORE_URL) {
    if (!/^esdb(\+discover)?:\/\//.test(clean.EVENTSTORE_URL)) {
      problems.push(`EVENTSTORE_URL: must be an esdb:// connection string, got '${clean.EVENTSTORE_URL}'`);
    } else {
      problems.push('EVENTSTORE_URL: the EventStoreDB adapter is not available in this build; unset it to use the embedded SQLite store');
    }
  }
  if (clean.MONGODB_URL) {
    if (!/^mongodb(\+srv)?:\/\//.test(clean.MONGODB_URL)) {
      problems.push(`MONGODB_URL: must be a mongodb:// connection string, got '${clean.MONGODB_URL}'`);
    } else {
      problems.push('MONGODB_URL: the MongoDB adapter is not available in this build; unset it to use the embedded SQLite read models');
    }
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return {
    port: clean.PORT,
    dataDir: clean.DATA_DIR,
    appEnv: clean.APP_ENV as AppConfig['appEnv'],
    logLevel: clean.LOG_LEVEL as AppConfig['logLevel'],
    eventStoreUrl: clean.EVENTSTORE_URL || null,
    mongodbUrl: clean.MONGODB_URL || null,
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
