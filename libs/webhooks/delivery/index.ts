export { WebhookDispatcher, type DispatcherLogger } from './webhook-dispatcher';
export { forgottenPayload, messageIdOf } from './endpoint-deliveries';
export type { NewWebhookDelivery, WebhookAttempt, WebhookDelivery, WebhookEndpointRecord, WebhookOutbox } from './webhook-outbox.port';
export { OUTBOX_RESET, outboxAheadOfLog, resetOutboxToLog, type OutboxReset } from './outbox-reset';
