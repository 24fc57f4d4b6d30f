import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/platform/config";
import { MAX_REFUSAL_HOLD_MS, ReadBudgets, refusalPace, utf8Bytes } from "../../../src/limits/read-budget";
import { isFull, level, retryAfterSeconds, spend } from "../../../src/limits/token-bucket";

const MB = 1_000_000;
/** The defaults: 1 MB a second, bursts of 4 MB. */
const refill = { perMs: MB / 1000, burst: 4 * MB };

describe("a token bucket of bytes", () => {
  it("starts full, lets reads through while it holds their size, and refuses the first it cannot pay", () => {
    let t = spend(null, refill, 1.5 * MB, 0);
    expect(t).toMatchObject({ allowed: true, bucket: { tokens: 2.5 * MB, at: 0 } });
    t = spend(t.bucket, refill, 1.5 * MB, 0);
    expect(t).toMatchObject({ allowed: true, bucket: { tokens: MB } });
    const refused = spend(t.bucket, refill, 1.5 * MB, 0);
    // half a megabyte short at 1 MB/s: half a second
    expect(refused).toMatchObject({ allowed: false, retryAfterMs: 500 });
  });

  it("charges nothing for a refusal: the wait it names is enough, and a shorter one is not", () => {
    const empty = spend(null, refill, 4 * MB, 0).bucket;
    const refused = spend(empty, refill, 1.5 * MB, 0);
    expect(refused.bucket.tokens).toBe(0);
    const again = spend(refused.bucket, refill, 1.5 * MB, 1_000);
    expect(again).toMatchObject({ allowed: false, retryAfterMs: 500 });
    expect(spend(again.bucket, refill, 1.5 * MB, 1_499).allowed).toBe(false);
    expect(spend(again.bucket, refill, 1.5 * MB, 1_500).allowed).toBe(true);
  });

  it("refills at its rate up to the burst, never beyond", () => {
    const empty = spend(null, refill, 4 * MB, 0).bucket;
    expect(level(empty, refill, 250)).toBe(0.25 * MB);
    expect(level(empty, refill, 3_000)).toBe(3 * MB);
    expect(level(empty, refill, 60_000)).toBe(4 * MB);
    expect(isFull(empty, refill, 3_999)).toBe(false);
    expect(isFull(empty, refill, 4_000)).toBe(true);
    // a clock that goes back gives nothing
    expect(level({ tokens: MB, at: 1_000 }, refill, 0)).toBe(MB);
  });

  it("takes a read larger than the burst as the whole burst: it passes when the bucket is full, never before", () => {
    expect(spend(null, refill, 9 * MB, 0)).toMatchObject({ allowed: true, bucket: { tokens: 0 } });
    const partly = { tokens: 3 * MB, at: 0 };
    expect(spend(partly, refill, 9 * MB, 0)).toMatchObject({ allowed: false, retryAfterMs: 1_000 });
    expect(spend(partly, refill, 9 * MB, 1_000).allowed).toBe(true);
  });

  it("rounds Retry-After up to whole seconds, at least 1", () => {
    expect([0, 1, 500, 1_000, 1_001, 2_500].map(retryAfterSeconds)).toEqual([1, 1, 1, 1, 2, 3]);
  });
});

describe("read budgets by reader", () => {
  const budget = { bytesPerSecond: MB, burstBytes: 4 * MB };

  it("give each reader a bucket of its own", () => {
    const budgets = new ReadBudgets(budget);
    expect(budgets.charge("k1", 4 * MB, 0).allowed).toBe(true);
    expect(budgets.charge("k1", MB, 0)).toEqual({ allowed: false, retryAfterMs: 1_000 });
    expect(budgets.charge("k2", 4 * MB, 0).allowed).toBe(true);
    expect(budgets.charge("k1", MB, 1_000).allowed).toBe(true);
  });

  it("forget a reader once its bucket has filled again, so idle readers hold no memory", () => {
    const budgets = new ReadBudgets(budget);
    budgets.charge("k1", 2 * MB, 0);
    budgets.charge("k2", 2 * MB, 1_000);
    expect(budgets.size).toBe(2);
    // k1 is full again 2 s after its read, k2 at 3 s
    budgets.charge("k3", MB, 2_500);
    expect(budgets.size).toBe(2);
    budgets.charge("k3", MB, 3_000);
    expect(budgets.size).toBe(1);
    // forgotten is the same as full: k1 has its whole burst
    expect(budgets.charge("k1", 4 * MB, 3_000).allowed).toBe(true);
  });

  it("stay bounded when a caller cycles through keys faster than their buckets refill", () => {
    const budgets = new ReadBudgets(budget, 8);
    for (let i = 0; i < 1_000; i++) budgets.charge(`k${i}`, MB, i);
    expect(budgets.size).toBe(8);
    // the readers kept are the most recent: the last one is still short of its burst
    expect(budgets.charge("k999", 4 * MB, 999)).toEqual({ allowed: false, retryAfterMs: 1_000 });
  });

  it("keep a reader that reads often, even past the cap, and let go of the one seen least recently", () => {
    const budgets = new ReadBudgets(budget, 2);
    budgets.charge("steady", MB, 0);
    budgets.charge("a", MB, 1);
    budgets.charge("steady", MB, 2);
    budgets.charge("b", MB, 3);
    expect(budgets.size).toBe(2);
    // "a" went, "steady" stayed, with its 2 MB spent (less what came back in 3 ms)
    expect(budgets.charge("steady", 3 * MB, 3).allowed).toBe(false);
  });
});

describe("a refused read's pace", () => {
  it("holds the refusal for the wait, up to a second, and names the rest as Retry-After, at least 1 s", () => {
    expect(MAX_REFUSAL_HOLD_MS).toBe(1_000);
    expect(refusalPace(300)).toEqual({ holdMs: 300, retryAfterSeconds: 1 });
    expect(refusalPace(1_000)).toEqual({ holdMs: 1_000, retryAfterSeconds: 1 });
    expect(refusalPace(1_400)).toEqual({ holdMs: 1_000, retryAfterSeconds: 1 });
    expect(refusalPace(3_500)).toEqual({ holdMs: 1_000, retryAfterSeconds: 3 });
    expect(refusalPace(3_500, 0)).toEqual({ holdMs: 0, retryAfterSeconds: 4 });
  });

  it("never asks a client that honours it to wait less than the budget needs", () => {
    for (let ms = 0; ms <= 10_000; ms += 37) {
      const { holdMs, retryAfterSeconds } = refusalPace(ms);
      expect(holdMs).toBeGreaterThanOrEqual(0);
      expect(holdMs).toBeLessThanOrEqual(MAX_REFUSAL_HOLD_MS);
      expect(holdMs + retryAfterSeconds * 1000).toBeGreaterThanOrEqual(ms);
      // and less than a second more (Retry-After is in whole seconds), or the 1 s floor
      expect(holdMs + retryAfterSeconds * 1000).toBeLessThanOrEqual(Math.max(ms + 999, holdMs + 1_000));
    }
  });
});

describe("the size of a read", () => {
  it("is the text's length in UTF-8", () => {
    for (const text of ["", "plain ascii", "é", "größer", "€100", "日本語の答え", "emoji 🙂 and 𝄞", '{"a":"\\u0000"}']) {
      expect(utf8Bytes(text)).toBe(Buffer.byteLength(text, "utf8"));
    }
  });
});

describe("the read budget's settings", () => {
  it("default to 1 MB a second and bursts of 4 MB, take other values, and are off with a rate of 0", () => {
    expect(readConfig({} as never).liveReadBudget).toEqual({ bytesPerSecond: 1_000_000, burstBytes: 4_000_000 });
    expect(readConfig({ LIVE_READ_BYTES_PER_S: "", LIVE_READ_BURST_BYTES: "nonsense" } as never).liveReadBudget).toEqual({
      bytesPerSecond: 1_000_000,
      burstBytes: 4_000_000,
    });
    expect(readConfig({ LIVE_READ_BYTES_PER_S: "250000", LIVE_READ_BURST_BYTES: "500000" } as never).liveReadBudget).toEqual({
      bytesPerSecond: 250_000,
      burstBytes: 500_000,
    });
    expect(readConfig({ LIVE_READ_BYTES_PER_S: "0" } as never).liveReadBudget).toBeNull();
  });
});
