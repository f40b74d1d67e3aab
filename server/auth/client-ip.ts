/**
 * Client address normalisation for throttling (SECURITY.md §2): one spelling per address, so
 * `::ffff:127.0.0.1` and `127.0.0.1`, upper and lower case, and compressed or expanded IPv6 forms
 * all count against the same key. IPv6 addresses are collapsed to their /64 network (a client
 * usually controls a whole /64).
 */
import { isIPv4, isIPv6 } from "node:net";

const IPV6_PREFIX_GROUPS = 4; // /64

function expandIPv6(address: string): string[] | null {
  let text = address;
  // A trailing dotted IPv4 part (::ffff:1.2.3.4, 64:ff9b::1.2.3.4) → two hex groups.
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (v4) {
    const octets = v4[1]!.split(".").map(Number);
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    text = `${text.slice(0, -v4[1]!.length)}${hex(octets[0]!, octets[1]!)}:${hex(octets[2]!, octets[3]!)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const left = halves[0] ? halves[0].split(":") : [];
  const right = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 1 ? missing !== 0 : missing < 0) return null;
  const groups = [...left, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...right];
  return groups.map((g) => g.toLowerCase().padStart(4, "0"));
}

/** The canonical form of a socket address; unparseable values are lower-cased as they are. */
export function normaliseIp(raw: string | null | undefined): string {
  if (!raw) return "unknown";
  let address = raw.trim();
  if (address.startsWith("[") && address.includes("]")) address = address.slice(1, address.indexOf("]"));
  const zone = address.indexOf("%");
  if (zone >= 0) address = address.slice(0, zone);
  if (isIPv4(address))
    return address
      .split(".")
      .map((o) => String(Number(o)))
      .join(".");
  if (!isIPv6(address)) return address.toLowerCase() || "unknown";
  const groups = expandIPv6(address);
  if (!groups) return address.toLowerCase();
  // IPv4-mapped (::ffff:a.b.c.d) → the IPv4 address.
  if (groups.slice(0, 5).every((g) => g === "0000") && groups[5] === "ffff") {
    const n = (g: string) => [Number.parseInt(g.slice(0, 2), 16), Number.parseInt(g.slice(2), 16)];
    return [...n(groups[6]!), ...n(groups[7]!)].join(".");
  }
  // Loopback ::1 stays distinct from the unspecified network.
  if (groups.slice(0, 7).every((g) => g === "0000") && groups[7] === "0001") return "::1";
  return `${groups.slice(0, IPV6_PREFIX_GROUPS).join(":")}::/64`;
}
