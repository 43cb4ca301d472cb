import { SEALED_SECRET_PREFIX, SealedSecrets, SecretNotOpened } from './sealed-secrets';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const secrets = new SealedSecrets(Buffer.alloc(32, 1));
const other = new SealedSecrets(Buffer.alloc(32, 2));
const added = (secret: string) => ({ endpoint_id: 'wh_1', ukprn: '10000001', secret });

describe('SealedSecrets (docs/change-feed.md "How deliveries are kept")', () => {
  it('seals a secret so that it shows nothing of it, and opens it again', () => {
    const sealed = secrets.seal(SECRET);
    expect(sealed.startsWith(SEALED_SECRET_PREFIX)).toBe(true);
    expect(sealed).not.toContain(SECRET.slice(6, 20));
    expect(secrets.open(sealed)).toBe(SECRET);
    // A new IV each time: equal secrets do not show as equal.
    expect(secrets.seal(SECRET)).not.toBe(sealed);
  });

  it('refuses one sealed with another key, an altered one and a truncated one, and says what happened', () => {
    const sealed = secrets.seal(SECRET);
    expect(() => other.open(sealed)).toThrow(SecretNotOpened);
    expect(() => other.open(sealed)).toThrow(/another service key/);
    const bytes = Buffer.from(sealed.slice(SEALED_SECRET_PREFIX.length), 'base64url');
    bytes[20] ^= 1;
    expect(() => secrets.open(SEALED_SECRET_PREFIX + bytes.toString('base64url'))).toThrow(SecretNotOpened);
    expect(() => secrets.open(`${SEALED_SECRET_PREFIX}abc`)).toThrow(SecretNotOpened);
  });

  it('opens a secret stored before sealing as it is', () => {
    expect(secrets.open(SECRET)).toBe(SECRET);
  });

  it("seals, in an export, an endpoint's secret stored in plain text, and leaves sealed ones and other events as they are", () => {
    const exported = secrets.exported('WebhookEndpointAdded', added(SECRET)) as { secret: string };
    expect(exported).toMatchObject({ endpoint_id: 'wh_1', ukprn: '10000001' });
    expect(secrets.open(exported.secret)).toBe(SECRET);
    const sealed = added(secrets.seal(SECRET));
    expect(secrets.exported('WebhookEndpointAdded', sealed)).toEqual(sealed);
    const other = { secret: 'not a webhook one' };
    expect(secrets.exported('TraineeRegistered', other)).toBe(other);
  });

  it('refuses, on import, a secret sealed with another key, and takes its own', () => {
    expect(secrets.importRefusal('WebhookEndpointAdded', added(secrets.seal(SECRET)))).toBeNull();
    expect(other.importRefusal('WebhookEndpointAdded', added(secrets.seal(SECRET)))).toMatch(/sealed with another service key/);
    expect(other.importRefusal('TraineeRegistered', { secret: 'x' })).toBeNull();
  });
});
