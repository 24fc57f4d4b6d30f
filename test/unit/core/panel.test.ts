import { describe, expect, it } from "vitest";
import type { CallView, MatchView, Outcome } from "../../../src/core/outcome";
import { absences, combineVotes, matchesByJudge, panelAgreement, panelJudge } from "../../../src/core/panel";
import type { PanelVoteRecord } from "../../../src/core/types";
import { pearson } from "../../../src/metrics/correlation";

const match = (a: string, b: string | null, scoreA: number, scoreB: number | null, calls: CallView[] = []): MatchView => ({
  round: 1,
  a,
  b,
  scoreA,
  scoreB,
  winner: null,
  calls,
});
const answers = (scores: Record<string, number>): Outcome["answers"] =>
  Object.entries(scores).map(([id, score], i) => ({ id, score, scores: [], eliminatedInRound: null, rank: i + 1 }));

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

describe("combineVotes (all)", () => {
  it("averages the written scores position by position, and the deciding ones where any judge gave probabilities", () => {
    expect(combineVotes([{ scores: [8, 4] }, { scores: [6, 5] }])).toEqual({
      scores: [7, 4.5],
      expected: null,
      unheld: null,
      spread: null,
      parseRetried: false,
    });
    // one judge with expected scores: the other's written ones stand in for its expectation
    const mixed = combineVotes([
      { scores: [8, 4], expected: [7.6, 4.2], unheld: [7.5, 4.3], spread: [0.3, 0.4] },
      { scores: [6, 5], parseRetried: true },
    ]);
    expect(mixed).toEqual({ scores: [7, 4.5], expected: [6.8, 4.6], unheld: [6.75, 4.65], spread: null, parseRetried: true });
    expect(
      combineVotes([
        { scores: [1, 2], spread: [0.2, 0.4] },
        { scores: [3, 4], spread: [0.4, 0.2] },
      ]).spread,
    ).toEqual([0.30000000000000004, 0.30000000000000004]);
  });

  it("refuses no answer at all, and judges that scored different answers", () => {
    expect(() => combineVotes([])).toThrow(/answer/);
    expect(() => combineVotes([{ scores: [1, 2] }, { scores: [1] }])).toThrow(/same answers/);
  });
});

describe("panelAgreement", () => {
  it("cycle: splits the matches by the judge each was asked of, and compares each judge's scores with the panel's", () => {
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
    // a: w 9 vs 8, x mean(6, 6) = 6 vs 6, y 3 vs 4
    expect(report[0].meanAbsDiff).toBe(Math.round((1000 * (1 + 0 + 1)) / 3) / 1000);
  });

  it("cycle: a call's recorded judge wins over the turn (the next judge took the match of one that was down)", () => {
    const call = (judge: string): CallView => ({ order: ["w", "x"], scores: [9, 6], raw: "", expected: null, endpoint: null, judge });
    const matches = [match("w", "x", 9, 6, [call("b")]), match("y", "z", 5, 8, [call("b")])];
    expect(matchesByJudge(["a", "b"], matches).get("a")).toEqual([]);
    expect(matchesByJudge(["a", "b"], matches).get("b")).toEqual(matches);
  });

  it("says null for a judge with fewer than three answers scored", () => {
    const outcome = { answers: answers({ w: 8, x: 6, y: 4 }), matches: [match("w", "x", 9, 6)] };
    expect(panelAgreement(["a", "b"], outcome)).toEqual([
      { model: "a", matches: 1, answers: 2, pearson: null, meanAbsDiff: 0.5 },
      { model: "b", matches: 0, answers: 0, pearson: null, meanAbsDiff: null },
    ]);
  });

  it("all: rebuilds each judge's matches from its votes, re-derives its agreement, and counts the calls it missed", () => {
    const vote = (judge: string, scores: number[]): PanelVoteRecord => ({ judge, scores });
    const call = (order: [string, string], votes: PanelVoteRecord[]): CallView => ({
      order,
      scores: [0, 0],
      raw: "",
      expected: null,
      endpoint: null,
      votes,
    });
    // judge a grades w > x > y > z; judge r reverses it; c is down for the last call
    const matches = [
      match("w", "x", 0, 0, [
        call(["w", "x"], [vote("a", [9, 7]), vote("r", [2, 4]), vote("c", [8, 6])]),
        call(["x", "w"], [vote("a", [7, 9]), vote("r", [4, 2]), vote("c", [6, 8])]),
      ]),
      match("y", "z", 0, 0, [call(["y", "z"], [vote("a", [5, 3]), vote("r", [6, 8]), { judge: "c", absent: "down" }])]),
    ];
    const outcome = { answers: answers({ w: 6.3, x: 5.7, y: 5, z: 4.7 }), matches };
    const byJudge = matchesByJudge(["a", "r", "c"], matches, "all");
    expect(byJudge.get("a")!.map((m) => [m.scoreA, m.scoreB, m.winner])).toEqual([
      [9, 7, "w"],
      [5, 3, "y"],
    ]);
    expect(byJudge.get("c")!.length).toBe(1);
    const report = panelAgreement(["a", "r", "c"], outcome, "all");
    const panelScores = [6.3, 5.7, 5, 4.7];
    expect(report[0].pearson).toBe(Math.round(1000 * pearson([9, 7, 5, 3], panelScores)!) / 1000);
    expect(report[1].pearson).toBeLessThan(-0.9);
    expect(report[0].meanAbsDiff).toBe(Math.round((1000 * (2.7 + 1.3 + 0 + 1.7)) / 4) / 1000);
    expect(report[2]).toMatchObject({ matches: 1, answers: 2, pearson: null });
    expect([...absences(["a", "r", "c"], matches)]).toEqual([
      ["a", 0],
      ["r", 0],
      ["c", 1],
    ]);
  });
});
