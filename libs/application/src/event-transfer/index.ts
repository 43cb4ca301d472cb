export * from './event-transfer';
