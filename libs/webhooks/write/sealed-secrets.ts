import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { unpackVersionedKeys, type LiveKeys, type VersionedKeys } from '@app/keys';

/** The prefix of a sealed secret: the format, the service key version and `.`, then base64url of IV, ciphertext and tag. */
export const SEALED_SECRET_PREFIX = 'sealed2.';
/** The prefix of a secret sealed before versions: version 1, bound to no endpoint (it still opens; a rotation seals it again). */
const UNBOUND_PREFIX = 'sealed1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Authenticated with each sealed secret, before its version and endpoint: a sealed value of another kind never opens as a secret. */
const KIND = 'trainee-records/webhook-secret';
const SEALED = /^sealed2\.([1-9]\d{0,8})\.([A-Za-z0-9_-]+)$/;

/** The events that hold an endpoint's secret (libs/webhooks/decider/webhook.ts). */
const ENDPOINT_ADDED = 'WebhookEndpointAdded';
const SECRET_RESEALED = 'WebhookSecretResealed';

function hasSecret(data: unknown): data is { endpoint_id: string; secret: string } {
  const d = data as { secret?: unknown; endpoint_id?: unknown } | null;
  return typeof data === 'object' && d !== null && typeof d.secret === 'string' && typeof d.endpoint_id === 'string';
}

/** A sealed secret that does not open with these keys: another service key or a retired version, another endpoint, or altered. */
export class SecretNotOpened extends Error {
  constructor() {
    super(
      "an endpoint's signing secret does not open: sealed with another service key, under a retired version, for another endpoint, or altered",
    );
    this.name = 'SecretNotOpened';
  }
}

/** A secret stored in plain text (from before sealing): refused until `admin webhooks seal-secrets` seals it. */
export class SecretNotSealed extends Error {
  constructor() {
    super("an endpoint's signing secret is stored in plain text: run `admin webhooks seal-secrets` to seal it before it is used");
    this.name = 'SecretNotSealed';
  }
}

/**
 * Webhook signing secrets at rest (docs/change-feed.md "How deliveries are kept"): sealed with
 * AES-256-GCM (`node:crypto`, a random IV each) under the current version of the service key's
 * `webhook-secrets` key, the version and the endpoint id authenticated with it, so the event log,
 * its exports, the outbox and their backups hold `sealed2.<version>.…`, never the secret, and a
 * sealed secret moved to another endpoint does not open. Only the dispatcher opens one, to sign a
 * delivery. `keys`: the `webhook-secrets` keys by version, packed (`packVersionedKeys`), or one
 * 32-byte key (version 1). Secrets sealed before versions (`sealed1.…`) open under version 1; a
 * secret in plain text (`whsec_…`, from before sealing) is refused ({@link SecretNotSealed}).
 */
export class SealedSecrets {
  private keys: VersionedKeys;

  /**
   * `keyring`: the `webhook-secrets` keys as the keyring file holds them now (`liveKeysOf`,
   * libs/keys), read again when a secret names a version not held (a rotation; a failure keeps
   * those held), and by {@link sealing} before secrets are sealed and stored.
   */
  constructor(
    keys: Buffer,
    private readonly keyring: LiveKeys | null = null,
  ) {
    this.keys = unpackVersionedKeys(keys);
  }

  /**
   * Runs `store`, which seals secrets ({@link seal}, {@link resealed}) and stores them, with the
   * keys the keyring file holds now, under its shared lock, so each is sealed under the version
   * current then and stored before any retirement counts (docs/operations.md "Rotating the service
   * key"); without a keyring, with the keys given. Throws `KeyringError` when the keyring cannot be
   * read (nothing is sealed), `KeyringBusy`, and what `store` throws.
   */
  sealing<T>(store: () => Promise<T>): Promise<T> {
    if (!this.keyring) return store();
    return this.keyring.holding((keys) => {
      this.keys = unpackVersionedKeys(keys);
      return store();
    });
  }

  /** `secret` sealed for endpoint `endpointId` under the current version: `sealed2.<version>.` and 62 or more base64url characters. */
  seal(secret: string, endpointId: string): string {
    const version = this.keys.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.keys.keys.get(version)!, iv).setAAD(boundTo(version, endpointId));
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return `${SEALED_SECRET_PREFIX}${version}.${Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url')}`;
  }

  /** True when `stored` is a sealed secret, of either format (else a secret stored in plain text before sealing). */
  static isSealed(stored: string): boolean {
    return stored.startsWith(SEALED_SECRET_PREFIX) || stored.startsWith(UNBOUND_PREFIX);
  }

  /** The service key version `stored` is sealed under (1 for `sealed1.…`); null for a secret in plain text or of no known shape. */
  static versionOf(stored: string): number | null {
    if (stored.startsWith(UNBOUND_PREFIX)) return 1;
    const match = SEALED.exec(stored);
    return match ? Number(match[1]) : null;
  }

  /**
   * The secret `stored` holds for endpoint `endpointId`. Throws {@link SecretNotSealed} for one in
   * plain text, {@link SecretNotOpened} for one that does not open.
   */
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

  /** Whether `stored` is sealed in the current format under the current version (what {@link resealed} leaves as it is); opens nothing. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(SEALED_SECRET_PREFIX) && SealedSecrets.versionOf(stored) === this.keys.current;
  }

  /**
   * `stored`, endpoint `endpointId`'s secret, sealed again under the current version and bound to
   * the endpoint (a secret in plain text, or sealed before versions, or under an older version);
   * null when it is so already. Throws {@link SecretNotOpened} for a sealed one that does not open.
   */
  resealed(stored: string, endpointId: string): string | null {
    if (this.isCurrent(stored)) return null;
    return this.seal(SealedSecrets.isSealed(stored) ? this.open(stored, endpointId) : stored, endpointId);
  }

  /**
   * An event's data as an export carries it (`admin events export`): an endpoint's secret stored in
   * plain text before sealing is sealed for its endpoint; everything else as stored.
   */
  exported(type: string, data: unknown): unknown {
    if (type !== ENDPOINT_ADDED || !hasSecret(data) || SealedSecrets.isSealed(data.secret)) return data;
    return { ...data, secret: this.seal(data.secret, data.endpoint_id) };
  }

  /**
   * Why an imported event cannot be taken by a store of these keys (`admin events import`): an
   * endpoint's secret that does not open with them for its endpoint; null otherwise. A secret
   * sealed under a version older than every version held is taken: a rotation retired it, and a
   * later `WebhookSecretResealed` of the same export holds the secret in use. A secret in plain
   * text (an export made before secrets were sealed) is taken as it is: the dispatcher refuses it
   * until `admin webhook seal-secrets` seals it, as for an endpoint added here before sealing.
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

/** The associated data of a secret sealed under `version` for `endpointId`: the kind, the version and the endpoint id, NUL-separated. */
function boundTo(version: number, endpointId: string): Buffer {
  return Buffer.from(`${KIND}\u0000${version}\u0000${endpointId}`);
}
