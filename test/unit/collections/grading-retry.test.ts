import { describe, expect, it } from "vitest";
import { afterGradingFailure, spelledDuration } from "../../../src/collections/grading-retry";

// issue 11, defect 4: a closed collection whose evaluation could not be created retried forever
describe("starting a closed collection's grading again", () => {
  const p = { baseMs: 1_000, capMs: 8_000, deadlineMs: 60_000 };
  const closedAt = 1_000_000;

  it("waits as long as it has been closed (so waits double), at least the base and at most the cap", () => {
    const next = (after: number) => afterGradingFailure(p, { closedAt, now: closedAt + after });
    expect(next(0)).toEqual({ kind: "retry", at: closedAt + 1_000 });
    expect(next(1_000)).toEqual({ kind: "retry", at: closedAt + 2_000 });
    expect(next(2_000)).toEqual({ kind: "retry", at: closedAt + 4_000 });
    expect(next(4_000)).toEqual({ kind: "retry", at: closedAt + 8_000 });
    expect(next(20_000)).toEqual({ kind: "retry", at: closedAt + 28_000 });
  });

  it("makes its last attempt at the deadline, and gives up when that one fails too", () => {
    expect(afterGradingFailure(p, { closedAt, now: closedAt + 56_000 })).toEqual({ kind: "retry", at: closedAt + 60_000 });
    expect(afterGradingFailure(p, { closedAt, now: closedAt + 60_000 })).toEqual({ kind: "give-up" });
    expect(afterGradingFailure(p, { closedAt, now: closedAt + 10 * 60_000 })).toEqual({ kind: "give-up" });
  });

  it("spells the deadline for the reason a collection shows", () => {
    expect(spelledDuration(2_000)).toBe("2 s");
    expect(spelledDuration(60 * 60_000)).toBe("60 min");
  });
});
