export * from './provider-operations';
export * from './trainee-commands';
export * from './registry';
export * from './history';
export * from './event-transfer';
