export {
  checkLiteralTarget,
  checkTargetPort,
  checkWebhookTarget,
  guardedLookup,
  WebhookTargetRefused,
  type AddressPolicy,
} from './address-guard';
export { WebhookOperations, disableWebhookEndpoint } from './webhook-operations';
export { SEALED_SECRET_PREFIX, SealedSecrets, SecretNotOpened, SecretNotSealed } from './sealed-secrets';
