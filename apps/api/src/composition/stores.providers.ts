import type { Provider } from '@nestjs/common';
import type { Logger } from 'pino';
import { KeyedLock, EVENT_STORE, STORED_LOG } from '@app/event-sourcing';
import { keyedGuardNames, TRAINEE_WRITE_PORTS, type TraineeWritePorts } from '@app/trainees/write';
import {
  APP_CONFIG,
  cursorCodecOf,
  deriveKey,
  personalDataOptions,
  messageFirst,
  serviceKeyOf,
  type AppConfig,
  type ProcessMetrics,
} from '@app/runtime/process';
import { openStores, READ_STORE_CHECK_WAIT_MS, type Stores } from '@app/composition';
import { DIGEST_TREE_STORE } from '@app/audit';
import { CHANGE_FEED, CURSOR_CODEC } from '@app/changes';
import { IDEMPOTENCY_STORE } from '@app/runtime/idempotency';
import { PAGE_SESSION_STORE } from '@app/runtime/page-sessions';
import { PROVIDER_READ_MODEL } from '@app/providers/read';
import { SCHOOL_DIRECTORY } from '@app/schools';
import { AS_OF_SCAN, TIMELINE_SOURCE, TRAINEE_READ_MODEL, type TimelineSource } from '@app/trainees/read';
import { newResourceId } from './ids';
import { ClaimRelease } from './claim-release';
import { Projections } from './projections';
import { LOGGER, METRICS, SERVICE_KEY, STORES } from './tokens';

/**
 * The API's ports, each under its injection token (docs/DESIGN.md "The shared kernel"):
 * the stores the configuration names (SQLite in `DATA_DIR` by default; EventStoreDB and MongoDB
 * when their URLs are set; `StoreUnavailable` when one cannot be reached), the event store, the
 * log as stored, the trainee and provider read models, the schools directory, the idempotency keys and the uploads page's sessions
 * (beside the read models: MongoDB when set, else SQLite in `DATA_DIR`), the change feed's cursors (keyed by the
 * service key), the projections, and the write path's ports ({@link TRAINEE_WRITE_PORTS}).
 */
export function storeProviders(): Provider[] {
  const from = <T>(token: symbol, pick: (s: Stores) => T): Provider => ({ provide: token, useFactory: pick, inject: [STORES] });
  return [
    {
      provide: STORES,
      useFactory: async (config: AppConfig, logger: Logger, metrics: ProcessMetrics | null, serviceKey: Buffer) => {
        // In-process on the embedded stores, the projector runs in a thread of this process, the one
        // writer of the log and the read models (docs/DESIGN.md "The projection thread").
        const projectionThread = config.projector === 'in-process' ? { logger: messageFirst(logger) } : null;
        const stores = await openStores(config, {
          metrics: metrics?.metrics,
          logger,
          projectionThread,
          personalData: personalDataOptions(config, serviceKey, newResourceId),
          hashChain: config.hashChain,
          // A damaged embedded read store is moved aside and built afresh (docs/operations.md "Health").
          readStoreCheck: { waitMs: READ_STORE_CHECK_WAIT_MS },
        });
        const projector = stores.projectionThread ? 'thread' : config.projector;
        logger.info({ backends: stores.backends, projector }, 'stores open');
        return stores;
      },
      inject: [APP_CONFIG, LOGGER, METRICS, SERVICE_KEY],
    },
    from(EVENT_STORE, (s) => s.eventStore),
    from(STORED_LOG, (s) => s.storedLog),
    // A trainee's history reads the log as stored and opens what it read (docs/operations.md "Trainee history").
    from(TIMELINE_SOURCE, (s): TimelineSource => ({ storedLog: s.storedLog, openStored: (events) => s.openStored(events) })),
    from(TRAINEE_READ_MODEL, (s) => s.readModel),
    from(CHANGE_FEED, (s) => s.readModel),
    from(PROVIDER_READ_MODEL, (s) => s.readModel),
    from(SCHOOL_DIRECTORY, (s) => s.schools),
    {
      // A provider's streams folded to an instant on a thread of their own on the embedded log (docs/DESIGN.md
      // "A provider's trainees at an instant"); elsewhere in this thread, from the log as stored.
      provide: AS_OF_SCAN,
      useFactory: (stores: Stores) => stores.asOfScan(),
      inject: [STORES],
    },
    {
      // The latest signed digest's tree (docs/DESIGN.md "Inclusion proofs"), outside the projections.
      provide: DIGEST_TREE_STORE,
      useFactory: (stores: Stores) => stores.digestTrees(),
      inject: [STORES],
    },
    {
      provide: IDEMPOTENCY_STORE,
      useFactory: (stores: Stores) => stores.idempotencyStore(),
      inject: [STORES],
    },
    // The uploads page's sessions (docs/DESIGN.md "The uploads page"), beside the idempotency keys; the page closes it.
    from(PAGE_SESSION_STORE, (s) => s.pageSessionStore()),
    {
      // The service key (docs/operations.md "The service key"): the sandbox makes one on first start.
      provide: SERVICE_KEY,
      useFactory: (config: AppConfig, logger: Logger) => serviceKeyOf(config, logger),
      inject: [APP_CONFIG, LOGGER],
    },
    { provide: CURSOR_CODEC, useFactory: cursorCodecOf, inject: [SERVICE_KEY] },
    Projections,
    {
      provide: TRAINEE_WRITE_PORTS,
      useFactory: (stores: Stores, projections: Projections, serviceKey: Buffer): TraineeWritePorts => ({
        eventStore: stores.eventStore,
        trainees: stores.readModel,
        schools: stores.schools,
        projection: projections,
        locks: new KeyedLock(),
        clock: () => new Date(),
        newId: () => newResourceId(),
        newTraineeId: stores.personalData ? () => stores.personalData!.keys.newTraineeId() : async () => newResourceId(),
        reservations: reservationsOf(stores),
        guardNameOf: keyedGuardNames(deriveKey(serviceKey, 'registration-guards')),
      }),
      inject: [STORES, Projections, SERVICE_KEY],
    },
    ClaimRelease,
  ];
}

/** The key store's registration reservations: the API always opens its stores with personal data keys. */
function reservationsOf(stores: Stores): NonNullable<Stores['reservations']> {
  if (!stores.reservations) throw new Error('the stores were opened without a key store, which holds the registration reservations');
  return stores.reservations;
}
