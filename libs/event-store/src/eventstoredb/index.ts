/** Public surface of the EventStoreDB adapter (docs/DESIGN.md, "The event store port"): the store and its factory. */
export {
  assertEventStoreDbUrl,
  DEFAULT_MAX_CONCURRENT_APPENDS,
  EventStoreDbEventStore,
  openEventStoreDb,
  type EventStoreDbEventStoreOptions,
} from './eventstoredb-event-store';
export { PositionMappingError } from './positions';
