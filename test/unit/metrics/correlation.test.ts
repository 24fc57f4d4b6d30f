import { describe, expect, it } from "vitest";
import { kendallTauB, pearson, spearman } from "../../../src/metrics/correlation";
import { averageRanks } from "../../../src/metrics/ranks";
import { seededRandom } from "../../../src/random/seeded";

// Where expected values come from:
//   [hand]   worked by hand in the comment next to the assertion;
//   [wiki]   the worked example of Wikipedia's "Spearman's rank correlation coefficient" article;
//   [scipy]  scipy 1.17.1 pearsonr / spearmanr / kendalltau(variant="b"), printed by
//            test/unit/metrics/reference_values.py (same inputs, built by the same formulas);
//   [brute]  an O(n^2) tau-b written here straight from the definition, against the O(n log n) one.

/** tau-b from its definition: every pair classified, ties counted per side. */
function bruteTauB(x: number[], y: number[]): number | null {
  let concordant = 0;
  let discordant = 0;
  let tiedX = 0;
  let tiedY = 0;
  const n = x.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const product = Math.sign(x[i] - x[j]) * Math.sign(y[i] - y[j]);
      if (x[i] === x[j]) tiedX++;
      if (y[i] === y[j]) tiedY++;
      if (product > 0) concordant++;
      if (product < 0) discordant++;
    }
  }
  const pairs = (n * (n - 1)) / 2;
  if (n < 2 || pairs === tiedX || pairs === tiedY) return null;
  return (concordant - discordant) / Math.sqrt((pairs - tiedX) * (pairs - tiedY));
}

function expectSame(actual: number | null, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else expect(actual).toBeCloseTo(expected, 12);
}

// Sample A of reference_values.py: ties on both sides.
const humanA = [3.5, 5, 4, 5, 2.5, 4, 5, 3, 4.5, 5, 1, 4];
const judgeA = [6, 9, 7, 8, 5, 7, 9, 8, 6, 10, 2, 7];

function tiedSeries(n: number): { judge: number[]; human: number[] } {
  const human = Array.from({ length: n }, (_, i) => ((i * 7) % 11) / 2);
  const judge = Array.from({ length: n }, (_, i) => (((i * 5) % 13) % 6) + Math.floor(((i * 7) % 11) / 2));
  return { judge, human };
}

describe("pearson", () => {
  it("matches a hand-worked example", () => {
    // [hand] x=1..5, y=2,4,5,4,5: deviations (-2,-1,0,1,2) and (-2,0,1,0,1); sxy=6, sxx=10, syy=6,
    // r = 6 / sqrt(60) = sqrt(0.6).
    expect(pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])).toBeCloseTo(Math.sqrt(0.6), 14);
  });

  it("matches scipy on tied samples", () => {
    expect(pearson(judgeA, humanA)).toBeCloseTo(0.8687444855261386, 12); // [scipy]
    const s40 = tiedSeries(40);
    expect(pearson(s40.judge, s40.human)).toBeCloseTo(0.7300228738872833, 12); // [scipy]
    const s300 = tiedSeries(300);
    expect(pearson(s300.judge, s300.human)).toBeCloseTo(0.6676654562642069, 12); // [scipy]
  });

  it("is exactly +-1 for linear relations and unaffected by a large offset", () => {
    const x = [1, 2, 3, 4, 5, 6];
    expect(
      pearson(
        x,
        x.map((v) => 3 * v + 7),
      ),
    ).toBe(1);
    expect(
      pearson(
        x,
        x.map((v) => -2 * v),
      ),
    ).toBe(-1);
    // A one-pass formula loses this to cancellation; [hand] the offset cannot change r.
    expect(
      pearson(
        x.map((v) => v + 1e9),
        [2, 4, 5, 4, 5, 7],
      ),
    ).toBeCloseTo(pearson(x, [2, 4, 5, 4, 5, 7])!, 9);
  });

  it("is null when undefined", () => {
    expect(pearson([], [])).toBeNull();
    expect(pearson([1], [2])).toBeNull();
    expect(pearson([1, 2, 3], [4, 4, 4])).toBeNull();
    expect(pearson([0.1, 0.1, 0.1], [1, 2, 3])).toBeNull(); // mean is not exactly 0.1 in doubles
  });

  it("rejects mismatched or non-finite input", () => {
    expect(() => pearson([1, 2], [1])).toThrow(RangeError);
    expect(() => pearson([1, Number.NaN], [1, 2])).toThrow(RangeError);
  });
});

describe("averageRanks", () => {
  it("gives ties the mean of the ranks they span", () => {
    // [hand] sorted: 10(1) 20,20(2,3 -> 2.5) 30(4) 40,40,40(5,6,7 -> 6)
    expect([...averageRanks([40, 20, 10, 40, 30, 20, 40])]).toEqual([6, 2.5, 1, 6, 4, 2.5, 6]);
  });
});

describe("spearman", () => {
  it("matches Wikipedia's IQ / hours-of-TV example", () => {
    // [wiki] rho = -29/165 (no ties, so the d^2 formula and Pearson-on-ranks agree).
    const iq = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110];
    const tv = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17];
    expect(spearman(iq, tv)).toBeCloseTo(-29 / 165, 14);
  });

  it("matches scipy on tied samples", () => {
    expect(spearman(judgeA, humanA)).toBeCloseTo(0.793167457903196, 12); // [scipy]
    const s40 = tiedSeries(40);
    expect(spearman(s40.judge, s40.human)).toBeCloseTo(0.7336296641234961, 12); // [scipy]
    const s300 = tiedSeries(300);
    expect(spearman(s300.judge, s300.human)).toBeCloseTo(0.6548435578864833, 12); // [scipy]
  });

  it("is 1 for any increasing transform", () => {
    const x = [0.3, 1.2, 5, 7.5, 9];
    expect(
      spearman(
        x,
        x.map((v) => Math.exp(v)),
      ),
    ).toBe(1);
  });

  it("is null when undefined", () => {
    expect(spearman([1], [1])).toBeNull();
    expect(spearman([2, 2, 2], [1, 2, 3])).toBeNull();
  });
});

describe("kendallTauB", () => {
  it("matches a hand-worked example with ties", () => {
    // [hand] x=(1,2,2,3), y=(1,3,2,3). Pairs: (1,2) C, (1,3) C, (1,4) C, (2,3) x tie,
    // (2,4) y tie, (3,4) C. C=4, D=0, tiesX=1, tiesY=1, n0=6: tau-b = 4 / sqrt(5 * 5) = 0.8.
    expect(kendallTauB([1, 2, 2, 3], [1, 3, 2, 3])).toBeCloseTo(0.8, 14);
  });

  it("matches scipy on tied samples", () => {
    expect(kendallTauB(judgeA, humanA)).toBeCloseTo(0.6668859288553501, 12); // [scipy]
    const s40 = tiedSeries(40);
    expect(kendallTauB(s40.judge, s40.human)).toBeCloseTo(0.5835472144020931, 12); // [scipy]
    const s300 = tiedSeries(300);
    expect(kendallTauB(s300.judge, s300.human)).toBeCloseTo(0.509593949941167, 12); // [scipy]
  });

  it("agrees with the O(n^2) definition on random tied and untied inputs", () => {
    const random = seededRandom(20240611).next;
    for (let trial = 0; trial < 200; trial++) {
      const n = 2 + Math.floor(random() * 60);
      const levels = 1 + Math.floor(random() * 8); // few levels: many ties
      const x = Array.from({ length: n }, () => Math.floor(random() * levels));
      const y = Array.from({ length: n }, (_, i) => (random() < 0.5 ? x[i] : Math.floor(random() * levels)));
      const continuous = Array.from({ length: n }, () => random());
      expectSame(kendallTauB(x, y), bruteTauB(x, y));
      expectSame(kendallTauB(continuous, y), bruteTauB(continuous, y));
    }
  });

  it("is +-1 for (anti)monotone data and leaves its inputs untouched", () => {
    const x = [5, 1, 4, 2, 3];
    const y = [50, 10, 40, 20, 30];
    expect(kendallTauB(x, y)).toBe(1);
    expect(
      kendallTauB(
        x,
        y.map((v) => -v),
      ),
    ).toBe(-1);
    expect(x).toEqual([5, 1, 4, 2, 3]);
    expect(y).toEqual([50, 10, 40, 20, 30]);
  });

  it("is null when undefined", () => {
    expect(kendallTauB([], [])).toBeNull();
    expect(kendallTauB([1], [1])).toBeNull();
    expect(kendallTauB([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(kendallTauB([1, 2, 3], [7, 7, 7])).toBeNull();
  });

  it("agrees with the definition at n = 5000 and stays O(n log n) at n = 100000", () => {
    const random = seededRandom(7).next;
    const x = Array.from({ length: 5000 }, () => Math.floor(random() * 20));
    const y = x.map((v) => v + Math.floor(random() * 10));
    expectSame(kendallTauB(x, y), bruteTauB(x, y));
    // 5e9 pairs would take many seconds by enumeration; the merge sort needs ~2e6 steps.
    const big = Array.from({ length: 100_000 }, () => random());
    const started = performance.now();
    expect(
      kendallTauB(
        big,
        big.map((v) => v + random()),
      ),
    ).not.toBeNull();
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
