/** Public surface of the EventStoreDB adapter (docs/DESIGN.md, "The event store port"): the store and its factory. */
export { DEFAULT_MAX_CONCURRENT_APPENDS, EventStoreDbEventStore, type EventStoreDbEventStoreOptions } from './eventstoredb-event-store';
export { assertEventStoreDbUrl, openEventStoreDb } from './open-eventstoredb';
export { PositionMappingError } from './positions';
