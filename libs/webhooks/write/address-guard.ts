import { lookup as dnsLookup, promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may point (docs/change-feed.md "Where a webhook may point"): outside the sandbox
 * a provider must not be able to make the service send requests into its own network, so only
 * globally routable unicast addresses are reached, checked after DNS resolution, at connect time.
 */

/**
 * `allowPrivate`: loopback, private and link-local addresses are reachable (the sandbox and tests
 * only). `ports`: the TCP ports a target may name, its scheme's default when it names none (443
 * for `https://`, 80 for `http://`); absent or null: any port.
 */
export interface AddressPolicy {
  allowPrivate: boolean;
  ports?: readonly number[] | null;
}

/** A webhook target refused by the policy; the message names the host and the reason, nothing more. */
export class WebhookTargetRefused extends Error {}

/** IPv6's global unicast allocation (RFC 4291 §2.4): every address a public host has. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * True only for a globally routable unicast address, by ipaddr.js's classification: an IPv4
 * address in its `unicast` range, an IPv6 address in its `unicast` range and inside the global
 * unicast allocation `2000::/3`. False for loopback, private, link-local, CGNAT, unspecified,
 * multicast, broadcast, reserved, unique-local, documentation and tunnelling ranges (6to4, Teredo,
 * NAT64), for IPv6 outside `2000::/3` (the deprecated IPv4-compatible `::a.b.c.d`, which
 * ipaddr.js leaves in `unicast`, among them), and for anything that does not parse. An
 * IPv4-mapped address (`::ffff:a.b.c.d`) is judged as its IPv4 address.
 */
export function isPublicAddress(ip: string): boolean {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    const bare = ip.replace(/^\[|\]$/g, '');
    // ipaddr.js reads any dotted tail as IPv4-mapped (`::8.8.8.8` as `::ffff:8.8.8.8`), and a
    // resolver may print an IPv4-compatible address that way: the URL parser writes it in hex.
    address = ipaddr.parse(bare.includes(':') ? new URL(`http://[${bare}]/`).hostname.slice(1, -1) : bare);
  } catch {
    return false;
  }
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(IPV6_GLOBAL_UNICAST);
}

/** The refusal of `host` resolving to `address`. */
function refusal(host: string, address: string): WebhookTargetRefused {
  return new WebhookTargetRefused(`webhook target ${host} resolves to ${address}, a loopback, private or reserved address`);
}

/**
 * A `lookup` for `http.request` that resolves every address of the host and, unless the policy
 * allows private targets, fails with {@link WebhookTargetRefused} when any of them is not public:
 * the connection then goes to an address that was checked (no window for DNS rebinding).
 */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...(options as LookupOptions), all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const bad = policy.allowPrivate ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (bad) return callback(refusal(hostname, bad.address) as NodeJS.ErrnoException, '', 0);
      if ((options as LookupOptions).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      if (addresses.length === 0) return callback(new Error(`no address for ${hostname}`) as NodeJS.ErrnoException, '', 0);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

/** The hostname of a URL as DNS sees it (IPv6 brackets dropped). */
function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[|\]$/g, '');
}

/** The TCP port a URL connects to: the one it names, else its scheme's (443 for `https:`, 80 otherwise). */
function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/**
 * Refuses, with {@link WebhookTargetRefused}, a URL on a port the policy does not list
 * (docs/change-feed.md "Where a webhook may point"): a provider must not make the service knock on
 * a public host's SSH, database or mail port.
 */
export function checkTargetPort(url: URL, policy: AddressPolicy): void {
  if (!policy.ports) return;
  const port = portOf(url);
  if (!policy.ports.includes(port)) {
    throw new WebhookTargetRefused(`webhook target port ${port} is not allowed (allowed: ${policy.ports.join(', ')})`);
  }
}

/**
 * Refuses a URL whose host is an IP literal that is not public (unless the policy allows private
 * targets), with {@link WebhookTargetRefused}. Node connects to an IP literal without calling
 * `lookup`, so {@link guardedLookup} never sees it: every request checks this first. Refuses a
 * port the policy does not list too ({@link checkTargetPort}).
 */
export function checkLiteralTarget(url: URL, policy: AddressPolicy): void {
  checkTargetPort(url, policy);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!policy.allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) throw refusal(host, host);
}

/**
 * Checks an endpoint's URL when it is added: its port must be one the policy lists
 * ({@link checkTargetPort}) and, unless the policy allows private targets, its host must resolve
 * (with `resolve`, default the system resolver), and to public addresses only. Throws
 * {@link WebhookTargetRefused} otherwise. Deliveries check again at connect time
 * ({@link guardedLookup}), as DNS answers change.
 */
export async function checkWebhookTarget(url: string, policy: AddressPolicy, resolve?: (host: string) => Promise<string[]>): Promise<void> {
  checkTargetPort(new URL(url), policy);
  if (policy.allowPrivate) return;
  const host = hostOf(url);
  let addresses: string[];
  if (ipaddr.isValid(host)) addresses = [host];
  else {
    try {
      addresses = resolve ? await resolve(host) : (await dns.lookup(host, { all: true })).map((a) => a.address);
    } catch {
      throw new WebhookTargetRefused(`webhook target ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw new WebhookTargetRefused(`webhook target ${host} does not resolve`);
  const bad = addresses.find((a) => !isPublicAddress(a));
  if (bad) throw refusal(host, bad);
}
