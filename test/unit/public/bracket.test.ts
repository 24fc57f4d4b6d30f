import { describe, expect, it } from "vitest";
// @ts-expect-error plain JS module of the web front
import { bracketRounds, roundSizes } from "../../../public/js/bracket.js";
// @ts-expect-error plain JS module of the web front
import { finalGradeText, histogram, rankingCsv } from "../../../public/js/results.js";
import { startKnockout } from "../../../src/core/knockout";
import { changedMatches, liveMatches } from "../../../src/live/view";

describe("the bracket's shape", () => {
  it("has as many matches per round as the knockout core makes, for every n up to 64", () => {
    for (let n = 2; n <= 64; n++) {
      const sizes: number[] = roundSizes(n);
      expect(
        sizes.reduce((a, b) => a + b, 0),
        `n=${n}`,
      ).toBe(n - 1);
      expect(sizes.length, `n=${n}`).toBe(Math.ceil(Math.log2(n)));
      expect(sizes[0], `n=${n}`).toBe(
        startKnockout(
          Array.from({ length: n }, (_, i) => `x${i}`),
          { seed: 1, debias: false },
        ).matches.length,
      );
    }
    expect(roundSizes(7)).toEqual([3, 2, 1]);
  });

  it("fills the rounds with the matches made so far and leaves slots for the rest", () => {
    const m = (index: number, round: number) => ({
      index,
      round,
      a: `a${index}`,
      b: `b${index}`,
      scoreA: null,
      scoreB: null,
      winner: null,
      callsDone: 0,
    });
    const rounds = bracketRounds("knockout", 7, [m(1, 1), m(0, 1), m(2, 1), m(3, 2)]);
    expect(rounds.map((r: any) => r.slots.map((s: any) => s?.index ?? null))).toEqual([[0, 1, 2], [3, null], [null]]);
  });

  it("shows who sits a round out, once the round's matches are made", () => {
    const m = (index: number, round: number, a: string, b: string, winner: string | null) => ({
      index,
      round,
      a,
      b,
      scoreA: 1,
      scoreB: 2,
      winner,
      callsDone: 2,
    });
    const ids = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"];
    const r1 = [m(0, 1, "p1", "p2", "p2"), m(1, 1, "p3", "p4", "p4"), m(2, 1, "p5", "p6", null)];
    expect(bracketRounds("knockout", 7, r1, ids).map((r: any) => r.byes)).toEqual([["p7"], [], []]);
    const r2 = [...r1.slice(0, 2), m(2, 1, "p5", "p6", "p5"), m(3, 2, "p2", "p7", null), m(4, 2, "p4", "p5", null)];
    expect(bracketRounds("knockout", 7, r2, ids).map((r: any) => r.byes)).toEqual([["p7"], [], []]);
    // 5 answers: one bye in round 1, one in round 2
    const five = [m(0, 1, "p1", "p2", "p1"), m(1, 1, "p3", "p4", "p3"), m(2, 2, "p5", "p1", "p5")];
    expect(bracketRounds("knockout", 5, five, ids.slice(0, 5)).map((r: any) => r.byes)).toEqual([["p5"], ["p3"], []]);
    expect(bracketRounds("knockout", 5, five).map((r: any) => r.byes)).toEqual([[], [], []]);
  });
});

describe("live updates", () => {
  it("sends only the matches that changed since the last push", () => {
    const state = startKnockout(["a", "b", "c", "d"], { seed: 3, debias: true });
    const before = liveMatches(state.matches.map((x) => ({ ...x, calls: [] })));
    const first = changedMatches([], before);
    expect(first.changed).toEqual(before);
    const after = before.map((x, i) => (i === 1 ? { ...x, callsDone: 1 } : x));
    expect(changedMatches(first.sent, after).changed).toEqual([after[1]]);
    expect(changedMatches(changedMatches(first.sent, after).sent, after).changed).toEqual([]);
  });
});

describe("results", () => {
  it("bins scores over 0..max, the top score in the last bin", () => {
    expect(histogram([0, 0.5, 9.99, 10, 5, null], 10).map((b: any) => b.count)).toEqual([2, 0, 0, 0, 0, 1, 0, 0, 0, 2]);
    expect(histogram([100, 0], 100).map((b: any) => [b.from, b.count])[9]).toEqual([90, 1]);
    expect(histogram([2], 2.5)).toHaveLength(3);
  });

  it("writes the ranking as CSV, best first, with the texts", () => {
    const result = {
      answers: [
        { id: "x", rank: 2, score: 3.5, eliminatedInRound: 1 },
        { id: "y", rank: 1, score: 8, eliminatedInRound: null },
      ],
    };
    expect(
      rankingCsv(
        result,
        new Map([
          ["x", 'a "quoted", text'],
          ["y", "fine"],
        ]),
      ),
    ).toBe('rank,id,score,eliminated_in_round,text\r\n1,y,8,,fine\r\n2,x,3.5,1,"a ""quoted"", text"\r\n');
  });

  // issue 11, defect 10: the CSV download of the grade and share pages ran answers as formulas
  it("writes no cell of the ranking CSV that a spreadsheet would run: answer texts and ids starting with = + - @ are neutralised", () => {
    const result = {
      answers: [
        { id: "=id", rank: 1, score: 8, eliminatedInRound: null },
        { id: "y", rank: 2, score: 3, eliminatedInRound: 1 },
      ],
    };
    expect(
      rankingCsv(
        result,
        new Map([
          ["=id", "@SUM(A1:A9)"],
          ["y", "-Easier to debugg"],
        ]),
      ),
    ).toBe(`rank,id,score,eliminated_in_round,text\r\n1,"'=id",8,,"'@SUM(A1:A9)"\r\n2,y,3,1,"'-Easier to debugg"\r\n`);
  });
});

describe("the final grade in the ranking", () => {
  it("prints the grade with where it came from, and a dash when nobody scored the answer", () => {
    expect(finalGradeText({ finalScore: 4.5, finalFrom: "teacher" })).toBe("4.5 (by the teacher)");
    expect(finalGradeText({ finalScore: 3, finalFrom: "calibrated" })).toBe("3 (calibrated)");
    expect(finalGradeText({ finalScore: 0.998, finalFrom: "judge" })).toBe("1 (the judge's)");
    expect(finalGradeText({ finalScore: null, finalFrom: null })).toBe("–");
  });
});
