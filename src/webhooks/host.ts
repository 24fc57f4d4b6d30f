/**
 * Whether a webhook host is this machine or a private network: an address of a range that is not
 * reachable on the internet (loopback, private, link-local with the cloud metadata address, shared,
 * multicast and reserved), or a name kept for local use (localhost, .local, .internal, .home.arpa, a
 * name of one label).
 * A tenant's webhook goes to a public host; on Cloudflare a Worker cannot reach private networks
 * anyway, and this refuses them when the URL is given, where the tenant can be told, and on any other
 * host the service runs on. Pure. `hostname` is as the URL parser writes it (IPv6 in brackets, IPv4
 * as four decimal parts).
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) return isLocalIpv6(host.slice(1, -1));
  const v4 = ipv4(host);
  if (v4) return isLocalIpv4(v4);
  // a name of one label (https://intranet/) is completed by the resolver's search domains: a local name
  if (!host.includes(".")) return true;
  return LOCAL_NAMES.some((name) => host === name || host.endsWith(`.${name}`));
}

const LOCAL_NAMES = ["localhost", "local", "internal", "home.arpa"];

function ipv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

/** The IPv4 ranges of RFC 6890 that no public host has. */
function isLocalIpv4([a, b, c]: number[]): boolean {
  return (
    a === 0 || // "this network"
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) || // shared address space (carrier-grade NAT)
    (a === 169 && b === 254) || // link-local, with the cloud metadata address
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 0 && c === 0) || // IETF protocol assignments
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast, reserved, broadcast
  );
}

/** The eight 16-bit groups of an IPv6 address as the URL parser writes it (compressed, hex). */
function ipv6Groups(text: string): number[] | null {
  const [head, tail, ...rest] = text.split("::");
  if (rest.length > 0) return null;
  const part = (s: string | undefined) => (s ? s.split(":").map((g) => Number.parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

function isLocalIpv6(text: string): boolean {
  const g = ipv6Groups(text);
  if (!g) return true; // not an address the parser writes: not one to send to
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  return (
    zeros(0, 6) || // unspecified, loopback, IPv4-compatible
    (zeros(0, 5) && g[5] === 0xffff) || // IPv4-mapped: an IPv4 address, written as IPv6
    (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) || // NAT64 of an IPv4 address
    (g[0] & 0xfe00) === 0xfc00 || // unique local
    (g[0] & 0xffc0) === 0xfe80 || // link-local
    (g[0] & 0xff00) === 0xff00 // multicast
  );
}
