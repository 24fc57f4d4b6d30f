import { describe, expect, it } from "vitest";
import { IPV4_SPECIAL, IPV6_SPECIAL, isLocalHost, LOCAL_NAMES } from "../../../src/webhooks/host";
import { webhookUrlProblem } from "../../../src/webhooks/url";

/** The host as the URL parser writes it, as the policy sees it. */
const hostOf = (url: string) => new URL(url).hostname;

/** One registry entry as the test reads it: its first and last address, whether they are refused, and public addresses just outside it. */
interface BlockCase {
  cidr: string;
  first: string;
  last: string;
  refused: boolean;
  outside: string[];
}

// the entries that lie outside 2000::/3 have no public neighbour: the nearest public addresses are the
// edges of global unicast
const globalUnicastEdges = ["2000::", "3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"];
const ietf = ["2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2001:200::"];

const ipv4Cases: BlockCase[] = [
  { cidr: "0.0.0.0/8", first: "0.0.0.0", last: "0.255.255.255", refused: true, outside: ["1.0.0.0"] },
  { cidr: "0.0.0.0/32", first: "0.0.0.0", last: "0.0.0.0", refused: true, outside: ["1.0.0.0"] },
  { cidr: "10.0.0.0/8", first: "10.0.0.0", last: "10.255.255.255", refused: true, outside: ["9.255.255.255", "11.0.0.0"] },
  { cidr: "100.64.0.0/10", first: "100.64.0.0", last: "100.127.255.255", refused: true, outside: ["100.63.255.255", "100.128.0.0"] },
  { cidr: "127.0.0.0/8", first: "127.0.0.0", last: "127.255.255.255", refused: true, outside: ["126.255.255.255", "128.0.0.0"] },
  { cidr: "169.254.0.0/16", first: "169.254.0.0", last: "169.254.255.255", refused: true, outside: ["169.253.255.255", "169.255.0.0"] },
  { cidr: "172.16.0.0/12", first: "172.16.0.0", last: "172.31.255.255", refused: true, outside: ["172.15.255.255", "172.32.0.0"] },
  { cidr: "192.0.0.0/24", first: "192.0.0.0", last: "192.0.0.255", refused: true, outside: ["191.255.255.255", "192.0.1.0"] },
  { cidr: "192.0.0.0/29", first: "192.0.0.0", last: "192.0.0.7", refused: true, outside: ["192.0.1.0"] },
  { cidr: "192.0.0.8/32", first: "192.0.0.8", last: "192.0.0.8", refused: true, outside: ["192.0.1.0"] },
  // globally reachable, but inside 192.0.0.0/24, which is not
  { cidr: "192.0.0.9/32", first: "192.0.0.9", last: "192.0.0.9", refused: true, outside: ["192.0.1.0"] },
  { cidr: "192.0.0.10/32", first: "192.0.0.10", last: "192.0.0.10", refused: true, outside: ["192.0.1.0"] },
  { cidr: "192.0.0.170/32", first: "192.0.0.170", last: "192.0.0.170", refused: true, outside: ["192.0.1.0"] },
  { cidr: "192.0.0.171/32", first: "192.0.0.171", last: "192.0.0.171", refused: true, outside: ["192.0.1.0"] },
  { cidr: "192.0.2.0/24", first: "192.0.2.0", last: "192.0.2.255", refused: true, outside: ["192.0.1.255", "192.0.3.0"] },
  // globally reachable: public
  { cidr: "192.31.196.0/24", first: "192.31.196.0", last: "192.31.196.255", refused: false, outside: ["192.31.195.255", "192.31.197.0"] },
  { cidr: "192.52.193.0/24", first: "192.52.193.0", last: "192.52.193.255", refused: false, outside: ["192.52.192.255", "192.52.194.0"] },
  { cidr: "192.88.99.0/24", first: "192.88.99.0", last: "192.88.99.255", refused: true, outside: ["192.88.98.255", "192.88.100.0"] },
  { cidr: "192.88.99.2/32", first: "192.88.99.2", last: "192.88.99.2", refused: true, outside: ["192.88.100.0"] },
  { cidr: "192.168.0.0/16", first: "192.168.0.0", last: "192.168.255.255", refused: true, outside: ["192.167.255.255", "192.169.0.0"] },
  { cidr: "192.175.48.0/24", first: "192.175.48.0", last: "192.175.48.255", refused: false, outside: ["192.175.47.255", "192.175.49.0"] },
  { cidr: "198.18.0.0/15", first: "198.18.0.0", last: "198.19.255.255", refused: true, outside: ["198.17.255.255", "198.20.0.0"] },
  { cidr: "198.51.100.0/24", first: "198.51.100.0", last: "198.51.100.255", refused: true, outside: ["198.51.99.255", "198.51.101.0"] },
  { cidr: "203.0.113.0/24", first: "203.0.113.0", last: "203.0.113.255", refused: true, outside: ["203.0.112.255", "203.0.114.0"] },
  { cidr: "224.0.0.0/4", first: "224.0.0.0", last: "239.255.255.255", refused: true, outside: ["223.255.255.255"] },
  { cidr: "240.0.0.0/4", first: "240.0.0.0", last: "255.255.255.255", refused: true, outside: ["223.255.255.255"] },
  { cidr: "255.255.255.255/32", first: "255.255.255.255", last: "255.255.255.255", refused: true, outside: ["223.255.255.255"] },
];

const ipv6Cases: BlockCase[] = [
  { cidr: "::/3", first: "::", last: "1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: globalUnicastEdges },
  { cidr: "4000::/2", first: "4000::", last: "7fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: globalUnicastEdges },
  { cidr: "8000::/1", first: "8000::", last: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: globalUnicastEdges },
  { cidr: "::1/128", first: "::1", last: "::1", refused: true, outside: globalUnicastEdges },
  { cidr: "::/128", first: "::", last: "::", refused: true, outside: globalUnicastEdges },
  { cidr: "::ffff:0:0/96", first: "::ffff:0:0", last: "::ffff:ffff:ffff", refused: true, outside: globalUnicastEdges },
  // globally reachable, but outside global unicast: NAT64 of 127.0.0.1 is 64:ff9b::7f00:1
  { cidr: "64:ff9b::/96", first: "64:ff9b::", last: "64:ff9b::ffff:ffff", refused: true, outside: globalUnicastEdges },
  { cidr: "64:ff9b:1::/48", first: "64:ff9b:1::", last: "64:ff9b:1:ffff:ffff:ffff:ffff:ffff", refused: true, outside: globalUnicastEdges },
  { cidr: "100::/64", first: "100::", last: "100::ffff:ffff:ffff:ffff", refused: true, outside: globalUnicastEdges },
  { cidr: "100:0:0:1::/64", first: "100:0:0:1::", last: "100::1:ffff:ffff:ffff:ffff", refused: true, outside: globalUnicastEdges },
  { cidr: "2001::/23", first: "2001::", last: "2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: ietf },
  { cidr: "2001::/32", first: "2001::", last: "2001:0:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: ietf },
  // globally reachable, but inside 2001::/23, which is not
  { cidr: "2001:1::1/128", first: "2001:1::1", last: "2001:1::1", refused: true, outside: ietf },
  { cidr: "2001:1::2/128", first: "2001:1::2", last: "2001:1::2", refused: true, outside: ietf },
  { cidr: "2001:1::3/128", first: "2001:1::3", last: "2001:1::3", refused: true, outside: ietf },
  { cidr: "2001:2::/48", first: "2001:2::", last: "2001:2:0:ffff:ffff:ffff:ffff:ffff", refused: true, outside: ietf },
  { cidr: "2001:3::/32", first: "2001:3::", last: "2001:3:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: ietf },
  { cidr: "2001:4:112::/48", first: "2001:4:112::", last: "2001:4:112:ffff:ffff:ffff:ffff:ffff", refused: true, outside: ietf },
  { cidr: "2001:10::/28", first: "2001:10::", last: "2001:1f:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: ietf },
  { cidr: "2001:20::/28", first: "2001:20::", last: "2001:2f:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: ietf },
  { cidr: "2001:30::/28", first: "2001:30::", last: "2001:3f:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: ietf },
  {
    cidr: "2001:db8::/32",
    first: "2001:db8::",
    last: "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
    refused: true,
    outside: ["2001:db7:ffff:ffff:ffff:ffff:ffff:ffff", "2001:db9::"],
  },
  {
    cidr: "2002::/16",
    first: "2002::",
    last: "2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
    refused: true,
    outside: ["2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "2003::"],
  },
  // globally reachable: public
  {
    cidr: "2620:4f:8000::/48",
    first: "2620:4f:8000::",
    last: "2620:4f:8000:ffff:ffff:ffff:ffff:ffff",
    refused: false,
    outside: ["2620:4f:7fff:ffff:ffff:ffff:ffff:ffff", "2620:4f:8001::"],
  },
  {
    cidr: "3fff::/20",
    first: "3fff::",
    last: "3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff",
    refused: true,
    outside: ["3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "3fff:1000::"],
  },
  { cidr: "5f00::/16", first: "5f00::", last: "5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: globalUnicastEdges },
  { cidr: "fc00::/7", first: "fc00::", last: "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: globalUnicastEdges },
  { cidr: "fe80::/10", first: "fe80::", last: "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: globalUnicastEdges },
  { cidr: "ff00::/8", first: "ff00::", last: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", refused: true, outside: globalUnicastEdges },
];

const nameCases: { name: string; hosts: string[] }[] = [
  { name: "localhost", hosts: ["localhost", "api.localhost"] },
  { name: "invalid", hosts: ["hooks.invalid"] },
  { name: "test", hosts: ["hooks.test"] },
  { name: "local", hosts: ["printer.local"] },
  { name: "onion", hosts: ["abc.onion"] },
  { name: "alt", hosts: ["hooks.alt"] },
  {
    name: "arpa",
    hosts: [
      "router.home.arpa",
      "ipv4only.arpa",
      "resolver.arpa",
      "x.service.arpa",
      "6tisch.arpa",
      "eap-noob.arpa",
      "1.0.0.10.in-addr.arpa",
      "b.e.f.ip6.arpa",
    ],
  },
  { name: "internal", hosts: ["metadata.google.internal"] },
  { name: "lan", hosts: ["nas.lan"] },
  { name: "home", hosts: ["router.home"] },
  { name: "corp", hosts: ["wiki.corp"] },
  { name: "intranet", hosts: ["hooks.intranet"] },
  { name: "private", hosts: ["hooks.private"] },
  { name: "localdomain", hosts: ["localhost.localdomain"] },
  { name: "svc", hosts: ["grader.default.svc"] },
];

/** The host as the URL parser writes it, as the policy sees it. */
const v4 = (ip: string) => isLocalHost(hostOf(`https://${ip}/`));
const v6 = (ip: string) => isLocalHost(hostOf(`https://[${ip}]/`));

describe("a webhook's host against IANA's special-purpose address registries, entry by entry", () => {
  it("has a case for every entry of the tables", () => {
    expect(ipv4Cases.map((c) => c.cidr)).toEqual(IPV4_SPECIAL.map((b) => b.cidr));
    expect(ipv6Cases.map((c) => c.cidr)).toEqual(IPV6_SPECIAL.map((b) => b.cidr));
    expect(nameCases.map((c) => c.name)).toEqual(LOCAL_NAMES.map((n) => n.name));
  });

  it.each(ipv4Cases)("IPv4 $cidr: first and last address refused unless globally reachable, public just outside", (c) => {
    expect(v4(c.first), c.first).toBe(c.refused);
    expect(v4(c.last), c.last).toBe(c.refused);
    for (const ip of c.outside) expect(v4(ip), ip).toBe(false);
  });

  it.each(ipv6Cases)("IPv6 $cidr: first and last address refused unless globally reachable, public just outside", (c) => {
    expect(v6(c.first), c.first).toBe(c.refused);
    expect(v6(c.last), c.last).toBe(c.refused);
    for (const ip of c.outside) expect(v6(ip), ip).toBe(false);
  });

  it.each(nameCases)(
    "names under .$name are refused, with or without a final dot, in any case; a public name holding the label is not",
    (c) => {
      for (const host of c.hosts) {
        expect(isLocalHost(hostOf(`https://${host}/`)), host).toBe(true);
        expect(isLocalHost(hostOf(`https://${host.toUpperCase()}./`)), host).toBe(true);
      }
      expect(isLocalHost(hostOf(`https://${c.name}.example.com/`))).toBe(false);
      expect(isLocalHost(hostOf(`https://my-${c.name}.com/`))).toBe(false);
    },
  );

  it("refuses the IPv6 forms that wrap a private IPv4, the reserved IPv6 and IPv4, and the names the attack used", () => {
    for (const ip of [
      "2002:7f00:1::1",
      "2002:a9fe:a9fe::",
      "2001::7f00:1",
      "64:ff9b:1::7f00:1",
      "64:ff9b::7f00:1",
      "::ffff:7f00:1",
      "::7f00:1",
      "fec0::",
      "100::",
      "2001:db8::",
    ])
      expect(v6(ip), ip).toBe(true);
    for (const ip of ["192.0.2.1", "192.88.99.1"]) expect(v4(ip), ip).toBe(true);
    for (const host of ["nas.lan", "box.localdomain", "api.default.svc", "hooks.test", "x.invalid", "intranet"])
      expect(isLocalHost(hostOf(`https://${host}/`)), host).toBe(true);
  });

  it("accepts public addresses and names, the documentation names of RFC 6761 §6.5 among them", () => {
    for (const ip of ["1.1.1.1", "8.8.8.8", "223.255.255.255"]) expect(v4(ip), ip).toBe(false);
    for (const ip of ["2606:4700:4700::1111", "2a00:1450::1"]) expect(v6(ip), ip).toBe(false);
    for (const name of ["example.com", "hooks.example.com", "owner.example", "localhost.example.com", "my-localhost.com", "bücher.example"])
      expect(isLocalHost(hostOf(`https://${name}/`)), name).toBe(false);
  });
});

describe("the webhook URL policy on local hosts", () => {
  it("refuses an https webhook to one, and allows localhost and 127.0.0.1 as written only with insecure webhooks allowed", () => {
    for (const url of [
      "https://169.254.169.254/latest/meta-data",
      "https://10.0.0.1/x",
      "https://[::1]/x",
      "https://[::ffff:7f00:1]/x",
      "https://localhost./x",
      "https://metadata.google.internal/x",
    ]) {
      expect(webhookUrlProblem(url, false), url).toMatch(/must name a public host/);
      expect(webhookUrlProblem(url, true), url).toMatch(/must name a public host/);
    }
    for (const url of ["https://localhost:8443/x", "https://127.0.0.1/x"]) {
      expect(webhookUrlProblem(url, false), url).toMatch(/must name a public host/);
      expect(webhookUrlProblem(url, true), url).toBeNull();
    }
    expect(webhookUrlProblem("https://hooks.example.com/x", false)).toBeNull();
  });
});
