/**
 * Whether a webhook host is this machine, a private network, or an address or name that is not a
 * public host. The list is IANA's, written as data: the IPv4 and IPv6 Special-Purpose Address
 * Registries (with each entry's "Globally Reachable"), the IPv6 Address Space (only 2000::/3 is global
 * unicast), multicast, and the Special-Use Domain Names, plus the names networks keep for local use by
 * custom. A tenant's webhook goes to a public host; on Cloudflare a Worker cannot reach private
 * networks anyway, and this refuses them when the URL is given, where the tenant can be told, and on
 * any other host the service runs on. Pure. `hostname` is as the URL parser writes it (IPv6 in
 * brackets, compressed hex; IPv4 as four decimal parts).
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) {
    const address = ipv6(host.slice(1, -1));
    return address === null || isRefused(IPV6_BLOCKS, address);
  }
  const address = ipv4(host);
  if (address !== null) return isRefused(IPV4_BLOCKS, address);
  // a name of one label (https://intranet/) is completed by the resolver's search domains: a local name
  if (!host.includes(".")) return true;
  return LOCAL_NAMES.some(({ name }) => host === name || host.endsWith(`.${name}`));
}

/**
 * One registry entry. `globallyReachable` is the registry's column (null where it reads N/A, as for
 * deprecated or wrapping blocks). An address is refused when any entry holding it is not globally
 * reachable: a globally reachable entry inside one that is not (192.0.0.9 in 192.0.0.0/24, the
 * anycast addresses in 2001::/23) is refused with its block, the conservative reading.
 */
export interface AddressBlock {
  cidr: string;
  name: string;
  source: string;
  globallyReachable: boolean | null;
}

export const IPV4_SPECIAL: readonly AddressBlock[] = [
  { cidr: "0.0.0.0/8", name: '"This network"', source: "RFC 791", globallyReachable: false },
  { cidr: "0.0.0.0/32", name: '"This host on this network"', source: "RFC 1122", globallyReachable: false },
  { cidr: "10.0.0.0/8", name: "Private-Use", source: "RFC 1918", globallyReachable: false },
  { cidr: "100.64.0.0/10", name: "Shared Address Space", source: "RFC 6598", globallyReachable: false },
  { cidr: "127.0.0.0/8", name: "Loopback", source: "RFC 1122", globallyReachable: false },
  { cidr: "169.254.0.0/16", name: "Link Local (with the cloud metadata address)", source: "RFC 3927", globallyReachable: false },
  { cidr: "172.16.0.0/12", name: "Private-Use", source: "RFC 1918", globallyReachable: false },
  { cidr: "192.0.0.0/24", name: "IETF Protocol Assignments", source: "RFC 6890", globallyReachable: false },
  { cidr: "192.0.0.0/29", name: "IPv4 Service Continuity Prefix", source: "RFC 7335", globallyReachable: false },
  { cidr: "192.0.0.8/32", name: "IPv4 dummy address", source: "RFC 7600", globallyReachable: false },
  { cidr: "192.0.0.9/32", name: "Port Control Protocol Anycast", source: "RFC 7723", globallyReachable: true },
  { cidr: "192.0.0.10/32", name: "Traversal Using Relays around NAT Anycast", source: "RFC 8155", globallyReachable: true },
  { cidr: "192.0.0.170/32", name: "NAT64/DNS64 Discovery", source: "RFC 8880", globallyReachable: false },
  { cidr: "192.0.0.171/32", name: "NAT64/DNS64 Discovery", source: "RFC 8880", globallyReachable: false },
  { cidr: "192.0.2.0/24", name: "Documentation (TEST-NET-1)", source: "RFC 5737", globallyReachable: false },
  { cidr: "192.31.196.0/24", name: "AS112-v4", source: "RFC 7535", globallyReachable: true },
  { cidr: "192.52.193.0/24", name: "AMT", source: "RFC 7450", globallyReachable: true },
  { cidr: "192.88.99.0/24", name: "Deprecated (6to4 Relay Anycast)", source: "RFC 7526", globallyReachable: null },
  { cidr: "192.88.99.2/32", name: "6a44-relay anycast address", source: "RFC 6751", globallyReachable: true },
  { cidr: "192.168.0.0/16", name: "Private-Use", source: "RFC 1918", globallyReachable: false },
  { cidr: "192.175.48.0/24", name: "Direct Delegation AS112 Service", source: "RFC 7534", globallyReachable: true },
  { cidr: "198.18.0.0/15", name: "Benchmarking", source: "RFC 2544", globallyReachable: false },
  { cidr: "198.51.100.0/24", name: "Documentation (TEST-NET-2)", source: "RFC 5737", globallyReachable: false },
  { cidr: "203.0.113.0/24", name: "Documentation (TEST-NET-3)", source: "RFC 5737", globallyReachable: false },
  { cidr: "224.0.0.0/4", name: "Multicast (IPv4 Address Space registry)", source: "RFC 5771", globallyReachable: false },
  { cidr: "240.0.0.0/4", name: "Reserved", source: "RFC 1112", globallyReachable: false },
  { cidr: "255.255.255.255/32", name: "Limited Broadcast", source: "RFC 919", globallyReachable: false },
];

export const IPV6_SPECIAL: readonly AddressBlock[] = [
  // the IPv6 Address Space registry: only 2000::/3 is global unicast; the rest is reserved (fec0::/10,
  // formerly site-local, among it), unique local, link-local or multicast
  { cidr: "::/3", name: "Not global unicast (IPv6 Address Space)", source: "RFC 4291", globallyReachable: false },
  { cidr: "4000::/2", name: "Not global unicast (IPv6 Address Space)", source: "RFC 4291", globallyReachable: false },
  { cidr: "8000::/1", name: "Not global unicast (IPv6 Address Space)", source: "RFC 4291", globallyReachable: false },
  { cidr: "::1/128", name: "Loopback Address", source: "RFC 4291", globallyReachable: false },
  { cidr: "::/128", name: "Unspecified Address", source: "RFC 4291", globallyReachable: false },
  { cidr: "::ffff:0:0/96", name: "IPv4-mapped Address", source: "RFC 4291", globallyReachable: false },
  { cidr: "64:ff9b::/96", name: "IPv4-IPv6 Translat.", source: "RFC 6052", globallyReachable: true },
  { cidr: "64:ff9b:1::/48", name: "IPv4-IPv6 Translat.", source: "RFC 8215", globallyReachable: false },
  { cidr: "100::/64", name: "Discard-Only Address Block", source: "RFC 6666", globallyReachable: false },
  { cidr: "100:0:0:1::/64", name: "Dummy IPv6 Prefix", source: "RFC 9780", globallyReachable: false },
  { cidr: "2001::/23", name: "IETF Protocol Assignments", source: "RFC 2928", globallyReachable: false },
  { cidr: "2001::/32", name: "TEREDO", source: "RFC 4380", globallyReachable: null },
  { cidr: "2001:1::1/128", name: "Port Control Protocol Anycast", source: "RFC 7723", globallyReachable: true },
  { cidr: "2001:1::2/128", name: "Traversal Using Relays around NAT Anycast", source: "RFC 8155", globallyReachable: true },
  { cidr: "2001:1::3/128", name: "DNS-SD Service Registration Protocol Anycast", source: "RFC 9665", globallyReachable: true },
  { cidr: "2001:2::/48", name: "Benchmarking", source: "RFC 5180", globallyReachable: false },
  { cidr: "2001:3::/32", name: "AMT", source: "RFC 7450", globallyReachable: true },
  { cidr: "2001:4:112::/48", name: "AS112-v6", source: "RFC 7535", globallyReachable: true },
  { cidr: "2001:10::/28", name: "Deprecated (previously ORCHID)", source: "RFC 4843", globallyReachable: false },
  { cidr: "2001:20::/28", name: "ORCHIDv2", source: "RFC 7343", globallyReachable: true },
  { cidr: "2001:30::/28", name: "Drone Remote ID Protocol Entity Tags (DETs) Prefix", source: "RFC 9374", globallyReachable: true },
  { cidr: "2001:db8::/32", name: "Documentation", source: "RFC 3849", globallyReachable: false },
  // wraps an IPv4 address (127.0.0.1's is 2002:7f00:1::); N/A in the registry, so refused whole
  { cidr: "2002::/16", name: "6to4", source: "RFC 3056", globallyReachable: null },
  { cidr: "2620:4f:8000::/48", name: "Direct Delegation AS112 Service", source: "RFC 7534", globallyReachable: true },
  { cidr: "3fff::/20", name: "Documentation", source: "RFC 9637", globallyReachable: false },
  { cidr: "5f00::/16", name: "Segment Routing (SRv6) SIDs", source: "RFC 9602", globallyReachable: false },
  { cidr: "fc00::/7", name: "Unique-Local", source: "RFC 4193", globallyReachable: false },
  { cidr: "fe80::/10", name: "Link-Local Unicast", source: "RFC 4291", globallyReachable: false },
  { cidr: "ff00::/8", name: "Multicast (IPv6 Address Space)", source: "RFC 4291", globallyReachable: false },
];

/**
 * Names no public host has: the Special-Use Domain Names registry (every `.arpa` name of it is under
 * `arpa`, which holds no web host, RFC 3172), and the names networks use locally by custom. The
 * registry's example, example.com/.net/.org are not here: RFC 6761 §6.5 asks software not to treat
 * them specially, and they resolve to public hosts.
 */
export const LOCAL_NAMES: readonly { name: string; source: string }[] = [
  { name: "localhost", source: "RFC 6761" },
  { name: "invalid", source: "RFC 6761" },
  { name: "test", source: "RFC 6761" },
  { name: "local", source: "RFC 6762" },
  { name: "onion", source: "RFC 7686" },
  { name: "alt", source: "RFC 9476" },
  { name: "arpa", source: "RFC 3172 (home.arpa RFC 8375, ipv4only.arpa RFC 8880, resolver.arpa RFC 9462, service.arpa RFC 9665, …)" },
  { name: "internal", source: "ICANN, reserved for private use (2024)" },
  { name: "lan", source: "RFC 6762 Appendix G" },
  { name: "home", source: "RFC 6762 Appendix G" },
  { name: "corp", source: "RFC 6762 Appendix G" },
  { name: "intranet", source: "RFC 6762 Appendix G" },
  { name: "private", source: "RFC 6762 Appendix G" },
  { name: "localdomain", source: "custom: /etc/hosts of many systems" },
  { name: "svc", source: "custom: Kubernetes service names (name.namespace.svc)" },
];

interface Range {
  first: bigint;
  last: bigint;
  globallyReachable: boolean | null;
}

function ranges(blocks: readonly AddressBlock[], bits: number, parse: (text: string) => bigint | null): Range[] {
  return blocks.map(({ cidr, globallyReachable }) => {
    const [text, length] = cidr.split("/");
    const first = parse(text);
    if (first === null) throw new Error(`bad block ${cidr}`);
    const size = 1n << BigInt(bits - Number(length));
    return { first, last: first + size - 1n, globallyReachable };
  });
}

const IPV4_BLOCKS = ranges(IPV4_SPECIAL, 32, (text) => ipv4(text));
const IPV6_BLOCKS = ranges(IPV6_SPECIAL, 128, (text) => ipv6(text));

function isRefused(blocks: Range[], address: bigint): boolean {
  return blocks.some((b) => address >= b.first && address <= b.last && b.globallyReachable !== true);
}

function ipv4(host: string): bigint | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets.reduce((n, o) => (n << 8n) | BigInt(o), 0n) : null;
}

/** An IPv6 address as the URL parser writes it (compressed hex), as a 128-bit number. */
function ipv6(text: string): bigint | null {
  const [head, tail, ...rest] = text.split("::");
  if (rest.length > 0) return null;
  const part = (s: string | undefined) =>
    s ? s.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN)) : [];
  const left = part(head);
  const right = part(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  if (groups.length !== 8 || !groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff)) return null;
  return groups.reduce((n, g) => (n << 16n) | BigInt(g), 0n);
}
