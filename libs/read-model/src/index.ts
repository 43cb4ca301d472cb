export * from './read-model.port';
export * from './event-codec';
export * from './projector';
export * from './sqlite/sqlite-read-model';
export * from './projection-lag';
export * from './checkpoint-waiter';
export * from './mongodb/mongo-read-model';
export * from './schools';
