/** Public surface of the EventStoreDB adapter (docs/DESIGN.md, "The event store port"): the store and its factory. */
export { EventStoreDbEventStore, type EventStoreDbEventStoreOptions } from './eventstoredb-event-store';
export { DEFAULT_MAX_CONCURRENT_APPENDS } from './client-calls';
export { assertEventStoreDbUrl, openEventStoreDb } from './open-eventstoredb';
export { PositionMappingError } from './positions';
