import { describe, expect, it } from "vitest";
import { checkOptions } from "../../../src/core/knockout";
import type { MethodOptions } from "../../../src/core/method";
import { METHODS } from "../../../src/core/methods";
import { recordBefore } from "../../../src/core/tie-break";
import type { KnockoutState, Match } from "../../../src/core/types";

// Issue 30, item 6: a match the judge could not split at all goes, under tieBreak "record", to the
// answer whose earlier rounds' match scores average higher; the paper's rule (the second answer) is
// left for round 1 and equal records.

const core = METHODS.knockout;

/**
 * Plays a knockout to its end, one call per match: every answer is written `value[id]` in every
 * match, except the final, written `final` for both. Returns the final match and the state.
 */
function play(values: Record<string, number>, options: Partial<MethodOptions>, final = 3) {
  let s = core.start(Object.keys(values), { seed: 1, debias: false, ...options }) as KnockoutState;
  const rounds = Math.ceil(Math.log2(Object.keys(values).length));
  while (!core.isFinished(s)) {
    for (const c of core.openCalls(s)) {
      const m = s.matches[s.matches.findIndex((x) => x.index === c.match)];
      const scores = m.round === rounds ? [final, final] : c.order.map((id) => values[id]);
      s = core.record(s, c.match, c.call, scores as [number, number]) as KnockoutState;
    }
  }
  const last = s.matches.filter((m) => !m.extra).at(-1)!;
  return { s, final: last };
}

const eight = { a: 8, b: 2, c: 7, d: 1, e: 6, f: 3, g: 5, h: 4 };

describe("tieBreak record: a match nothing split goes to the better record", () => {
  for (const pairing of ["round", "bracket"] as const) {
    it(`${pairing} pairing: the finalist with the higher earlier scores wins a tied final, shown first or second`, () => {
      const shown = new Set<string>();
      for (let seed = 1; seed <= 24; seed++) {
        const { final, s } = play(eight, { seed, pairing, tieBreak: "record" });
        expect(final.scoreA).toBe(final.scoreB);
        const better = eight[final.a as keyof typeof eight] > eight[final.b as keyof typeof eight] ? final.a : final.b;
        expect(final.winner).toBe(better);
        expect(final.tie).toBe("record");
        expect(s.champion).toBe(better);
        shown.add(better === final.a ? "first" : "second");
      }
      // the rule is not position in disguise: the better record was on either side
      expect(shown).toEqual(new Set(["first", "second"]));
    });

    it(`${pairing} pairing: without the option (stored evaluations) the second answer still advances`, () => {
      for (let seed = 1; seed <= 8; seed++) {
        const { final } = play(eight, { seed, pairing });
        expect(final.winner).toBe(final.b);
        expect(final.tie).toBe("position");
      }
    });
  }

  it("equal records keep the paper's rule: the second answer, reported as position", () => {
    // every answer written 5 before the final: records equal
    const flat = Object.fromEntries(Object.keys(eight).map((id) => [id, 5]));
    const { final } = play(flat, { tieBreak: "record" });
    expect(final.winner).toBe(final.b);
    expect(final.tie).toBe("position");
  });

  it("round 1 has no record: a tie there is decided by position", () => {
    let s = core.start(["x", "y"], { seed: 3, debias: false, tieBreak: "record" }) as KnockoutState;
    s = core.record(s, 0, 0, [4, 4]) as KnockoutState;
    expect(s.matches[0].winner).toBe(s.matches[0].b);
    expect(s.matches[0].tie).toBe("position");
  });

  it("a bye is no record: the answer that had one meets its opponent's record with none, and position decides", () => {
    for (let seed = 1; seed <= 12; seed++) {
      const { s } = play({ x: 4, y: 2, z: 3 }, { seed, pairing: "round", tieBreak: "record" });
      const byeInFinal = s.byes.find((b) => b.round === 1)!.id;
      const final = s.matches.find((m) => m.round === 2)!;
      expect([final.a, final.b]).toContain(byeInFinal);
      expect(final.tie).toBe("position");
      expect(final.winner).toBe(final.b);
    }
  });

  it("a tie of written scores that the expected scores split is not the record's to decide", () => {
    let s = core.start(["a", "b", "c", "d"], { seed: 5, debias: false, tieBreak: "record", pairing: "round" }) as KnockoutState;
    for (const c of core.openCalls(s))
      s = core.record(s, c.match, c.call, [c.order[0] === "a" || c.order[0] === "c" ? 4 : 1, 2]) as KnockoutState;
    const [call] = core.openCalls(s);
    // the second finalist's expectation is higher: it wins on it, whatever the records say
    s = core.record(s, call.match, call.call, [3, 3], { expected: [2.9, 3.1] }) as KnockoutState;
    const final = s.matches.at(-1)!;
    expect(final.tie).toBe("expected");
    expect(final.winner).toBe(call.order[1]);
  });

  it("refuses an unknown rule", () => {
    expect(() => checkOptions(["x", "y"], { seed: 1, debias: true, tieBreak: "coin" as never })).toThrow(
      /tieBreak must be one of record, position/,
    );
  });
});

describe("recordBefore: the mean of an answer's match scores before a round", () => {
  const m = (round: number, a: string, b: string, scoreA: number, scoreB: number, extra = false): Match => ({
    index: 0,
    round,
    a,
    b,
    calls: [],
    scoreA,
    scoreB,
    winner: scoreA >= scoreB ? a : b,
    ...(extra ? { extra: true } : {}),
  });
  const matches = [m(1, "x", "y", 4, 2), m(2, "x", "z", 3, 3.5), m(3, "z", "x", 1, 2), m(4, "x", "y", 5, 0, true)];

  it("counts its own matches of earlier rounds, on either side, and nothing else", () => {
    expect(recordBefore("x", 3, matches)).toBe((4 + 3) / 2);
    expect(recordBefore("x", 2, matches)).toBe(4);
    expect(recordBefore("z", 3, matches)).toBe(3.5);
    // the extra match (round 4, after the knockout) never counts
    expect(recordBefore("x", 9, matches)).toBe((4 + 3 + 2) / 3);
    expect(recordBefore("y", 9, matches)).toBe(2);
  });

  it("is null without an earlier match", () => {
    expect(recordBefore("x", 1, matches)).toBeNull();
    expect(recordBefore("w", 9, matches)).toBeNull();
  });
});
