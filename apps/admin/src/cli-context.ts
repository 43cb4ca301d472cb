import { ProviderOperations } from '@app/providers/write';
import { openStores, setLockWait, storeConfigOf, type Stores } from '@app/composition';
import { Projector } from '@app/runtime/projector';
import { KeyringFile } from '@app/keys';
import { ConfigError, loadServiceKey, personalDataOptions, type ServiceKey, type ServiceKeyring } from '@app/runtime/process';
import { BusyWait, busyWaitOf } from './busy-stores';

/** A command that cannot be carried out as asked (bad file, bad argument); exit code 1. */
export class CliError extends Error {}

/** What every admin command gets: the environment and a way to open the configured stores. */
export interface CliContext {
  env: NodeJS.ProcessEnv;
  dataDir: string;
  /** `sandbox` or `production`: the prefix of issued tokens. */
  environment: string;
  /**
   * Opens the stores (`DATA_DIR`, or `EVENTSTORE_URL` / `MONGODB_URL`), brings the read models up to
   * date, runs `fn`, brings them up to date again (so a running API sees the change at once) and
   * closes the stores. `catchUp: false` skips the projecting (for commands that only read the log),
   * unless a damaged read store was moved aside at the open: the fresh one is built first.
   * `checkReadModels`: the embedded read store is checked whole first (`quick_check`) and moved aside
   * when damaged, or refused (`StoreUnavailable`) while another process has it open.
   * A busy SQLite store is waited for, `ADMIN_BUSY_WAIT_MS` in all (`BusyWait`; docs/operations.md
   * "The admin CLI"), then `StoreBusy` is thrown, naming the store.
   * Opening the stores and bringing the read models up to date run again after a busy store
   * refused them: opening creates only what is missing, each in a transaction SQLite rolled back
   * whole when refused, and the projector's batches commit with their checkpoint or not at all, an
   * event applied twice being skipped by its revision. `rerun: true` says `fn` may run again from the
   * start too (the caller says why); else a busy store that refuses `fn` ends the command.
   */
  withStores<T>(
    fn: (stores: Stores, ops: ProviderOperations) => Promise<T>,
    options?: { catchUp?: boolean; rerun?: boolean; checkReadModels?: boolean },
  ): Promise<T>;
  /**
   * The service key, as the API and the projector read it (docs/operations.md "The service key"):
   * `DATA_KEY_FILE`, else in the sandbox `<DATA_DIR>/data-key` (made when missing). Throws
   * {@link CliError} in production without `DATA_KEY_FILE`, or for a file that is not a keyring.
   */
  serviceKey(): ServiceKeyring;
  /** The service keyring as {@link serviceKey} reads it, with the file it is kept in. */
  serviceKeyFile(): ServiceKey;
  /**
   * The keyring's file (`keys rotate`, `keys retire`), read as {@link serviceKey} reads it, whose
   * lock is waited for `ADMIN_BUSY_WAIT_MS` in all. Throws {@link CliError} as {@link serviceKey} does.
   */
  keyringFile(): KeyringFile;
}

/** The context of a CLI run on `env`. */
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

  /** One run of {@link CliContext.withStores}, `fn` run through `runFn`. */
  async function withOpenStores<T>(
    fn: (stores: Stores, ops: ProviderOperations) => Promise<T>,
    options: { catchUp?: boolean; checkReadModels?: boolean },
    runFn: (op: () => Promise<T>) => Promise<T>,
  ): Promise<T> {
    // Personal data is sealed and opened with the service key's keys, read again as the API does (docs/DESIGN.md "Personal data").
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
