/**
 * The contract every {@link EventStore} adapter must pass (docs/DESIGN.md "The event store port":
 * the SQLite and EventStoreDB adapters pass the same contract suites).
 *
 * Written against the port only, so it also runs against a shared, non-empty server store: every
 * test uses streams and event types with a random suffix, and positions are compared with
 * `headPosition()` taken before the test, never with absolute numbers. Positions are only required
 * to be strictly increasing (EventStoreDB's commit positions have gaps).
 *
 * The suites, one file each: appends (event-store-appends.contract.ts), reads across streams
 * (event-store-reads.contract.ts), subscriptions (event-store-subscriptions.contract.ts), personal
 * data sealed by the codec (event-store-personal-data.contract.ts) and the hash chain of each
 * stream (event-store-chain.contract.ts).
 */
import type { EventStore } from '@app/event-sourcing';
import { describeEventStoreAppendsContract } from './event-store-appends.contract';
import { describeEventStoreChainContract } from './event-store-chain.contract';
import { describeEventStorePersonalDataContract } from './event-store-personal-data.contract';
import { describeEventStoreReadsContract } from './event-store-reads.contract';
import { describeEventStoreSubscriptionsContract } from './event-store-subscriptions.contract';

/** What a contract run needs from an adapter: a store, its cleanup, optionally a second client. */
export interface EventStoreContractContext {
  store: EventStore;
  /** Closes every store the factory and `openAnother` opened, and removes temporary data. */
  cleanup: () => Promise<void>;
  /** Opens another client of the same underlying store (another connection), if the adapter can. */
  openAnother?: () => Promise<EventStore>;
}

/** What an adapter's backend guarantees beyond the port's minimum. */
export interface EventStoreCapabilities {
  /**
   * Event ids are unique across the whole store, so re-using one in another stream is refused
   * (SQLite). EventStoreDB keeps ids unique per stream only.
   */
  eventIdsUniqueAcrossStreams: boolean;
  /** The store has `appendToStreams`, all-or-nothing over several streams (SQLite; EventStoreDB has no multi-stream transactions). */
  atomicMultiStreamAppend?: boolean;
  /** The store has `readStreamsByPrefix`, whole streams in stream-id order (SQLite). */
  streamsByPrefix?: boolean;
}

/**
 * Registers the contract suites for one adapter with what its backend guarantees (`capabilities`).
 * `factory` is called before each test and its `cleanup` after it. Source: docs/DESIGN.md, "The
 * event store port" and the port's docs.
 */
export function describeEventStoreContract(
  name: string,
  factory: () => Promise<EventStoreContractContext>,
  capabilities: EventStoreCapabilities = { eventIdsUniqueAcrossStreams: true },
): void {
  describeEventStoreAppendsContract(name, factory, capabilities);
  describeEventStoreReadsContract(name, factory, capabilities);
  describeEventStoreSubscriptionsContract(name, factory);
  describeEventStorePersonalDataContract(name, factory);
  describeEventStoreChainContract(name, factory, capabilities);
}
