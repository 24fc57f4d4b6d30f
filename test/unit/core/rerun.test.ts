import { describe, expect, it } from "vitest";
import type { MatchView, Outcome } from "../../../src/core/outcome";
import { differingMatches } from "../../../src/core/rerun";

const match = (a: string, b: string | null, scoreA: number, scoreB: number | null, winner: string | null): MatchView => ({
  round: 1,
  a,
  b,
  scoreA,
  scoreB,
  winner,
  calls: [],
});
const outcome = (...matches: MatchView[]): Outcome => ({ champion: null, answers: [], matches });

describe("differingMatches", () => {
  const first = outcome(match("x", "y", 7, 5, "x"), match("z", "w", 3, 4, "w"), match("x", "w", 6, 6, "w"));

  it("counts none when every match came out alike", () => {
    expect(differingMatches(first, outcome(...first.matches.map((m) => ({ ...m, calls: [] }))))).toEqual({ matches: 3, differing: 0 });
  });

  it("counts a match with other scores, another winner or other answers", () => {
    const again = outcome(match("x", "y", 7, 5.5, "x"), match("z", "w", 3, 4, "z"), match("y", "w", 6, 6, "w"));
    expect(differingMatches(first, again)).toEqual({ matches: 3, differing: 3 });
  });

  it("counts a match only one of them played", () => {
    expect(differingMatches(first, outcome(first.matches[0]))).toEqual({ matches: 3, differing: 2 });
    expect(differingMatches(outcome(), outcome())).toEqual({ matches: 0, differing: 0 });
  });

  it("compares pointwise matches (no second answer) by their score", () => {
    expect(differingMatches(outcome(match("x", null, 4, null, null)), outcome(match("x", null, 4.5, null, null)))).toEqual({
      matches: 1,
      differing: 1,
    });
  });
});
