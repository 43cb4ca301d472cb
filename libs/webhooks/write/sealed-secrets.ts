import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { unpackVersionedKeys, type LiveKeys, type VersionedKeys } from '@app/keys';

/** Then the version and `.`, then base64url of IV, ciphertext and tag. */
export const SEALED_SECRET_PREFIX = 'sealed2.';
/** Sealed before versions: version 1, bound to no endpoint (it opens; a rotation seals it again). */
const UNBOUND_PREFIX = 'sealed1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Authenticated first, so a sealed value of another kind never opens as a secret. */
const KIND = 'trainee-records/webhook-secret';
const SEALED = /^sealed2\.([1-9]\d{0,8})\.([A-Za-z0-9_-]+)$/;

/** libs/webhooks/decider/webhook.ts */
const ENDPOINT_ADDED = 'WebhookEndpointAdded';
const SECRET_RESEALED = 'WebhookSecretResealed';

function hasSecret(data: unknown): data is { endpoint_id: string; secret: string } {
  const d = data as { secret?: unknown; endpoint_id?: unknown } | null;
  return typeof data === 'object' && d !== null && typeof d.secret === 'string' && typeof d.endpoint_id === 'string';
}

/** Another service key or a retired version, another endpoint, or altered. */
export class SecretNotOpened extends Error {
  constructor() {
    super(
      "an endpoint's signing secret does not open: sealed with another service key, under a retired version, for another endpoint, or altered",
    );
    this.name = 'SecretNotOpened';
  }
}

/** Refused until `admin webhooks seal-secrets` seals it. */
export class SecretNotSealed extends Error {
  constructor() {
    super("an endpoint's signing secret is stored in plain text: run `admin webhooks seal-secrets` to seal it before it is used");
    this.name = 'SecretNotSealed';
  }
}

/**
 * Webhook signing secrets at rest (docs/change-feed.md "How deliveries are kept"): AES-256-GCM under the current `webhook-secrets` key,
 * version and endpoint id authenticated, so the log, exports, outbox and backups never hold a secret. `keys`: packed versioned keys, or
 * one 32-byte key (version 1). A plain `whsec_…` secret is refused ({@link SecretNotSealed}).
 */
export class SealedSecrets {
  private keys: VersionedKeys;

  /** `keyring`: the live keys, read again for a version not held and by {@link sealing}. */
  constructor(
    keys: Buffer,
    private readonly keyring: LiveKeys | null = null,
  ) {
    this.keys = unpackVersionedKeys(keys);
  }

  /**
   * Runs `store` with the keyring's keys under its shared lock, so what it seals is stored before any retirement counts
   * (docs/operations.md "Rotating the service key"). Throws `KeyringError` (nothing sealed), `KeyringBusy`, and what `store` throws.
   */
  sealing<T>(store: () => Promise<T>): Promise<T> {
    if (!this.keyring) return store();
    return this.keyring.holding((keys) => {
      this.keys = unpackVersionedKeys(keys);
      return store();
    });
  }

  /** `sealed2.<version>.` and 62 or more base64url characters. */
  seal(secret: string, endpointId: string): string {
    const version = this.keys.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.keys.get(version)!, iv).setAAD(boundTo(version, endpointId));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${SEALED_SECRET_PREFIX}${version}.${Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** Either format; else plain text from before sealing. */
  static isSealed(stored: string): boolean {
    return stored.startsWith(SEALED_SECRET_PREFIX) || stored.startsWith(UNBOUND_PREFIX);
  }

  /** 1 for `sealed1.…`; null for plain text or no known shape. */
  static versionOf(stored: string): number | null {
    if (stored.startsWith(UNBOUND_PREFIX)) return 1;
    const match = SEALED.exec(stored);
    return match ? Number(match[1]) : null;
  }

  /** Throws {@link SecretNotSealed} for plain text, {@link SecretNotOpened} for one that does not open. */
  open(stored: string, endpointId: string): string {
    if (stored.startsWith(UNBOUND_PREFIX)) return this.opened(1, stored.slice(UNBOUND_PREFIX.length), Buffer.from(KIND));
    if (!stored.startsWith(SEALED_SECRET_PREFIX)) throw new SecretNotSealed();
    const match = SEALED.exec(stored);
    if (!match) throw new SecretNotOpened();
    const version = Number(match[1]);
    return this.opened(version, match[2], boundTo(version, endpointId));
  }

  private opened(version: number, text: string, aad: Buffer): string {
    if (!this.keys.keys.has(version) && this.keyring) {
      try {
        this.keys = unpackVersionedKeys(this.keyring.now());
      } catch {
        // Unreadable for a moment: the secret does not open now, and the attempt is retried.
      }
    }
    const key = this.keys.keys.get(version);
    const bytes = Buffer.from(text, 'base64url');
    if (key === undefined || bytes.length <= IV_BYTES + TAG_BYTES) throw new SecretNotOpened();
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES }).setAAD(aad);
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretNotOpened();
    }
  }

  /** Opens nothing. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(SEALED_SECRET_PREFIX) && SealedSecrets.versionOf(stored) === this.keys.current;
  }

  /** Sealed again under the current version, bound to the endpoint; null when so already. {@link SecretNotOpened} if it does not open. */
  resealed(stored: string, endpointId: string): string | null {
    if (this.isCurrent(stored)) return null;
    return this.seal(SealedSecrets.isSealed(stored) ? this.open(stored, endpointId) : stored, endpointId);
  }

  /** For `admin events export`: a plain secret is sealed for its endpoint; everything else as stored. */
  exported(type: string, data: unknown): unknown {
    if (type !== ENDPOINT_ADDED || !hasSecret(data) || SealedSecrets.isSealed(data.secret)) return data;
    return { ...data, secret: this.seal(data.secret, data.endpoint_id) };
  }

  /**
   * Why `admin events import` cannot take the event: a secret that does not open here. Taken: one under a version older than every
   * version held (retired; a later `WebhookSecretResealed` holds the secret in use), and a plain one (refused until sealed).
   */
  importRefusal(type: string, data: unknown): string | null {
    if ((type !== ENDPOINT_ADDED && type !== SECRET_RESEALED) || !hasSecret(data)) return null;
    if (!SealedSecrets.isSealed(data.secret)) return null;
    const version = SealedSecrets.versionOf(data.secret);
    if (version !== null && version < Math.min(...this.keys.keys.keys())) return null;
    try {
      this.open(data.secret, data.endpoint_id);
      return null;
    } catch {
      return 'a webhook secret in this export was sealed with another service key: import with the DATA_KEY_FILE of the deployment it came from (a version retired since opens nothing)';
    }
  }
}

/** Kind, version and endpoint id, NUL-separated. */
function boundTo(version: number, endpointId: string): Buffer {
  return Buffer.from(`${KIND}\u0000${version}\u0000${endpointId}`);
}
