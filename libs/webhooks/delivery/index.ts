export { WebhookDispatcher, messageIdOf, type DispatcherLogger } from './webhook-dispatcher';
export type { NewWebhookDelivery, WebhookAttempt, WebhookDelivery, WebhookEndpointRecord, WebhookOutbox } from './webhook-outbox.port';
