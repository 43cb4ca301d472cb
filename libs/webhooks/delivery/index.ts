export { WebhookDispatcher, type DispatcherLogger } from './webhook-dispatcher';
export { forgottenPayload, messageIdOf } from './endpoint-deliveries';
export type { NewWebhookDelivery, WebhookAttempt, WebhookDelivery, WebhookEndpointRecord, WebhookOutbox } from './webhook-outbox.port';
