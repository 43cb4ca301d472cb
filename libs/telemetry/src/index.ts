export * from './metric-catalogue';
export * from './metrics';
export * from './metrics-server';
export * from './instrument-event-store';
export * from './instrument-registry';
export * from './observe-projections';
export * from './tracing';
