import { describe, expect, it } from "vitest";
import { MatchJudges } from "../../../src/core/match-judges";
import { panelJudge } from "../../../src/core/panel";

// Issue 30 item 3, "cycle": both orders of a debiased match are asked of one judge, even when it goes down.

const panel = ["a", "b", "c"];

describe("MatchJudges (cycle)", () => {
  it("holds each match to its turn's judge until it moves", () => {
    const judges = new MatchJudges(panel);
    expect([0, 1, 2, 3, 4].map((m) => judges.judgeOf(m))).toEqual([0, 1, 2, 3, 4].map((m) => panelJudge(panel, m)));
    expect(judges.holds(1, "b")).toBe(true);
    expect(judges.holds(1, "c")).toBe(false);
    expect(judges.holds(1, null)).toBe(false);
    expect(judges.moved(1)).toBe(false);
  });

  it("moves a whole match to the next judge in turn, once per judge it leaves, whichever of its calls finds it down", () => {
    const judges = new MatchJudges(panel);
    // both orders of match 1 find b down: the first moves the match, the second finds it moved already
    expect(judges.move(1, "b")).toBe(true);
    expect(judges.move(1, "b")).toBe(false);
    expect(judges.judgeOf(1)).toBe("c");
    expect([judges.holds(1, "c"), judges.holds(1, "b"), judges.moved(1)]).toEqual([true, false, true]);
    // round the panel: c down too, the match goes on to a; the other matches stay with their own
    expect(judges.move(1, "c")).toBe(true);
    expect(judges.judgeOf(1)).toBe("a");
    expect([judges.judgeOf(0), judges.judgeOf(4), judges.moved(4)]).toEqual(["a", "b", false]);
  });

  it("records an answer only from its match's judge now, and after a move only to a call still open", () => {
    const judges = new MatchJudges(panel);
    const open = [
      { match: 1, call: 0 },
      { match: 1, call: 1 },
    ];
    let asked = 0;
    const openCalls = () => {
      asked++;
      return open;
    };
    expect(judges.records({ match: 1, call: 1, judge: "b" }, openCalls)).toBe(true);
    expect(asked).toBe(0); // a match that never moved needs no look at the open calls
    judges.move(1, "b");
    // judge-b's answer in flight when the match moved: dropped, the call asked again of judge-c
    expect(judges.records({ match: 1, call: 0, judge: "b" }, openCalls)).toBe(false);
    expect(judges.records({ match: 1, call: 0, judge: "c" }, openCalls)).toBe(true);
    // adaptive: the second order was opened by judge-b's first, which the move dropped; judge-c's answer
    // to it is not recorded while judge-c's own first order has not asked for it
    expect(judges.records({ match: 1, call: 1, judge: "c" }, () => [{ match: 1, call: 0 }])).toBe(false);
  });

  it("replays a restarted run's matches on the judges their recorded calls name", () => {
    const judges = new MatchJudges(panel, [
      { match: 1, judge: "c" },
      { match: 2, judge: null },
      { match: 3, judge: "gone" },
    ]);
    expect([1, 2, 3].map((m) => judges.judgeOf(m))).toEqual(["c", "c", "a"]);
    expect(judges.move(1, "b")).toBe(false);
  });

  it("refuses an empty panel", () => {
    expect(() => new MatchJudges([])).toThrow(/judge/);
  });
});
