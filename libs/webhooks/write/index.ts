export { checkLiteralTarget, checkWebhookTarget, guardedLookup, WebhookTargetRefused, type AddressPolicy } from './address-guard';
export { WebhookOperations, disableWebhookEndpoint } from './webhook-operations';
