import { describe, expect, it } from "vitest";
import { anInput } from "../../support/evaluation-input";
import { firstState, unplayedOutcome } from "../../../src/evaluations/first-state";

const input = anInput;

describe("an evaluation's first state", () => {
  it("is the method's start for an input it takes", () => {
    for (const method of ["knockout", "individual", "pairwise", "round-robin"] as const)
      expect(firstState(input({ method })).ok).toBe(true);
  });

  it("is the reason for an input the method refuses, the same on every try (issue 11: ids read back alike)", () => {
    const twins = input({
      answers: [
        { id: "\ufffd\ufffd\ufffd", text: "x" },
        { id: "\ufffd\ufffd\ufffd", text: "y" },
      ],
    });
    expect(firstState(twins)).toEqual({ ok: false, reason: "answer ids must be unique" });
    expect(firstState(twins)).toEqual(firstState(twins));
    expect(firstState(input({ answers: [{ id: "a", text: "x" }] }))).toEqual({ ok: false, reason: "a knockout needs at least 2 answers" });
    expect(firstState(input({ method: "individual", answers: [] }))).toEqual({
      ok: false,
      reason: "an evaluation needs at least 2 answers",
    });
    expect(firstState(input({ method: "nope" as never }))).toEqual({ ok: false, reason: 'unknown method "nope"' });
  });

  it("when never played, the outcome lists the answers as posted, unscored and unranked", () => {
    expect(unplayedOutcome(input())).toEqual({
      champion: null,
      matches: [],
      answers: [
        { id: "a", score: null, scores: [], eliminatedInRound: null, rank: 3, examinee: "m1", text: "x" },
        { id: "b", score: null, scores: [], eliminatedInRound: null, rank: 3, text: "y" },
        { id: "c", score: null, scores: [], eliminatedInRound: null, rank: 3, text: "z" },
      ],
    });
  });
});
