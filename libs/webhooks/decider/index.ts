export {
  WEBHOOK_STREAM_PREFIX,
  WebhookCommandRejected,
  decideWebhookEndpoint,
  decodeWebhookEvent,
  evolveWebhookEndpoint,
  initialWebhookEndpointState,
  webhookStreamId,
  type WebhookCommand,
  type WebhookEndpointState,
  type WebhookEvent,
} from './webhook';
