import { describe, expect, it } from "vitest";
import { gaussian, seededRandom, shuffle, streamFor } from "../../../src/random/seeded";
import { uniformInt } from "pure-rand/distribution/uniformInt";

describe("the one seeded generator", () => {
  it("gives the same draws for the same seed, and other draws for the next seed", () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const first = Array.from({ length: 100 }, () => a.next());
    expect(Array.from({ length: 100 }, () => b.next())).toEqual(first);
    const other = Array.from({ length: 100 }, () => c.next());
    expect(other.filter((x, i) => x === first[i])).toEqual([]);
  });

  it("draws uniform numbers in [0, 1) and integers in [0, n), each value about equally often", () => {
    const r = seededRandom(7);
    const counts = new Array(10).fill(0);
    for (let i = 0; i < 20_000; i++) {
      const x = r.next();
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
      counts[r.nextInt(10)]++;
    }
    // 2,000 expected per value; 5 standard deviations is about 212
    for (const n of counts) expect(Math.abs(n - 2_000)).toBeLessThan(212);
  });

  it("refuses a seed that is not a finite number, and takes any other modulo 2^32", () => {
    expect(() => seededRandom(Number.NaN)).toThrow(RangeError);
    expect(() => seededRandom(Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(seededRandom(2 ** 32 + 5).next()).toBe(seededRandom(5).next());
    expect(seededRandom(5.9).next()).toBe(seededRandom(5).next());
  });

  it("keeps a round's stream independent of the other rounds, so a replay redraws the same pairs", () => {
    const round2 = streamFor(9, 2);
    const draws = Array.from({ length: 5 }, () => uniformInt(round2, 0, 1_000_000));
    const again = streamFor(9, 2);
    expect(Array.from({ length: 5 }, () => uniformInt(again, 0, 1_000_000))).toEqual(draws);
    expect(shuffle([1, 2, 3, 4, 5, 6], 9, 2)).toEqual(shuffle([1, 2, 3, 4, 5, 6], 9, 2));
    expect(shuffle([1, 2, 3, 4, 5, 6], 9, 2).toSorted()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("draws normal numbers with mean 0 and variance 1", () => {
    const next = seededRandom(3).next;
    const xs = Array.from({ length: 20_000 }, () => gaussian(next));
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
    expect(Math.abs(mean)).toBeLessThan(0.04);
    expect(Math.abs(variance - 1)).toBeLessThan(0.05);
  });
});
