export { EventStoreDbEventStore, type EventStoreDbEventStoreOptions } from './eventstoredb-event-store';
export { openEventStoreDb } from './open-eventstoredb';
