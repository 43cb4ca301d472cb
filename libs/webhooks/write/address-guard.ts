import { lookup as dnsLookup, promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may point (docs/change-feed.md "Where a webhook may point"): outside the sandbox
 * a provider must not be able to make the service send requests into its own network, so only
 * globally routable unicast addresses are reached, checked after DNS resolution, at connect time.
 */

/** `allowPrivate`: loopback, private and link-local addresses are reachable (the sandbox and tests only). */
export interface AddressPolicy {
  allowPrivate: boolean;
}

/** A webhook target refused by the policy; the message names the host and the reason, nothing more. */
export class WebhookTargetRefused extends Error {}

/**
 * True only for a globally routable unicast address (ipaddr.js's `unicast` range): false for
 * loopback, private, link-local, CGNAT, unspecified, multicast, broadcast, reserved, unique-local,
 * documentation and tunnelling ranges, and for anything that does not parse. An IPv4-mapped IPv6
 * address is judged as its IPv4 address.
 */
export function isPublicAddress(ip: string): boolean {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    address = ipaddr.parse(ip.replace(/^\[|\]$/g, ''));
  } catch {
    return false;
  }
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) address = (address as ipaddr.IPv6).toIPv4Address();
  return address.range() === 'unicast';
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

/**
 * Refuses a URL whose host is an IP literal that is not public (unless the policy allows private
 * targets), with {@link WebhookTargetRefused}. Node connects to an IP literal without calling
 * `lookup`, so {@link guardedLookup} never sees it: every request checks this first.
 */
export function checkLiteralTarget(url: URL, policy: AddressPolicy): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!policy.allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) throw refusal(host, host);
}

/**
 * Checks an endpoint's URL when it is added: unless the policy allows private targets, its host
 * must resolve (with `resolve`, default the system resolver), and to public addresses only.
 * Throws {@link WebhookTargetRefused} otherwise. Deliveries check again at connect time
 * ({@link guardedLookup}), as DNS answers change.
 */
export async function checkWebhookTarget(url: string, policy: AddressPolicy, resolve?: (host: string) => Promise<string[]>): Promise<void> {
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
