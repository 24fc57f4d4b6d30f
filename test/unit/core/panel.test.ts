import { describe, expect, it } from "vitest";
import type { MatchView, Outcome } from "../../../src/core/outcome";
import { matchesByJudge, panelAgreement, panelJudge } from "../../../src/core/panel";

const match = (a: string, b: string | null, scoreA: number, scoreB: number | null): MatchView => ({
  round: 1,
  a,
  b,
  scoreA,
  scoreB,
  winner: null,
  calls: [],
});

describe("panelJudge (cycle)", () => {
  it("gives each match to the next judge in turn", () => {
    expect([0, 1, 2, 3, 4].map((m) => panelJudge(["a", "b", "c"], m))).toEqual(["a", "b", "c", "a", "b"]);
  });

  it("a panel of one is a plain judge", () => {
    expect([0, 7].map((m) => panelJudge(["solo"], m))).toEqual(["solo", "solo"]);
  });

  it("refuses an empty panel and a place that is not a match index", () => {
    expect(() => panelJudge([], 0)).toThrow(/judge/);
    expect(() => panelJudge(["a"], -1)).toThrow(/match/);
  });
});

describe("panelAgreement", () => {
  const answers = (scores: Record<string, number>): Outcome["answers"] =>
    Object.entries(scores).map(([id, score], i) => ({ id, score, scores: [], eliminatedInRound: null, rank: i + 1 }));

  it("splits the matches by judge, and compares each judge's scores with the panel's", () => {
    // judge a plays matches 0 and 2, judge b match 1 and 3: a agrees with the panel's order, b reverses it
    const matches = [match("w", "x", 9, 6), match("y", "z", 5, 8), match("x", "y", 6, 3), match("w", "z", 2, 9)];
    const outcome = { answers: answers({ w: 8, x: 6, y: 4, z: 2 }), matches };
    expect(matchesByJudge(["a", "b"], matches).get("a")).toEqual([matches[0], matches[2]]);
    const report = panelAgreement(["a", "b"], outcome);
    expect(report.map((j) => [j.model, j.matches, j.answers])).toEqual([
      ["a", 2, 3],
      ["b", 2, 3],
    ]);
    expect(report[0].pearson).toBeGreaterThan(0.9);
    expect(report[1].pearson).toBeLessThan(-0.9);
  });

  it("says null for a judge with fewer than three answers scored", () => {
    const outcome = { answers: answers({ w: 8, x: 6, y: 4 }), matches: [match("w", "x", 9, 6)] };
    expect(panelAgreement(["a", "b"], outcome)).toEqual([
      { model: "a", matches: 1, answers: 2, pearson: null },
      { model: "b", matches: 0, answers: 0, pearson: null },
    ]);
  });
});
