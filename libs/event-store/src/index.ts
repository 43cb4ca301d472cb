/** Public surface of the event store library: the port (docs/DESIGN.md), its adapters and helpers. */
export * from './event-store.port';
export * from './sqlite/sqlite-event-store';
export { StreamScan } from './sqlite/stream-scan';
export * from './command-runner';
export * from './event-ids';
