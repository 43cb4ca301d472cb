import { lookup as dnsLookup, promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may point (docs/change-feed.md "Where a webhook may point"): outside the sandbox only globally routable unicast
 * addresses, checked after DNS resolution at connect time, so a provider cannot reach into the service's network.
 */

/** `allowPrivate`: the sandbox and tests only. `ports`: allowed ports (the scheme's default when a URL names none); null: any. */
export interface AddressPolicy {
  allowPrivate: boolean;
  ports?: readonly number[] | null;
}

/** The message names the host and the reason, nothing more. */
export class WebhookTargetRefused extends Error {}

/** RFC 4291 §2.4: every address a public host has. */
const IPV6_GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * ipaddr.js's `unicast` range, and for IPv6 inside `2000::/3` (which excludes IPv4-compatible `::a.b.c.d`, left `unicast` by ipaddr.js);
 * an IPv4-mapped address is judged as its IPv4. False for anything that does not parse.
 */
export function isPublicAddress(ip: string): boolean {
  let address: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    const bare = ip.replace(/^\[|\]$/g, '');
    // ipaddr.js reads any dotted tail as IPv4-mapped; the URL parser writes an IPv4-compatible address in hex.
    address = ipaddr.parse(bare.includes(':') ? new URL(`http://[${bare}]/`).hostname.slice(1, -1) : bare);
  } catch {
    return false;
  }
  if (address.kind() === 'ipv4') return address.range() === 'unicast';
  const v6 = address as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === 'unicast';
  return v6.range() === 'unicast' && v6.match(IPV6_GLOBAL_UNICAST);
}

function refusal(host: string, address: string): WebhookTargetRefused {
  return new WebhookTargetRefused(`webhook target ${host} resolves to ${address}, a loopback, private or reserved address`);
}

/** For `http.request`: refuses a host with any address not public, so the connection goes to a checked address (no DNS rebinding). */
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

function hostOf(url: string): string {
  return new URL(url).hostname.replace(/^\[|\]$/g, '');
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** {@link WebhookTargetRefused} for a port the policy does not list: no knocking on a public host's SSH, database or mail port. */
export function checkTargetPort(url: URL, policy: AddressPolicy): void {
  if (!policy.ports) return;
  const port = portOf(url);
  if (!policy.ports.includes(port)) {
    throw new WebhookTargetRefused(`webhook target port ${port} is not allowed (allowed: ${policy.ports.join(', ')})`);
  }
}

/** Node connects to an IP literal without `lookup`, unseen by {@link guardedLookup}: every request checks this first (and the port). */
export function checkLiteralTarget(url: URL, policy: AddressPolicy): void {
  checkTargetPort(url, policy);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!policy.allowPrivate && ipaddr.isValid(host) && !isPublicAddress(host)) throw refusal(host, host);
}

/**
 * At an endpoint's addition: its port listed and, unless private targets are allowed, its host resolving (`resolve`, default the
 * system's) to public addresses only; else {@link WebhookTargetRefused}. Deliveries check again at connect time.
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
