import { describe, expect, it } from "vitest";
import type { MatchView } from "../../../src/core/outcome";
import { firstRoundLosers, placementMeasures } from "../../../src/core/placement-quality";

// A knockout of four answers on 0..10: a beats b and c beats d in round 1, a beats c in round 2, and
// one extra match b against d. Each match judged in both orders.
const call = (x: string, y: string, sx: number, sy: number) => ({
  order: [x, y],
  scores: [sx, sy],
  expected: null,
  raw: "",
  endpoint: null,
});
const match = (round: number, a: string, b: string, sa: number, sb: number, extra = false): MatchView => ({
  round,
  a,
  b,
  scoreA: sa,
  scoreB: sb,
  winner: sa >= sb ? a : b,
  calls: [call(a, b, sa + 0.5, sb - 0.5), call(b, a, sb + 0.5, sa - 0.5)],
  ...(extra ? { extra: true } : {}),
});
const matches = [match(1, "a", "b", 8, 4), match(1, "c", "d", 6, 3), match(2, "a", "c", 7.5, 6.5), match(3, "b", "d", 4.5, 2.5, true)];
const scores = new Map([
  ["a", 7.75],
  ["b", 4.25],
  ["c", 6.25],
  ["d", 2.75],
]);
const question = {
  id: "q",
  maxScore: 10,
  answers: [
    { id: "a", human: 9 },
    { id: "b", human: 5 },
    { id: "c", human: 6 },
    { id: "d", human: 2 },
  ],
};

describe("the placement measures of the quality bench", () => {
  it("finds the first-round losers, not the losers of later rounds or extra matches", () => {
    expect([...firstRoundLosers(matches)].sort()).toEqual(["b", "d"]);
  });

  it("count the losers with an extra match, and whose interval covers the long-run mean", () => {
    // b's long-run mean is its score (inside any interval around it); d's is far off the scale's end
    const longRun = new Map([
      ["a", 7.75],
      ["b", 4.25],
      ["c", 6.25],
      ["d", 9.9],
    ]);
    const m = placementMeasures([{ question, matches, scores, longRun, step: 0.5 }]);
    expect(m).toMatchObject({ answers: 4, firstRoundLosers: 2, losersWithExtra: 2, losersCovered: 0.5, allCovered: 0.75 });
    // b 0, d 2.75 - 9.9 on a scale of 10
    expect(m.losersShortfall).toBeCloseTo((0 + (2.75 - 9.9)) / 10 / 2, 12);
    expect(m.pearson).toBeGreaterThan(0.9);
  });

  it("count a loser without an extra match as such", () => {
    // without the extra match, b's and d's scores are those of the matches they lost
    const knockoutScores = new Map([...scores, ["b", 4], ["d", 3]]);
    const m = placementMeasures([{ question, matches: matches.slice(0, 3), scores: knockoutScores, longRun: knockoutScores, step: 0.5 }]);
    expect(m).toMatchObject({ firstRoundLosers: 2, losersWithExtra: 0, losersCovered: 1, losersShortfall: 0, allCovered: 1 });
  });
});
