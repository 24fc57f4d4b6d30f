import { describe, expect, it } from "vitest";
import { isLocalHost } from "../../../src/webhooks/host";
import { webhookUrlProblem } from "../../../src/webhooks/url";

/** The host as the URL parser writes it, as the policy sees it. */
const hostOf = (url: string) => new URL(url).hostname;

describe("a webhook's host: public, or this machine, a private network or a local name", () => {
  it("is local for every loopback, private, link-local, shared, multicast and reserved IPv4 range", () => {
    for (const ip of [
      "0.0.0.0",
      "0.1.2.3",
      "10.0.0.1",
      "10.255.255.255",
      "100.64.0.1",
      "100.127.255.254",
      "127.0.0.1",
      "127.8.9.10",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.0.0.8",
      "192.168.1.1",
      "198.18.0.1",
      "198.19.255.255",
      "224.0.0.1",
      "239.255.255.250",
      "240.0.0.1",
      "255.255.255.255",
    ])
      expect(isLocalHost(hostOf(`https://${ip}/`)), ip).toBe(true);
  });

  it("is public just outside those ranges", () => {
    for (const ip of [
      "1.1.1.1",
      "9.255.255.255",
      "11.0.0.0",
      "100.63.255.255",
      "100.128.0.0",
      "169.253.0.1",
      "172.15.255.255",
      "172.32.0.0",
      "192.0.2.1",
      "192.167.0.1",
      "198.17.0.1",
      "198.20.0.1",
      "203.0.113.7",
      "223.255.255.255",
    ])
      expect(isLocalHost(hostOf(`https://${ip}/`)), ip).toBe(false);
  });

  it("is local for IPv6 loopback, unspecified, IPv4 written as IPv6, unique local, link-local and multicast", () => {
    for (const ip of [
      "::1",
      "::",
      "::ffff:7f00:1",
      "::ffff:a9fe:a9fe",
      "::7f00:1",
      "64:ff9b::7f00:1",
      "fc00::1",
      "fd12:3456::1",
      "fe80::1",
      "febf::1",
      "ff02::1",
    ])
      expect(isLocalHost(hostOf(`https://[${ip}]/`)), ip).toBe(true);
    for (const ip of ["2001:db8::1", "2606:4700:4700::1111", "fec0::1", "fbff::1", "1::"])
      expect(isLocalHost(hostOf(`https://[${ip}]/`)), ip).toBe(false);
  });

  it("is local for the names kept for local use, with or without a final dot, in any case", () => {
    for (const name of [
      "localhost",
      "LOCALHOST",
      "localhost.",
      "api.localhost",
      "printer.local",
      "metadata.google.internal",
      "router.home.arpa",
    ])
      expect(isLocalHost(hostOf(`https://${name}/`)), name).toBe(true);
    for (const name of ["example.com", "localhost.example.com", "internal.example.com", "my-localhost.com", "bücher.example"])
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
