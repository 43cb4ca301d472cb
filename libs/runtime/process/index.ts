export { APP_CONFIG, ConfigError, loadConfig, parseWebhookPorts, redact, type AppConfig } from './config';
export { SANDBOX_PAGE_SIGN_IN, type PageSignInConfig } from './page-sign-in';
export { messageFirst, type ContextLogger } from './logging';
export { exitOnFatal, exitOnSignal } from './process-signals';
export { keepNewFilesPrivate } from './file-modes';
export { createRegistryProcess, processMetrics, type ProcessMetrics } from './telemetry';
export { createWebhookDispatcher, cursorCodecOf, sealedSecretsOf, webhookOperations, webhookPorts } from './webhooks';
export {
  deriveKey,
  currentKeysOf,
  keyringFileOf,
  loadServiceKey,
  personalDataOptions,
  KEYED_FILES,
  SANDBOX_KEY_FILE,
  serviceKeyOf,
  versionedKeys,
  type KeyPurpose,
  type ServiceKey,
  type ServiceKeyMaterial,
  type ServiceKeyring,
} from './service-key';
