import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { effectiveRateLimit, mintedLimits } from "../../../src/limits/key-limits";

const never = { rateLimitPerMinute: null, expiresAt: null };
const ask = (rateLimitPerMinute?: number, expiresAt?: number) => ({ rateLimitPerMinute, expiresAt });

describe("a key's limit in effect", () => {
  it("is its own, else the service's; 0 (or nothing sensible) is none", () => {
    expect(effectiveRateLimit(5, 60)).toBe(5);
    expect(effectiveRateLimit(null, 60)).toBe(60);
    expect(effectiveRateLimit(0, 60)).toBe(0);
    expect(effectiveRateLimit(null, 0)).toBe(0);
    expect(effectiveRateLimit(null, Number.NaN)).toBe(0);
  });
});

describe("the limits of a key a tenant makes for itself", () => {
  it("allows at most the minting key's own limit, and 0 (none) only to a key without one", () => {
    const five = { rateLimitPerMinute: 5, expiresAt: null };
    expect(mintedLimits(ask(5), five, 0)).toEqual({ ok: true, rateLimitPerMinute: 5, expiresAt: null });
    expect(mintedLimits(ask(1), five, 0)).toEqual({ ok: true, rateLimitPerMinute: 1, expiresAt: null });
    expect(mintedLimits(ask(6), five, 0)).toEqual({
      ok: false,
      errors: [{ field: "rateLimitPerMinute", reason: expect.stringMatching(/^must be at most 5, the limit of the key making it/) }],
    });
    expect(mintedLimits(ask(0), five, 0)).toEqual({
      ok: false,
      errors: [{ field: "rateLimitPerMinute", reason: expect.stringMatching(/^0 \(no limit\) is not allowed: at most 5/) }],
    });
    // the operator's "no limit" on the minting key: anything, none included
    const unlimited = { rateLimitPerMinute: 0, expiresAt: null };
    expect(mintedLimits(ask(0), unlimited, 60)).toEqual({ ok: true, rateLimitPerMinute: 0, expiresAt: null });
    expect(mintedLimits(ask(1_000_000), unlimited, 60)).toMatchObject({ ok: true, rateLimitPerMinute: 1_000_000 });
  });

  it("takes the service's RATE_LIMIT_PER_MINUTE as the ceiling of a key without a limit of its own", () => {
    expect(mintedLimits(ask(60), never, 60)).toMatchObject({ ok: true, rateLimitPerMinute: 60 });
    expect(mintedLimits(ask(61), never, 60)).toMatchObject({
      ok: false,
      errors: [
        { field: "rateLimitPerMinute", reason: expect.stringContaining("at most 60, the limit of the service's RATE_LIMIT_PER_MINUTE") },
      ],
    });
    expect(mintedLimits(ask(0), never, 60)).toMatchObject({ ok: false });
    // no service limit either: nothing to exceed
    expect(mintedLimits(ask(0), never, 0)).toMatchObject({ ok: true, rateLimitPerMinute: 0 });
  });

  it("gives a key that asks for no limit the minting key's own (null: both follow the service's)", () => {
    expect(mintedLimits(ask(), { rateLimitPerMinute: 5, expiresAt: null }, 60)).toEqual({
      ok: true,
      rateLimitPerMinute: 5,
      expiresAt: null,
    });
    expect(mintedLimits(ask(), never, 60)).toEqual({ ok: true, rateLimitPerMinute: null, expiresAt: null });
  });

  it("expires no later than the minting key, and takes its expiry when it names none", () => {
    const until = { rateLimitPerMinute: null, expiresAt: 10_000 };
    expect(mintedLimits(ask(undefined, 9_000), until, 0)).toEqual({ ok: true, rateLimitPerMinute: null, expiresAt: 9_000 });
    expect(mintedLimits(ask(undefined, 10_000), until, 0)).toMatchObject({ ok: true, expiresAt: 10_000 });
    expect(mintedLimits(ask(), until, 0)).toMatchObject({ ok: true, expiresAt: 10_000 });
    expect(mintedLimits(ask(undefined, 10_001), until, 0)).toEqual({
      ok: false,
      errors: [{ field: "expiresAt", reason: "must be at most 1970-01-01T00:00:10.000Z, when the key making it expires" }],
    });
    // both fields wrong: both named
    expect(mintedLimits(ask(9, 20_000), { rateLimitPerMinute: 3, expiresAt: 10_000 }, 0)).toMatchObject({
      ok: false,
      errors: [{ field: "rateLimitPerMinute" }, { field: "expiresAt" }],
    });
  });

  it("never makes a key less limited than the one making it", () => {
    const limit = fc.option(fc.integer({ min: 0, max: 1_000 }), { nil: null });
    const time = fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: null });
    fc.assert(
      fc.property(
        fc.record({ rateLimitPerMinute: limit, expiresAt: time }),
        fc.integer({ min: 0, max: 1_000 }),
        fc.option(fc.integer({ min: 0, max: 1_000 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 1_000_000 }), { nil: undefined }),
        (minter, service, rate, expiresAt) => {
          const minted = mintedLimits({ rateLimitPerMinute: rate, expiresAt }, minter, service);
          if (!minted.ok) return;
          const ceiling = effectiveRateLimit(minter.rateLimitPerMinute, service);
          const own = effectiveRateLimit(minted.rateLimitPerMinute, service);
          if (ceiling > 0) expect(own > 0 && own <= ceiling).toBe(true);
          if (minter.expiresAt !== null) expect(minted.expiresAt !== null && minted.expiresAt <= minter.expiresAt).toBe(true);
        },
      ),
    );
  });
});
