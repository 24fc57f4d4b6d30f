/**
 * The network a client address stands for, as rate limits count it: an IPv4 address alone, an IPv6
 * address by its /64. One IPv6 subscriber is given a /64 (or more) and may use any of its 2^64
 * addresses, so counting each address apart let one client send 256 answers to a public form as 256
 * "networks". An IPv4-mapped IPv6 address (::ffff:a.b.c.d) is its IPv4 address. Anything that does not
 * read as an address is returned as it came, so it is still counted, under its own name.
 */
export function networkOf(address: string): string {
  const text = address.trim().toLowerCase();
  if (!text.includes(":")) return text;
  const mapped = text.match(/^(?:0{0,4}:){0,5}(?::|0{0,4}:)?ffff:(\d{1,3}(?:\.\d{1,3}){3})$/);
  if (mapped) return mapped[1];
  const hextets = expandIpv6(text.replace(/%.*$/, ""));
  return hextets ? `${hextets.slice(0, 4).join(":")}::/64` : text;
}

/** The eight hextets of an IPv6 address, without leading zeros; null when it is not one. */
function expandIpv6(text: string): string[] | null {
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const part = (s: string) => (s === "" ? [] : s.split(":"));
  const head = part(halves[0]);
  const tail = halves.length === 2 ? part(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array.from({ length: halves.length === 2 ? missing : 0 }, () => "0"), ...tail];
  if (!all.every((h) => /^[0-9a-f]{1,4}$/.test(h))) return null;
  return all.map((h) => h.replace(/^0+(?=.)/, ""));
}
