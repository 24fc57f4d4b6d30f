import { describe, expect, it } from "vitest";
import { backoffDelay } from "../../../src/judge/backoff";

describe("backoff with full jitter", () => {
  it("doubles the ceiling each attempt up to the cap, and draws uniformly below it", () => {
    const top = (attempt: number) => backoffDelay(attempt, 100, 1_000, () => 0.999999);
    expect([1, 2, 3, 4, 5, 6].map(top)).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelay(3, 100, 1_000, () => 0)).toBe(0);
    expect(backoffDelay(3, 100, 1_000, () => 0.5)).toBe(200);
  });

  it("never exceeds the cap, even for huge attempt numbers", () => {
    for (let attempt = 1; attempt < 2_000; attempt += 37) {
      const d = backoffDelay(attempt, 1_000, 60_000);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(60_000);
    }
  });

  it("spreads out retries that failed at the same moment", () => {
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelay(6, 1_000, 60_000)));
    expect(delays.size).toBeGreaterThan(40);
  });
});
