import { packVersionedKeys } from '@app/keys';
import { SEALED_SECRET_PREFIX, SealedSecrets, SecretNotOpened, SecretNotSealed } from './sealed-secrets';
import { createCipheriv } from 'node:crypto';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const secrets = new SealedSecrets(Buffer.alloc(32, 1));
const other = new SealedSecrets(Buffer.alloc(32, 2));
/** Version 2 current, version 1 (the key of `secrets`) still held. */
const rotated = new SealedSecrets(
  packVersionedKeys({
    current: 2,
    keys: new Map([
      [1, Buffer.alloc(32, 1)],
      [2, Buffer.alloc(32, 3)],
    ]),
  }),
);
/** Version 1 retired: version 2 only. */
const retired = new SealedSecrets(packVersionedKeys({ current: 2, keys: new Map([[2, Buffer.alloc(32, 3)]]) }));
const added = (secret: string, endpoint_id = 'wh_1') => ({ endpoint_id, ukprn: '10000001', secret });

/** A secret sealed as before versions: `sealed1.`, constant associated data, bound to no endpoint. */
function sealedBeforeVersions(key: Buffer, secret: string): string {
  const iv = Buffer.alloc(12, 7);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from('trainee-records/webhook-secret'));
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `sealed1.${Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url')}`;
}

describe('SealedSecrets (docs/change-feed.md "How deliveries are kept")', () => {
  it('seals a secret under its version, showing nothing of it, and opens it again for its endpoint', () => {
    const sealed = secrets.seal(SECRET, 'wh_1');
    expect(sealed.startsWith(`${SEALED_SECRET_PREFIX}1.`)).toBe(true);
    expect(SealedSecrets.versionOf(sealed)).toBe(1);
    expect(sealed).not.toContain(SECRET.slice(6, 20));
    expect(secrets.open(sealed, 'wh_1')).toBe(SECRET);
    // A new IV each time: equal secrets do not show as equal.
    expect(secrets.seal(SECRET, 'wh_1')).not.toBe(sealed);
  });

  it('refuses a secret moved to another endpoint, or relabelled with another version', () => {
    const sealed = rotated.seal(SECRET, 'wh_1');
    expect(sealed.startsWith(`${SEALED_SECRET_PREFIX}2.`)).toBe(true);
    expect(() => rotated.open(sealed, 'wh_2')).toThrow(SecretNotOpened);
    expect(() => rotated.open(sealed.replace('sealed2.2.', 'sealed2.1.'), 'wh_1')).toThrow(SecretNotOpened);
    expect(rotated.open(sealed, 'wh_1')).toBe(SECRET);
  });

  it('refuses one sealed with another key, an altered one and a truncated one, and says what happened', () => {
    const sealed = secrets.seal(SECRET, 'wh_1');
    expect(() => other.open(sealed, 'wh_1')).toThrow(SecretNotOpened);
    expect(() => other.open(sealed, 'wh_1')).toThrow(/another service key/);
    const [prefix, body] = [sealed.slice(0, 10), sealed.slice(10)];
    const bytes = Buffer.from(body, 'base64url');
    bytes[20] ^= 1;
    expect(() => secrets.open(prefix + bytes.toString('base64url'), 'wh_1')).toThrow(SecretNotOpened);
    expect(() => secrets.open(`${SEALED_SECRET_PREFIX}1.abc`, 'wh_1')).toThrow(SecretNotOpened);
    expect(() => secrets.open(`${SEALED_SECRET_PREFIX}x.abc`, 'wh_1')).toThrow(SecretNotOpened);
  });

  it('refuses a secret stored in plain text, naming the migration', () => {
    expect(() => secrets.open(SECRET, 'wh_1')).toThrow(SecretNotSealed);
    expect(() => secrets.open(SECRET, 'wh_1')).toThrow(/admin webhooks seal-secrets/);
    expect(SealedSecrets.versionOf(SECRET)).toBeNull();
  });

  it('opens a secret sealed before versions as version 1, for any endpoint, while version 1 is held', () => {
    const old = sealedBeforeVersions(Buffer.alloc(32, 1), SECRET);
    expect(SealedSecrets.versionOf(old)).toBe(1);
    expect(secrets.open(old, 'wh_9')).toBe(SECRET);
    expect(rotated.open(old, 'wh_9')).toBe(SECRET);
    expect(() => retired.open(old, 'wh_9')).toThrow(SecretNotOpened);
  });

  it('seals again under the current version what is plain, sealed before versions or under an older one, and nothing else', () => {
    const underOne = secrets.seal(SECRET, 'wh_1');
    for (const stored of [SECRET, underOne, sealedBeforeVersions(Buffer.alloc(32, 1), SECRET)]) {
      const resealed = rotated.resealed(stored, 'wh_1')!;
      expect(SealedSecrets.versionOf(resealed)).toBe(2);
      expect(retired.open(resealed, 'wh_1')).toBe(SECRET);
      expect(rotated.resealed(resealed, 'wh_1')).toBeNull();
      expect([rotated.isCurrent(stored), rotated.isCurrent(resealed)]).toEqual([false, true]);
    }
    expect(() => retired.resealed(underOne, 'wh_1')).toThrow(SecretNotOpened);
  });

  it("seals, in an export, an endpoint's secret stored in plain text for its endpoint, and leaves sealed ones and other events as they are", () => {
    const exported = secrets.exported('WebhookEndpointAdded', added(SECRET)) as { secret: string };
    expect(exported).toMatchObject({ endpoint_id: 'wh_1', ukprn: '10000001' });
    expect(secrets.open(exported.secret, 'wh_1')).toBe(SECRET);
    expect(() => secrets.open(exported.secret, 'wh_2')).toThrow(SecretNotOpened);
    const sealed = added(secrets.seal(SECRET, 'wh_1'));
    expect(secrets.exported('WebhookEndpointAdded', sealed)).toEqual(sealed);
    const other = { secret: 'not a webhook one' };
    expect(secrets.exported('TraineeRegistered', other)).toBe(other);
  });

  it('refuses, on import, a secret sealed with another key or for another endpoint, and takes its own', () => {
    expect(secrets.importRefusal('WebhookEndpointAdded', added(secrets.seal(SECRET, 'wh_1')))).toBeNull();
    expect(other.importRefusal('WebhookEndpointAdded', added(secrets.seal(SECRET, 'wh_1')))).toMatch(/sealed with another service key/);
    expect(secrets.importRefusal('WebhookEndpointAdded', added(secrets.seal(SECRET, 'wh_1'), 'wh_2'))).toMatch(/another service key/);
    expect(other.importRefusal('TraineeRegistered', { secret: 'x' })).toBeNull();
  });

  it('takes, on import, a secret in plain text from an export made before secrets were sealed', () => {
    expect(secrets.importRefusal('WebhookEndpointAdded', added(SECRET))).toBeNull();
    expect(other.importRefusal('WebhookEndpointAdded', added(SECRET))).toBeNull();
  });

  it('takes, on import, a secret sealed under a version retired since, and checks a resealed one as an added one', () => {
    const underOne = added(secrets.seal(SECRET, 'wh_1'));
    expect(retired.importRefusal('WebhookEndpointAdded', underOne)).toBeNull();
    expect(retired.importRefusal('WebhookSecretResealed', added(rotated.seal(SECRET, 'wh_1')))).toBeNull();
    expect(retired.importRefusal('WebhookSecretResealed', added(rotated.seal(SECRET, 'wh_1'), 'wh_2'))).toMatch(/another service key/);
    expect(secrets.importRefusal('WebhookSecretResealed', added(other.seal(SECRET, 'wh_1')))).toMatch(/another service key/);
  });
});
