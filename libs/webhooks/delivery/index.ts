export { WebhookDispatcher, type DispatcherLogger } from './webhook-dispatcher';
export { messageIdOf } from './endpoint-deliveries';
export type { NewWebhookDelivery, WebhookAttempt, WebhookDelivery, WebhookEndpointRecord, WebhookOutbox } from './webhook-outbox.port';
