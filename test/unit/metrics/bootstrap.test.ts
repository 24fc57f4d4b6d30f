import { describe, expect, it } from "vitest";
import { bootstrapInterval, bootstrapIntervals, quantileOfSorted } from "../../../src/metrics/bootstrap";
import { pearson } from "../../../src/metrics/correlation";
import { seededRandom } from "../../../src/random/seeded";

// Expected values: [numpy] numpy 2.4.6 np.percentile (default linear method), printed by
// test/unit/metrics/reference_values.py ("percentiles"); [theory] the normal-approximation
// standard error of a mean, sd / sqrt(n), which a percentile bootstrap of the mean must reproduce.

const mean = (values: readonly number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

describe("quantileOfSorted", () => {
  it("interpolates linearly like numpy.percentile", () => {
    const sorted = Float64Array.from([0.3, -0.1, 0.7, 0.2, 0.9, 0.4, 0.4]).sort();
    const expected = [-0.05499999999999999, 0.25, 0.4, 0.8699999999999999]; // [numpy]
    [0.025, 0.25, 0.5, 0.975].forEach((p, i) => expect(quantileOfSorted(sorted, p)).toBeCloseTo(expected[i], 14));
    expect(quantileOfSorted(Float64Array.of(5), 0.3)).toBe(5);
  });
});

describe("bootstrapInterval", () => {
  const random = seededRandom(99).next;
  const values = Array.from({ length: 400 }, () => random());

  it("is deterministic for a seed and changes with it", () => {
    const a = bootstrapInterval(values, mean, { seed: 7 });
    const b = bootstrapInterval(values, mean, { seed: 7 });
    const c = bootstrapInterval(values, mean, { seed: 8 });
    expect(a).toEqual(b);
    expect(a).not.toEqual(c);
  });

  it("contains the estimate and has the width normal theory predicts for a mean", () => {
    const estimate = mean(values)!;
    const ci = bootstrapInterval(values, mean)!;
    expect(ci.low).toBeLessThan(estimate);
    expect(ci.high).toBeGreaterThan(estimate);
    expect(ci).toMatchObject({ confidence: 0.95, definedResamples: 1000, undefinedResamples: 0 });
    // [theory] width of a 95% interval = 2 * 1.96 * sd / sqrt(n); 1000 resamples get within ~10%.
    const sd = Math.sqrt(values.reduce((s, v) => s + (v - estimate) ** 2, 0) / (values.length - 1));
    const expectedWidth = (2 * 1.959964 * sd) / Math.sqrt(values.length);
    expect((ci.high - ci.low) / expectedWidth).toBeGreaterThan(0.9);
    expect((ci.high - ci.low) / expectedWidth).toBeLessThan(1.1);
    const narrower = bootstrapInterval(values, mean, { confidence: 0.5 })!;
    expect(narrower.high - narrower.low).toBeLessThan(ci.high - ci.low);
  });

  it("resamples whole clusters", () => {
    // Each unit is a cluster of (judge, human) pairs; the statistic pools the drawn clusters.
    const clusters = Array.from({ length: 30 }, (_, q) =>
      Array.from({ length: 8 }, () => {
        const human = Math.floor(random() * 6);
        return [human + q * 0.1 + random() * 2, human] as const;
      }),
    );
    const pooled = (drawn: readonly (readonly (readonly [number, number])[])[]) => {
      const pairs = drawn.flat();
      return pearson(
        pairs.map((p) => p[0]),
        pairs.map((p) => p[1]),
      );
    };
    const estimate = pooled(clusters)!;
    const ci = bootstrapInterval(clusters, pooled, { resamples: 500, seed: 3 })!;
    expect(ci.definedResamples).toBe(500);
    expect(ci.low).toBeLessThan(estimate);
    expect(ci.high).toBeGreaterThan(estimate);
  });

  it("counts resamples where the statistic is undefined", () => {
    // [hand] with units (1, 1, 2) a resample is all-equal with probability (2/3)^3 + (1/3)^3 = 1/3.
    const spread = (drawn: readonly number[]) => (new Set(drawn).size < 2 ? null : Math.max(...drawn) - Math.min(...drawn));
    const ci = bootstrapInterval([1, 1, 2], spread, { resamples: 3000 })!;
    expect(ci.definedResamples + ci.undefinedResamples).toBe(3000);
    expect(ci.undefinedResamples / 3000).toBeCloseTo(1 / 3, 1);
    expect(ci).toMatchObject({ low: 1, high: 1 });
  });

  it("is null with no units or a statistic never defined, and rejects bad options", () => {
    expect(bootstrapInterval([], mean)).toBeNull();
    expect(bootstrapInterval([1, 2, 3], () => null)).toBeNull();
    expect(() => bootstrapInterval(values, mean, { resamples: 0 })).toThrow(RangeError);
    expect(() => bootstrapInterval(values, mean, { confidence: 1 })).toThrow(RangeError);
    expect(() => bootstrapInterval(values, mean, { seed: 0.5 })).toThrow(RangeError);
  });
});

describe("bootstrapIntervals", () => {
  it("draws several statistics from the same resamples", () => {
    const values = [1, 4, 2, 8, 5, 7, 3, 6];
    const both = bootstrapIntervals(values, (drawn) => ({ mean: mean(drawn), twice: mean(drawn)! * 2 }), { seed: 11 });
    expect(both.twice!.low).toBeCloseTo(2 * both.mean!.low, 12);
    expect(both.twice!.high).toBeCloseTo(2 * both.mean!.high, 12);
    // And the single-statistic form with the same seed sees the same draws.
    expect(bootstrapInterval(values, mean, { seed: 11 })).toEqual(both.mean);
  });

  it("names every statistic even with no units", () => {
    expect(bootstrapIntervals([] as number[], (drawn) => ({ a: mean(drawn), b: null }))).toEqual({ a: null, b: null });
  });
});
