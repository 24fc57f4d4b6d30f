import { describe, expect, it } from "vitest";
import { bracketOpenCalls, planBracket, recordBracketCall, startBracket, type BracketState, type Slot } from "../../../src/core/bracket";
import { openCalls, recordCall, startKnockout } from "../../../src/core/knockout";
import { standings } from "../../../src/core/standings";
import { DEFAULT_BYE_RULE, type ByeRule, type KnockoutState, type OpenCall } from "../../../src/core/types";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `a${i + 1}`);

function biasedJudge(order: string[]): [number, number] {
  const quality = (id: string) => Number(id.slice(1)) % 11;
  return [quality(order[0]) + 0.5, quality(order[1])];
}

/** Plays a whole bracket, answering one open call at a time, picked by `pick`. */
function play(n: number, seed: number, debias: boolean, judge = biasedJudge, pick: (open: OpenCall[]) => number = () => 0): BracketState {
  let state = startBracket(ids(n), { seed, debias });
  for (let guard = 0; state.champion === null; guard++) {
    const open = bracketOpenCalls(state);
    expect(open.length).toBeGreaterThan(0);
    const c = open[pick(open)];
    state = recordBracketCall(state, c.match, c.call, judge(c.order));
    expect(guard).toBeLessThan(1000);
  }
  return state;
}

const seeds = [1, 2, 7, 42, 2024];

describe("bracket pairing, for every N in 2..64", () => {
  for (const debias of [false, true]) {
    it(`has N-1 matches, the paper's rounds and byes, one champion, no bye twice in a row (debias=${debias})`, () => {
      for (let n = 2; n <= 64; n++) {
        for (const seed of seeds) {
          const t = play(n, seed, debias, biasedJudge, (open) => open.length - 1);
          expect(t.matches).toHaveLength(n - 1);
          expect(bracketOpenCalls(t)).toEqual([]);
          expect(t.matches.every((m) => m.calls.length === (debias ? 2 : 1) && m.winner !== null)).toBe(true);
          expect(t.matches.map((m) => m.index)).toEqual(Array.from({ length: n - 1 }, (_, i) => i));

          let k = n;
          for (let round = 1; k > 1; round++) {
            const inRound = t.matches.filter((m) => m.round === round);
            expect(inRound).toHaveLength(Math.floor(k / 2));
            const byes = t.byes.filter((b) => b.round === round);
            expect(byes).toHaveLength(k % 2);
            const players = [...inRound.flatMap((m) => [m.a, m.b]), ...byes.map((b) => b.id)];
            expect(new Set(players).size).toBe(k);
            if (round > 1) {
              // round r is played by exactly the winners of round r-1 and its bye
              const prev = t.matches.filter((m) => m.round === round - 1).map((m) => m.winner);
              const prevBye = t.byes.filter((b) => b.round === round - 1).map((b) => b.id);
              expect(new Set(players)).toEqual(new Set([...prev, ...prevBye]));
              // never the same answer's bye in two rounds in a row
              for (const b of byes) expect(prevBye).not.toContain(b.id);
            }
            k = Math.ceil(k / 2);
          }
          expect(t.round).toBe(Math.max(1, Math.ceil(Math.log2(n))));
          const alive = standings(t).filter((s) => s.eliminatedInRound === null);
          expect(alive.map((s) => s.id)).toEqual([t.champion]);
        }
      }
    });
  }

  it("plays round 1 exactly as the paper's round pairing does for the same seed", () => {
    for (let n = 2; n <= 64; n++) {
      for (const seed of seeds) {
        const paper = startKnockout(ids(n), { seed, debias: true });
        const bracket = startBracket(ids(n), { seed, debias: true });
        const firstRound = (ms: { round: number; a: string; b: string }[]) => ms.filter((m) => m.round === 1).map((m) => [m.a, m.b]);
        expect(firstRound(bracket.matches)).toEqual(firstRound(paper.matches));
      }
    }
  });

  it("opens a match as soon as its two feeder matches are decided, while the rest of their round still plays", () => {
    let checked = 0;
    for (let n = 4; n <= 64; n++) {
      for (const seed of seeds) {
        let t = startBracket(ids(n), { seed, debias: true });
        // a later match fed by two round-1 matches (with 5 answers the bye can take that place)
        const fromRound1 = (f: Slot) => "winnerOf" in f && t.plan[f.winnerOf].round === 1;
        const later = t.plan.find((p) => p.round === 2 && p.feeders.every(fromRound1));
        if (!later) continue;
        checked++;
        const feeders = later.feeders.map((f) => ("winnerOf" in f ? f.winnerOf : -1));
        expect(bracketOpenCalls(t).some((c) => c.match === later.index)).toBe(false);
        for (const f of feeders) {
          for (const c of bracketOpenCalls(t).filter((x) => x.match === f)) t = recordBracketCall(t, c.match, c.call, biasedJudge(c.order));
        }
        const open = bracketOpenCalls(t);
        expect(open.filter((c) => c.match === later.index)).toHaveLength(2);
        // the rest of round 1 is still open (when there is more of it than these two feeders)
        if (Math.floor(n / 2) > 2) expect(open.filter((c) => c.round === 1).length).toBeGreaterThan(0);
        const m = t.matches.find((x) => x.index === later.index)!;
        expect(new Set([m.a, m.b])).toEqual(new Set(feeders.map((f) => t.matches.find((x) => x.index === f)!.winner)));
      }
    }
    expect(checked).toBeGreaterThan(290);
  });

  it("never opens a match twice, and waits for both calls of a debiased feeder", () => {
    let t = startBracket(ids(4), { seed: 3, debias: true });
    expect(bracketOpenCalls(t)).toHaveLength(4);
    const [first] = bracketOpenCalls(t);
    t = recordBracketCall(t, first.match, first.call, [5, 1]);
    expect(t.matches).toHaveLength(2);
    expect(() => recordBracketCall(t, 2, 0, [1, 1])).toThrow(/not open yet/);
    expect(() => recordBracketCall(t, 7, 0, [1, 1])).toThrow(/no match/);
    expect(() => recordBracketCall(t, first.match, first.call, [1, 1])).toThrow(/already recorded/);
  });
});

describe("bracket determinism and odds", () => {
  it("same seed and same replies give the same tournament, whatever order the replies arrive in", () => {
    for (const n of [2, 3, 5, 7, 16, 31, 33, 64]) {
      for (const seed of seeds) {
        const first = play(n, seed, true);
        expect(play(n, seed, true, biasedJudge, (open) => open.length - 1)).toEqual(first);
        expect(play(n, seed, true, biasedJudge, (open) => Math.floor(open.length / 2))).toEqual(first);
      }
    }
  });

  it("pairs the winners of round 1 uniformly in round 2, as the paper's reshuffle does", () => {
    // 8 answers, the lower id always wins: the 4 winners depend on round 1; count who meets whom in round 2
    const runs = 6000;
    let together = 0;
    let possible = 0;
    for (let seed = 0; seed < runs; seed++) {
      const t = play(8, seed, false, (order) => (Number(order[0].slice(1)) < Number(order[1].slice(1)) ? [9, 1] : [1, 9]));
      const r2 = t.matches.filter((m) => m.round === 2);
      const winners = t.matches.filter((m) => m.round === 1).map((m) => m.winner!);
      // the best winner meets each of the other 3 with probability 1/3
      const best = winners.slice().sort((x, y) => Number(x.slice(1)) - Number(y.slice(1)))[0];
      const second = winners.filter((w) => w !== best).sort()[0];
      possible++;
      if (r2.some((m) => [m.a, m.b].includes(best) && [m.a, m.b].includes(second))) together++;
    }
    expect(Math.abs(together / possible - 1 / 3)).toBeLessThan(0.03);
  });

  it("plans the same bracket for the same seed, a different one for another", () => {
    expect(planBracket(ids(20), 5)).toEqual(planBracket(ids(20), 5));
    expect(planBracket(ids(20), 5)).not.toEqual(planBracket(ids(20), 6));
  });

  it("needs two unique answers", () => {
    expect(() => startBracket(["x"], { seed: 1, debias: false })).toThrow();
    expect(() => startBracket(["x", "x"], { seed: 1, debias: false })).toThrow(/unique/);
  });
});

describe("the bye rule: the paper's odds by default for new evaluations, the old rule for stored ones", () => {
  // who had the bye in each round, for a tournament played to the end
  const byesOf = (t: KnockoutState) => new Map(t.byes.map((b) => [b.round, b.id]));
  const alwaysFirst = (): [number, number] => [9, 1];
  function playWith(n: number, seed: number, options: { pairing: "round" } | { byes?: ByeRule }): KnockoutState {
    let state: KnockoutState =
      "pairing" in options ? startKnockout(ids(n), { seed, debias: false }) : startBracket(ids(n), { seed, debias: false, ...options });
    while (state.champion === null) {
      const c = openCalls(state)[0];
      state =
        "plan" in state
          ? recordBracketCall(state as BracketState, c.match, c.call, alwaysFirst())
          : recordCall(state, c.match, c.call, alwaysFirst());
    }
    return state;
  }
  /** How often the answer with round 1's bye also gets round 2's. */
  const repeatRate = (n: number, options: Parameters<typeof playWith>[2], runs: number) => {
    let repeats = 0;
    for (let seed = 0; seed < runs; seed++) {
      const b = byesOf(playWith(n, seed, options));
      if (b.has(1) && b.get(1) === b.get(2)) repeats++;
    }
    return repeats / runs;
  };

  it("N = 5: the paper's re-pairing gives the round-1 bye the round-2 bye 1 time in 3; so does the bracket with byes 'paper'", () => {
    expect(DEFAULT_BYE_RULE).toBe("paper");
    const runs = 3000;
    expect(Math.abs(repeatRate(5, { pairing: "round" }, runs) - 1 / 3)).toBeLessThan(0.03);
    expect(Math.abs(repeatRate(5, { byes: "paper" }, runs) - 1 / 3)).toBeLessThan(0.03);
  });

  it("without a rule (evaluations stored before it) the bracket never repeats a bye, as it was played (0 of 120 at N = 5)", () => {
    expect(repeatRate(5, {}, 120)).toBe(0);
    expect(repeatRate(5, { byes: "no-repeat" }, 120)).toBe(0);
    // and the plan is exactly the one stored evaluations were played on
    for (let seed = 0; seed < 50; seed++) expect(planBracket(ids(13), seed)).toEqual(planBracket(ids(13), seed, "no-repeat"));
  });

  it("two byes in a row happen as often as in the paper for other N with consecutive odd rounds too", () => {
    // 9 -> 5 -> 3, 13 -> 7 -> 4, 25 -> 13 -> 7 -> 4: byes in consecutive rounds
    for (const n of [9, 13, 25]) {
      const runs = 1500;
      const rate = (options: Parameters<typeof playWith>[2]) => {
        let inARow = 0;
        for (let seed = 0; seed < runs; seed++) {
          const b = byesOf(playWith(n, seed, options));
          if ([...b].some(([round, id]) => b.get(round + 1) === id)) inARow++;
        }
        return inARow / runs;
      };
      const paper = rate({ pairing: "round" });
      expect(paper).toBeGreaterThan(0.1);
      expect(Math.abs(rate({ byes: "paper" }) - paper), `N=${n}`).toBeLessThan(0.05);
      expect(rate({ byes: "no-repeat" }), `N=${n}`).toBe(0);
    }
  });
});
