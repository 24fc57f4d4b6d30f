import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { admitStream, leaseMs, nextKeyCheckAt, releaseStream, renewStream, type StreamLease } from "../../../src/limits/stream-leases";

describe("a key's open event streams, as leases", () => {
  it("admits up to the cap, then refuses until one is given back", () => {
    let leases: StreamLease[] = [];
    for (const id of ["a", "b", "c"]) {
      const admitted = admitStream(leases, id, 3, 1_000);
      expect(admitted.allowed).toBe(true);
      leases = admitted.leases;
    }
    const refused = admitStream(leases, "d", 3, 1_000);
    expect(refused.allowed).toBe(false);
    expect(refused.leases.map((l) => l.id)).toEqual(["a", "b", "c"]);
    leases = releaseStream(leases, "b");
    expect(admitStream(leases, "d", 3, 1_000).allowed).toBe(true);
  });

  it("frees the place of a lease not renewed in time (a Worker that died with its stream), and keeps a renewed one", () => {
    let leases = admitStream([], "crashed", 2, 0).leases;
    leases = admitStream(leases, "alive", 2, 0).leases;
    leases = renewStream(leases, "alive", leaseMs - 1);
    expect(admitStream(leases, "new", 2, leaseMs - 1).allowed).toBe(false);
    const later = admitStream(leases, "new", 2, leaseMs);
    expect(later.allowed).toBe(true);
    expect(later.leases.map((l) => l.id)).toEqual(["alive", "new"]);
  });

  it("never holds more unexpired leases than the cap, whatever the order of opens, renewals and closes", () => {
    const step = fc.oneof(
      fc.record({ op: fc.constant("open" as const), id: fc.nat(20) }),
      fc.record({ op: fc.constant("renew" as const), id: fc.nat(20) }),
      fc.record({ op: fc.constant("close" as const), id: fc.nat(20) }),
      fc.record({ op: fc.constant("wait" as const), ms: fc.nat(2 * leaseMs) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.array(step, { maxLength: 60 }), (cap, steps) => {
        let leases: StreamLease[] = [];
        let now = 0;
        for (const s of steps) {
          if (s.op === "wait") now += s.ms;
          else if (s.op === "open") leases = admitStream(leases, `s${s.id}-${now}`, cap, now).leases;
          else if (s.op === "renew") leases = renewStream(leases, leases[s.id % Math.max(1, leases.length)]?.id ?? "", now);
          else leases = releaseStream(leases, leases[s.id % Math.max(1, leases.length)]?.id ?? "");
          expect(leases.filter((l) => l.expiresAt > now).length).toBeLessThanOrEqual(cap);
        }
      }),
    );
  });
});

describe("when an open stream looks at its key again", () => {
  it("every interval, or at the key's expiry when that comes first, never before now", () => {
    expect(nextKeyCheckAt(1_000, null, 30_000)).toBe(31_000);
    expect(nextKeyCheckAt(1_000, 100_000, 30_000)).toBe(31_000);
    expect(nextKeyCheckAt(1_000, 5_000, 30_000)).toBe(5_000);
    // expired already: at once
    expect(nextKeyCheckAt(1_000, 500, 30_000)).toBe(1_000);
    fc.assert(
      fc.property(fc.nat(1e9), fc.option(fc.nat(2e9), { nil: null }), fc.integer({ min: 1, max: 1e6 }), (now, expiresAt, every) => {
        const at = nextKeyCheckAt(now, expiresAt, every);
        expect(at).toBeGreaterThanOrEqual(now);
        expect(at).toBeLessThanOrEqual(now + every);
        if (expiresAt !== null && expiresAt >= now) expect(at).toBeLessThanOrEqual(expiresAt);
      }),
    );
  });
});
