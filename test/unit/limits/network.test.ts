import { describe, expect, it } from "vitest";
import { networkOf } from "../../../src/limits/network";

describe("networkOf: what a rate limit counts an address as", () => {
  it("counts an IPv4 address alone", () => {
    expect(networkOf("203.0.113.7")).toBe("203.0.113.7");
    expect(networkOf(" 203.0.113.7 ")).toBe("203.0.113.7");
  });

  it("counts every address of one IPv6 /64 as one network, however it is written", () => {
    const one = networkOf("2001:db8:0:1::1");
    expect(one).toBe("2001:db8:0:1::/64");
    for (const a of ["2001:db8:0:1::2", "2001:0DB8:0000:0001:ffff:ffff:ffff:ffff", "2001:db8::1:0:0:0:9", "2001:db8:0:1:0:0:0:0"])
      expect(networkOf(a), a).toBe(one);
    expect(networkOf("2001:db8:0:2::1")).not.toBe(one);
    expect(networkOf("::1")).toBe("0:0:0:0::/64");
    expect(networkOf("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
  });

  it("reads an IPv4-mapped IPv6 address as its IPv4 address", () => {
    expect(networkOf("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(networkOf("0:0:0:0:0:ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("keeps what is not an address as it came, so it is still counted", () => {
    for (const a of ["unknown", "1:2:3", "1::2::3", "1:2:3:4:5:6:7:8:9", "2001:db8::g"]) expect(networkOf(a)).toBe(a);
  });
});
