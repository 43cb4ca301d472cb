import { ProviderOperations } from '@app/providers/write';
import { openStores, setLockWait, storeConfigOf, type Stores } from '@app/composition';
import { Projector } from '@app/runtime/projector';
import { KeyringFile } from '@app/keys';
import { ConfigError, loadServiceKey, personalDataOptions, type ServiceKey, type ServiceKeyring } from '@app/runtime/process';
import { BusyWait, busyWaitOf } from './busy-stores';

/** Bad file, bad argument: exit 1. */
export class CliError extends Error {}

/** What every admin command gets: the environment and a way to open the configured stores. */
export interface CliContext {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  /** The prefix of issued tokens. */
  environment: string;
  /**
   * Opens the configured stores, catches the read models up, runs `fn`, catches up again (a running API sees the change at once),
   * closes. `catchUp: false` skips projecting unless a damaged read store was replaced; `checkReadModels` checks the embedded one
   * whole first. A busy SQLite store is waited for (`BusyWait`), then `StoreBusy`; opening and catching up are safe to rerun, `fn` only
   * with `rerun: true` (the caller says why).
   */
  withStores<T>(
    fn: (stores: Stores, ops: ProviderOperations) => Promise<T>,
    options?: { catchUp?: boolean; rerun?: boolean; checkReadModels?: boolean },
  ): Promise<T>;
  /**
   * As the API reads it (docs/operations.md "The service key"); {@link CliError} in production without `DATA_KEY_FILE`, or for no keyring.
   */
  serviceKey(): ServiceKeyring;
  serviceKeyFile(): ServiceKey;
  /** For `keys rotate` and `keys retire`; its lock waited for `ADMIN_BUSY_WAIT_MS` in all. Throws as {@link serviceKey}. */
  keyringFile(): KeyringFile;
}

export function cliContext(env: NodeJS.ProcessEnv): CliContext {
  const dataDir = env.DATA_DIR || './data';
  const dataKeyFile = env.DATA_KEY_FILE?.trim() || null;
  const serviceKeyFile = (): ServiceKey => {
    if (env.APP_ENV === 'production' && dataKeyFile === null) {
      throw new CliError('DATA_KEY_FILE: required in production, the file holding the service key the API and the projector use');
    }
    try {
      return loadServiceKey({ dataDir, dataKeyFile });
    } catch (err) {
      if (err instanceof ConfigError) throw new CliError(err.message);
      throw err;
    }
  };
  const serviceKey = (): ServiceKeyring => serviceKeyFile().keyring;
  const busy = new BusyWait(busyWaitOf(env), dataDir, setLockWait);
  return {
    env,
    dataDir,
    environment: env.APP_ENV === 'production' ? 'production' : 'sandbox',
    serviceKey,
    serviceKeyFile,
    keyringFile: () => new KeyringFile(serviceKeyFile().file, { waitMs: busyWaitOf(env) }),
    async withStores(fn, options = {}) {
      const run = () => withOpenStores(fn, options, options.rerun ? (op) => op() : (op) => busy.once(op));
      return options.rerun ? busy.again(run) : run();
    },
  };

  /** One run, `fn` through `runFn`. */
  async function withOpenStores<T>(
    fn: (stores: Stores, ops: ProviderOperations) => Promise<T>,
    options: { catchUp?: boolean; checkReadModels?: boolean },
    runFn: (op: () => Promise<T>) => Promise<T>,
  ): Promise<T> {
    // Sealed and opened with the service key's keys, read again as the API does.
    const stores = await busy.again(() =>
      openStores(storeConfigOf(env), {
        personalData: personalDataOptions({ sealPersonalData: true, dataDir, dataKeyFile }, serviceKey()),
        readStoreCheck: options.checkReadModels ? { waitMs: Infinity } : null,
      }),
    );
    const catchUp = (options.catchUp ?? true) || stores.movedAside !== null;
    const projector = new Projector(stores.eventStore, stores.readModel, {
      error: (m, c) => process.stderr.write(`${m} ${JSON.stringify(c ?? {})}\n`),
      warn: (m, c) => process.stderr.write(`${m} ${JSON.stringify(c ?? {})}\n`),
    });
    try {
      if (catchUp) await busy.again(() => projector.catchUp());
      const result = await runFn(() => fn(stores, new ProviderOperations(stores.eventStore, stores.readModel)));
      if (catchUp) await busy.again(() => projector.catchUp());
      return result;
    } finally {
      await stores.close();
    }
  }
}
