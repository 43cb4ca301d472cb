import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** The prefix of a sealed secret: the format, then base64url of IV, ciphertext and tag. */
export const SEALED_SECRET_PREFIX = 'sealed1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Authenticated with each sealed secret: a sealed value of another kind never opens as a secret. */
const AAD = Buffer.from('trainee-records/webhook-secret');

/** The event that holds an endpoint's secret (libs/webhooks/decider/webhook.ts). */
const ENDPOINT_ADDED = 'WebhookEndpointAdded';

function hasSecret(data: unknown): data is { secret: string } {
  return typeof data === 'object' && data !== null && typeof (data as { secret?: unknown }).secret === 'string';
}

/** A sealed secret that does not open with this key: sealed under another service key, or altered. */
export class SecretNotOpened extends Error {
  constructor() {
    super("an endpoint's signing secret was sealed with another service key (or altered) and cannot be opened with this one");
    this.name = 'SecretNotOpened';
  }
}

/**
 * Webhook signing secrets at rest (docs/change-feed.md "How deliveries are kept"): sealed with
 * AES-256-GCM (`node:crypto`, a random IV each) under the service key's `webhook-secrets` key, so
 * the event log, its exports, the outbox and their backups hold `sealed1.…`, never the secret. Only
 * the dispatcher opens one, to sign a delivery. Secrets stored before sealing (`whsec_…` in the
 * log) open as they are.
 */
export class SealedSecrets {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('a secret-sealing key is 32 bytes');
  }

  /** `secret` sealed: `sealed1.` and 62 or more base64url characters. */
  seal(secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv).setAAD(AAD);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return SEALED_SECRET_PREFIX + Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  }

  /** True when `stored` is a sealed secret (else a secret stored in plain text before sealing). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(SEALED_SECRET_PREFIX);
  }

  /** The secret `stored` holds: opened when sealed, as it is otherwise. Throws {@link SecretNotOpened} for one that does not open. */
  open(stored: string): string {
    if (!SealedSecrets.isSealed(stored)) return stored;
    const bytes = Buffer.from(stored.slice(SEALED_SECRET_PREFIX.length), 'base64url');
    if (bytes.length <= IV_BYTES + TAG_BYTES) throw new SecretNotOpened();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES }).setAAD(AAD);
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretNotOpened();
    }
  }

  /** `stored` sealed if it is not yet (a secret from before sealing), as it is otherwise. */
  sealIfPlain(stored: string): string {
    return SealedSecrets.isSealed(stored) ? stored : this.seal(stored);
  }

  /**
   * An event's data as an export carries it (`admin events export`): an endpoint's secret stored in
   * plain text before sealing is sealed; everything else as stored.
   */
  exported(type: string, data: unknown): unknown {
    if (type !== ENDPOINT_ADDED || !hasSecret(data)) return data;
    return { ...data, secret: this.sealIfPlain(data.secret) };
  }

  /**
   * Why an imported event cannot be taken by a store of this key (`admin events import`): an
   * endpoint's secret that does not open with it; null otherwise.
   */
  importRefusal(type: string, data: unknown): string | null {
    if (type !== ENDPOINT_ADDED || !hasSecret(data)) return null;
    try {
      this.open(data.secret);
      return null;
    } catch {
      return 'a webhook secret in this export was sealed with another service key: import with the DATA_KEY_FILE of the deployment it came from';
    }
  }
}
