export * from './read-model.port';
export * from './event-codec';
export * from './projector';
export * from './sqlite/sqlite-read-model';
