import { describe, expect, it } from "vitest";
import { pairwiseRankingAccuracy } from "../../../src/metrics/ranking-accuracy";

// Expected values: [hand] worked in the comments; [python] brute-force pair enumeration with
// numpy.sign in test/unit/metrics/reference_values.py ("ranking accuracy sample A").

describe("pairwiseRankingAccuracy (Kocmi et al. 2021)", () => {
  it("counts pairs whose judge and human differences have the same sign", () => {
    // [hand] human order A > B > C; the judge swaps B and C. Pairs AB ok, AC ok, BC wrong: 2/3.
    const result = pairwiseRankingAccuracy([10, 5, 6], [3, 2, 1]);
    expect(result).toMatchObject({ accuracy: 2 / 3, agreeingPairs: 2, countedPairs: 3, totalPairs: 3, humanTiedPairs: 0 });
  });

  it("excludes human-tied pairs by default and can include them", () => {
    // [hand] human (2, 2, 1): pair AB tied. Judge (5, 5, 9).
    // exclude: AC wrong (5 < 9 but 2 > 1), BC wrong -> 0 of 2.
    // include: AB agrees (both tie), AC, BC wrong -> 1 of 3.
    expect(pairwiseRankingAccuracy([5, 5, 9], [2, 2, 1])).toMatchObject({ accuracy: 0, countedPairs: 2, humanTiedPairs: 1 });
    expect(pairwiseRankingAccuracy([5, 5, 9], [2, 2, 1], { humanTies: "include" })).toMatchObject({
      accuracy: 1 / 3,
      agreeingPairs: 1,
      countedPairs: 3,
      humanTies: "include",
    });
  });

  it("counts a judge tie against a human preference as disagreement", () => {
    // [hand] human (3, 1), judge (4, 4): sign 0 vs sign +1.
    expect(pairwiseRankingAccuracy([4, 4], [3, 1])).toMatchObject({ accuracy: 0, judgeOnlyTiedPairs: 1 });
  });

  it("matches brute-force enumeration on a tied sample", () => {
    const human = [3.5, 5, 4, 5, 2.5, 4, 5, 3, 4.5, 5, 1, 4];
    const judge = [6, 9, 7, 8, 5, 7, 9, 8, 6, 10, 2, 7];
    expect(pairwiseRankingAccuracy(judge, human)).toMatchObject({ agreeingPairs: 47, countedPairs: 57, totalPairs: 66 }); // [python]
    expect(pairwiseRankingAccuracy(judge, human, { humanTies: "include" })).toMatchObject({ agreeingPairs: 51, countedPairs: 66 }); // [python]
  });

  it("is null when no pair is counted", () => {
    expect(pairwiseRankingAccuracy([], []).accuracy).toBeNull();
    expect(pairwiseRankingAccuracy([1], [1]).accuracy).toBeNull();
    expect(pairwiseRankingAccuracy([1, 2, 3], [4, 4, 4]).accuracy).toBeNull();
    expect(pairwiseRankingAccuracy([1, 2, 3], [4, 4, 4], { humanTies: "include" }).accuracy).toBe(0);
  });

  it("rejects mismatched or non-finite input", () => {
    expect(() => pairwiseRankingAccuracy([1], [1, 2])).toThrow(RangeError);
    expect(() => pairwiseRankingAccuracy([1, Infinity], [1, 2])).toThrow(RangeError);
  });
});
