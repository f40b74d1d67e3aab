/**
 * Which URLs a webhook may be sent to (decision 037). Against server-side request forgery:
 *
 * - `https:` anywhere public; `http:` only to the loopback host (localhost, 127.0.0.1, [::1]) for
 *   development; no credentials in the URL; no other scheme;
 * - addresses of private networks (10/8, 172.16/12, 192.168/16, link-local 169.254/16 — cloud
 *   metadata —, carrier-grade NAT 100.64/10, unique-local fc00::/7, link-local fe80::/10, 0.0.0.0/8,
 *   and their IPv4-mapped IPv6 forms) are refused unless WEBHOOKS_ALLOW_PRIVATE_NETWORKS=1. The
 *   loopback is allowed.
 * The check runs on the URL when it is saved (an address literal) and on every address the host
 * name resolves to when a delivery connects (the sender's DNS look-up), so a name pointing at a
 * private address is refused at send time too.
 */
import { BlockList, isIP } from "node:net";

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  PRIVATE.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
  ["::", 128],
] as const)
  PRIVATE.addSubnet(net, prefix, "ipv6");

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

function mappedV4(address: string): string | null {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1]! : null;
}

export function isLoopbackAddress(address: string): boolean {
  const v4 = mappedV4(address);
  if (v4) return LOOPBACK.check(v4, "ipv4");
  const family = isIP(address);
  if (family === 0) return false;
  return LOOPBACK.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** True for an address of a private, link-local or otherwise non-public network (not loopback). */
export function isPrivateAddress(address: string): boolean {
  const v4 = mappedV4(address);
  if (v4) return PRIVATE.check(v4, "ipv4");
  const family = isIP(address);
  if (family === 0) return false;
  return PRIVATE.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The problem with a webhook URL, worded for the `url` field; null when it may be used. */
export function webhookUrlProblem(value: string, options: { allowPrivateNetworks: boolean }): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "expected an absolute URL such as https://example.com/webhooks";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return "expected an https:// URL (http:// only to localhost for development)";
  if (url.username || url.password) return "must not hold a user name or password";
  const host = url.hostname.toLowerCase();
  const loopbackName = LOOPBACK_NAMES.has(host);
  const literal = host.startsWith("[") ? host.slice(1, -1) : host;
  const loopback = loopbackName || isLoopbackAddress(literal);
  if (url.protocol === "http:" && !loopback)
    return "must use https:// (http:// is allowed only to localhost or 127.0.0.1, for development)";
  if (!loopback && isPrivateAddress(literal) && !options.allowPrivateNetworks)
    return "points at a private network address; set WEBHOOKS_ALLOW_PRIVATE_NETWORKS=1 to allow it";
  if (url.hash) return "must not hold a #fragment";
  return null;
}
