export { runCommand, type StreamSnapshot } from './command-runner';
export { DomainError } from './domain-error';
export { registerEventSchemas, toEventData, type StoredEvent, type WriteContext } from './envelope';
export { newEventId } from './event-ids';
export { PeriodicRun } from './periodic-run';
export { randomView } from './random-bytes';
export {
  EVENT_STORE,
  STORED_LOG,
  AppendTooLargeError,
  CheckpointAheadOfLog,
  EventStoreUnavailableError,
  expectationOf,
  earlierPosition,
  IdempotencyConflictError,
  LOG_START,
  laterPosition,
  logPosition,
  PermanentSubscriptionError,
  WrongExpectedVersionError,
  StreamChainBrokenError,
  StreamDeletedError,
  type AppendOptions,
  type AppendResult,
  type ChainLink,
  type EventData,
  type EventFilter,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type LogPosition,
  type ReadAllOptions,
  type ReadStreamOptions,
  type ReadStoredStreamsOptions,
  type ReadStreamsOptions,
  type RecordedEvent,
  type StoredEventText,
  type StoredLog,
  type StreamHead,
  type StreamWrite,
  type SubscribeOptions,
  type Subscription,
} from './event-store.port';
export {
  CHAIN_VERSION,
  chainEvent,
  chainHash,
  chainHashV2,
  chainHeadHash,
  chainKeysOf,
  chainLinkOf,
  readChainKeys,
  storedHash,
  eventHash,
  storedTextOf,
  streamHeadOf,
  withoutChainKeys,
  type ChainedEvent,
  type ChainKeys,
  type ChainVersion,
} from './hash-chain';
export { KeyedLock } from './keyed-lock';
export { decodeBatch, foldBatch, project, type OnApplied, type Projection, type ProjectionWaiter } from './projection';
export { STORAGE_FAULT_REASONS, storageFaultOf, type StorageFault } from './storage-fault';
export { registerUpcaster, upcast } from './upcasters';
export { checkStreamChain, IntactChain, type ChainFault, type StreamChainReport } from './chain-check';
