export * from './provider-operations';
export * from './trainees';
export * from './keyed-lock';
export * from './registry';
export * from './history';
export * from './event-transfer';
export * from './tokens';
