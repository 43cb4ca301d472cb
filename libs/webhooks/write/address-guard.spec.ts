import { checkLiteralTarget, checkWebhookTarget, guardedLookup, isPublicAddress, WebhookTargetRefused } from './address-guard';

describe('isPublicAddress (docs/change-feed.md "Where a webhook may point")', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['::1', 'IPv6 loopback'],
    ['::', 'IPv6 unspecified'],
    ['fd00::1', 'IPv6 unique local'],
    ['fe80::1', 'IPv6 link-local'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['2001:db8::1', 'documentation'],
    ['not-an-address', 'unparseable'],
  ])('refuses %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('accepts %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe('checkWebhookTarget: an endpoint as it is added', () => {
  const strict = { allowPrivate: false };

  it('refuses an IP literal that is not public, and a host resolving to any non-public address', async () => {
    await expect(checkWebhookTarget('https://127.0.0.1/x', strict)).rejects.toBeInstanceOf(WebhookTargetRefused);
    await expect(checkWebhookTarget('https://[::1]/x', strict)).rejects.toBeInstanceOf(WebhookTargetRefused);
    const mixed = async () => ['93.184.216.34', '10.0.0.5'];
    await expect(checkWebhookTarget('https://hooks.example.org/x', strict, mixed)).rejects.toThrow(/10\.0\.0\.5/);
  });

  it('refuses a host that does not resolve, accepts one resolving to public addresses only', async () => {
    const fails = async (): Promise<string[]> => {
      throw new Error('ENOTFOUND');
    };
    await expect(checkWebhookTarget('https://nowhere.invalid/x', strict, fails)).rejects.toThrow(/does not resolve/);
    await expect(checkWebhookTarget('https://hooks.example.org/x', strict, async () => ['93.184.216.34'])).resolves.toBeUndefined();
  });

  it('lets anything through in the sandbox', async () => {
    await expect(checkWebhookTarget('http://127.0.0.1/x', { allowPrivate: true })).resolves.toBeUndefined();
  });
});

describe('the checks at delivery time', () => {
  function lookupOf(policy: { allowPrivate: boolean }, host: string, all: boolean): Promise<unknown> {
    return new Promise((resolve, reject) =>
      guardedLookup(policy)(host, { all }, (err, address, family) => (err ? reject(err) : resolve(all ? address : [address, family]))),
    );
  }

  it('refuses a host that resolves to loopback unless private targets are allowed', async () => {
    await expect(lookupOf({ allowPrivate: false }, 'localhost', false)).rejects.toBeInstanceOf(WebhookTargetRefused);
    await expect(lookupOf({ allowPrivate: true }, 'localhost', false)).resolves.toEqual([
      expect.stringMatching(/^(127\.0\.0\.1|::1)$/),
      expect.any(Number),
    ]);
    await expect(lookupOf({ allowPrivate: true }, 'localhost', true)).resolves.toEqual(
      expect.arrayContaining([expect.objectContaining({ address: expect.any(String) })]),
    );
  });

  it('refuses an IP literal URL before connecting (Node does not look IP literals up)', () => {
    expect(() => checkLiteralTarget(new URL('http://127.0.0.1:8080/x'), { allowPrivate: false })).toThrow(WebhookTargetRefused);
    expect(() => checkLiteralTarget(new URL('http://[::ffff:169.254.169.254]/x'), { allowPrivate: false })).toThrow(WebhookTargetRefused);
    expect(() => checkLiteralTarget(new URL('https://8.8.8.8/x'), { allowPrivate: false })).not.toThrow();
    expect(() => checkLiteralTarget(new URL('http://127.0.0.1/x'), { allowPrivate: true })).not.toThrow();
  });
});
