import { describe, expect, it } from "vitest";
import { splitByRound } from "../../../src/metrics/by-round";
import { isScored, type ScoredItem } from "../../../src/metrics/items";
import { fixtureItems } from "./fixture";

// Expected values: counts [hand] from fixture.ts; Pearson [scipy] 1.17.1 from
// test/unit/metrics/reference_values.py ("fixture first round" / "fixture later rounds").

const scored = fixtureItems.filter(isScored);

describe("splitByRound (the paper's Table 2)", () => {
  it("separates first-round losers from later rounds and champions", () => {
    const split = splitByRound(scored)!;
    expect(split.firstRound.answers).toBe(5);
    expect(split.laterRounds.answers).toBe(6);
    expect(split.firstRound.pearson).toBeCloseTo(0.5041841733655161, 12);
    expect(split.laterRounds.pearson).toBeCloseTo(0.7650920556760059, 12);
    expect(split.difference).toBeCloseTo(0.7650920556760059 - 0.5041841733655161, 12);
    expect(split.answersWithoutRound).toBe(0);
  });

  it("counts answers per round, champions last", () => {
    // [hand] round 1: q1 C,D; q2 C,D; q3 B. Round 2: q1 B, q2 A, q3 C. Champions: q1 A, q2 B, q3 A.
    expect(splitByRound(scored)!.perRound.map((r) => [r.round, r.answers])).toEqual([
      [1, 5],
      [2, 3],
      [null, 3],
    ]);
  });

  it("is null without round information, and leaves round-less answers out of both groups", () => {
    const noRounds: ScoredItem[] = scored.map(({ eliminatedInRound: _round, ...rest }) => rest);
    expect(splitByRound(noRounds)).toBeNull();
    const mixed = [...scored, { questionId: "q9", answerId: "x", judgeScore: 1, humanScore: 1 }];
    const split = splitByRound(mixed)!;
    expect(split.answersWithoutRound).toBe(1);
    expect(split.firstRound.answers + split.laterRounds.answers).toBe(11);
  });

  it("reports an undefined group as null and its difference as null", () => {
    const items: ScoredItem[] = [
      { questionId: "q", answerId: "a", judgeScore: 1, humanScore: 1, eliminatedInRound: 1 },
      { questionId: "q", answerId: "b", judgeScore: 2, humanScore: 3, eliminatedInRound: null },
    ];
    const split = splitByRound(items)!;
    expect(split.firstRound).toEqual({ answers: 1, pearson: null });
    expect(split.difference).toBeNull();
  });
});
