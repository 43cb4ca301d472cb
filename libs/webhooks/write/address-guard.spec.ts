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
    ['::a9fe:a9fe', 'IPv4-compatible link-local (cloud metadata)'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback, hex'],
    ['::8.8.8.8', 'IPv4-compatible, deprecated even for a public address'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped link-local, hex'],
    ['::ffff:0:a9fe:a9fe', 'IPv4-translated (RFC 6145)'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 of link-local'],
    ['2002:a9fe:a9fe::1', '6to4 of link-local'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['100::1', 'discard-only'],
    ['ff02::1', 'IPv6 multicast'],
    ['fec0::1', 'IPv6 site-local (deprecated)'],
    ['4000::1', 'IPv6 outside the global unicast allocation'],
    ['::ffff:127.0.0.1%eth0', 'with a zone'],
    ['not-an-address', 'unparseable'],
  ])('refuses %s (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '[2a00:1450:4009:81f::200e]'])('accepts %s', (ip) => {
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

  // The URL parser writes every IPv4 form as dotted decimal and every IPv6 form compressed; each is checked as written.
  it.each([
    'https://[::a9fe:a9fe]/',
    'https://[::127.0.0.1]/',
    'https://[::ffff:169.254.169.254]/',
    'https://[0:0:0:0:0:ffff:a9fe:a9fe]/',
    'https://[64:ff9b::169.254.169.254]/',
    'https://2852039166/',
    'https://0xa9.0xfe.0xa9.0xfe/',
    'https://0251.0376.0251.0376/',
    'https://169.254.43518/',
    'https://0x7f000001/',
    'https://127.1/',
  ])('refuses %s, however the address is written', async (url) => {
    await expect(checkWebhookTarget(url, strict)).rejects.toBeInstanceOf(WebhookTargetRefused);
    expect(() => checkLiteralTarget(new URL(url), strict)).toThrow(WebhookTargetRefused);
  });

  it('refuses a port the policy does not list, at addition and at each delivery; the scheme gives the port a URL leaves out', async () => {
    const https = { allowPrivate: false, ports: [443] };
    await expect(checkWebhookTarget('https://1.1.1.1:22/hook', https)).rejects.toThrow(/port 22 is not allowed \(allowed: 443\)/);
    expect(() => checkLiteralTarget(new URL('https://1.1.1.1:22/hook'), https)).toThrow(/port 22/);
    await expect(checkWebhookTarget('https://1.1.1.1:8443/hook', https)).rejects.toBeInstanceOf(WebhookTargetRefused);
    await expect(checkWebhookTarget('https://1.1.1.1:443/hook', https)).resolves.toBeUndefined();
    await expect(checkWebhookTarget('https://1.1.1.1/hook', https)).resolves.toBeUndefined();
    expect(() => checkLiteralTarget(new URL('http://1.1.1.1/hook'), https)).toThrow(/port 80/);
    expect(() => checkLiteralTarget(new URL('http://127.0.0.1:8080/x'), { allowPrivate: true, ports: [8080] })).not.toThrow();
    await expect(checkWebhookTarget('http://127.0.0.1:9/x', { allowPrivate: true, ports: [80, 443] })).rejects.toThrow(/port 9/);
    expect(() => checkLiteralTarget(new URL('https://1.1.1.1:22/hook'), { allowPrivate: false, ports: null })).not.toThrow();
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
