export * from './provider-operations';
export * from './trainee-commands';
export * from './stores';
export * from './config';
export * from './process-signals';
export * from './registry';
export * from './history';
export * from './event-transfer';
