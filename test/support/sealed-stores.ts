import { openStores, type Stores } from '@app/composition';
import { Projector } from '@app/runtime/projector';
import { loadServiceKey, personalDataOptions } from '@app/runtime/process';

/**
 * Opens the embedded stores of `dataDir` as the admin CLI does (personal data sealed with the
 * sandbox's service key of that directory), brings the read models up to date, runs `fn`, brings
 * them up to date again and closes the stores.
 */
export async function withSealedStores<T>(dataDir: string, fn: (stores: Stores) => Promise<T>): Promise<T> {
  const key = loadServiceKey({ dataDir, dataKeyFile: null }).key;
  const stores = await openStores(
    { dataDir, eventStoreUrl: null, mongodbUrl: null },
    { personalData: personalDataOptions({ sealPersonalData: true }, key) },
  );
  const projector = new Projector(stores.eventStore, stores.readModel, { error: () => undefined, warn: () => undefined });
  try {
    await projector.catchUp();
    const result = await fn(stores);
    await projector.catchUp();
    return result;
  } finally {
    await stores.close();
  }
}
