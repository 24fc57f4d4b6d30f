import { describe, expect, it } from "vitest";
import { answerConfidence } from "../../../src/core/confidence";
import { adaptiveMargin, knockoutUsage, usableExtraCalls } from "../../../src/core/extra";
import { recordCall, startKnockout } from "../../../src/core/knockout";
import { isUnsure } from "../../../src/core/match";
import type { MethodOptions } from "../../../src/core/method";
import { METHODS } from "../../../src/core/methods";
import { standings } from "../../../src/core/standings";
import type { CallDetail, KnockoutState } from "../../../src/core/types";
import { gaussian, seededRandom } from "../../../src/random/seeded";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `a${i + 1}`);
const quality = (id: string) => Number(id.slice(1));
type Judge = (order: string[]) => { scores: number[]; detail?: CallDetail };

function play(n: number, options: MethodOptions, judge: Judge, fromBack = false): KnockoutState {
  const method = METHODS.knockout;
  let state = method.start(ids(n), options);
  for (let guard = 0; !method.isFinished(state); guard++) {
    const open = method.openCalls(state);
    expect(open.length).toBeGreaterThan(0);
    for (const c of fromBack ? open.reverse() : open) {
      const r = judge(c.order);
      state = method.record(state, c.match, c.call, r.scores, r.detail);
    }
    expect(guard).toBeLessThan(1000);
  }
  return state;
}

/** A noisy judge on 0..5: quality / n * 5 plus seeded noise, written in half points. */
function noisyJudge(n: number, seed: number, sd = 0.5, bias = 0): Judge {
  const rand = seededRandom(seed).next;
  const g = () => gaussian(rand);
  return (order) => {
    const belief = order.map((id, i) => Math.min(5, Math.max(0, (quality(id) / n) * 5 + sd * g() + (i === 0 ? bias : 0))));
    return { scores: belief.map((b) => Math.round(b * 2) / 2), detail: { expected: belief, spread: belief.map(() => sd) } };
  };
}

describe("extra calls after the knockout", () => {
  for (const pairing of ["round", "bracket"] as const) {
    for (const debias of [true, false] as const) {
      it(`spend at most K calls on matches marked extra, after the last round, and leave the knockout as it was (${pairing}, debias=${debias})`, () => {
        for (const [n, k] of [
          [2, 3],
          [5, 5],
          [16, 8],
          [16, 32],
          [23, 46],
          [9, 36],
        ]) {
          const plain = play(n, { seed: n, debias, pairing }, noisyJudge(n, 1));
          const more = play(n, { seed: n, debias, pairing, extraCalls: k }, noisyJudge(n, 1));
          const knockoutMatches = more.matches.filter((m) => !m.extra);
          const extras = more.matches.filter((m) => m.extra);
          // same judge draws in the same order until the champion: the knockout is the same
          expect(knockoutMatches).toEqual(plain.matches);
          expect(more.champion).toBe(plain.champion);
          const lastRound = Math.max(...knockoutMatches.map((m) => m.round));
          const perMatch = debias ? 2 : 1;
          const spent = extras.reduce((s, m) => s + m.calls.length, 0);
          expect(spent).toBeLessThanOrEqual(k);
          // uses the budget up to what a match needs, unless every pair has met (a rematch tells nothing new)
          const pairs = new Set(more.matches.map((m) => [m.a, m.b].sort().join()));
          if (pairs.size < (n * (n - 1)) / 2) expect(k - spent).toBeLessThan(perMatch);
          expect(pairs.size).toBe(more.matches.length);
          for (const m of extras) {
            expect(m.round).toBeGreaterThan(lastRound);
            expect(m.calls).toHaveLength(perMatch);
            expect(m.tie).toBeUndefined();
          }
          expect(knockoutUsage(more)).toMatchObject({ extraCalls: spent, judgeCalls: (n - 1) * perMatch + spent });
          // eliminations stay the knockout's; scores take the extra match scores in
          const before = new Map(standings(plain).map((s) => [s.id, s]));
          for (const s of standings(more)) {
            expect(s.eliminatedInRound).toBe(before.get(s.id)!.eliminatedInRound);
            const extraScores = extras.flatMap((m) => (m.a === s.id ? [m.scoreA!] : m.b === s.id ? [m.scoreB!] : []));
            expect(s.scores).toEqual([...before.get(s.id)!.scores, ...extraScores]);
          }
        }
      });
    }
  }

  it("go first to the least certain answers: the first-round losers, judged once, against each other", () => {
    let share = 0;
    const runs = 40;
    for (let seed = 1; seed <= runs; seed++) {
      const n = 16;
      // 4 single-call matches: room for 8 of the 16 answers, as many as lost in round 1
      const t = play(n, { seed, debias: false, pairing: "bracket", extraCalls: 4 }, noisyJudge(n, seed));
      const firstRoundLosers = new Set(t.matches.filter((m) => m.round === 1 && !m.extra).map((m) => (m.winner === m.a ? m.b : m.a)));
      const firstWave = t.matches.filter((m) => m.extra && m.round === Math.min(...t.matches.filter((x) => x.extra).map((x) => x.round)));
      const players = firstWave.flatMap((m) => [m.a, m.b]);
      share += players.filter((p) => firstRoundLosers.has(p)).length / players.length;
    }
    expect(share / runs).toBeGreaterThan(0.75);
  });

  it("pair neighbours in the ranking, Swiss-style, never an answer twice in a wave", () => {
    const n = 20;
    const t = play(n, { seed: 3, debias: true, pairing: "bracket", extraCalls: 4 * n }, noisyJudge(n, 3));
    const waves = new Map<number, string[]>();
    for (const m of t.matches.filter((x) => x.extra)) waves.set(m.round, [...(waves.get(m.round) ?? []), m.a, m.b]);
    expect(waves.size).toBeGreaterThan(1);
    for (const players of waves.values()) expect(new Set(players).size).toBe(players.length);
  });

  it("the same results in any order plan the same extra matches (waves wait for every call)", () => {
    for (const n of [7, 16]) {
      const judge = (order: string[]) => ({
        scores: order.map((id) => (quality(id) * 7) % 5),
        detail: { expected: order.map((id) => ((quality(id) * 7) % 5) + (quality(id) % 3) / 10) },
      });
      const forward = play(n, { seed: 2, debias: true, pairing: "bracket", extraCalls: 2 * n }, judge);
      expect(play(n, { seed: 2, debias: true, pairing: "bracket", extraCalls: 2 * n }, judge, true)).toEqual(forward);
    }
  });

  it("narrow the intervals of the answers they judge", () => {
    const n = 16;
    const width = (k: number) => {
      let total = 0;
      for (let seed = 1; seed <= 20; seed++) {
        const t = play(n, { seed, debias: true, pairing: "bracket", extraCalls: k }, noisyJudge(n, seed));
        for (const c of answerConfidence(t.ids, t.matches, { maxScore: 5 }).values()) total += c.interval![1] - c.interval![0];
      }
      return total;
    };
    expect(width(2 * n)).toBeLessThan(width(0) * 0.85);
  });

  // issue 23: 8 asked with 2 answers spent none, while the dry run and the progress total counted 8
  it("spend exactly what usableExtraCalls says N answers can take, which the method's call count includes", () => {
    for (const pairing of ["round", "bracket"] as const)
      for (const debias of [true, false, "adaptive"] as const)
        for (let n = 2; n <= 9; n++)
          for (let k = 0; k <= 4 * n; k++) {
            const t = play(n, { seed: n + k, debias, pairing, extraCalls: k }, noisyJudge(n, k));
            const usable = usableExtraCalls(n, debias, k);
            const { extraCalls, judgeCalls } = knockoutUsage(t);
            const label = `n=${n} k=${k} ${pairing} debias=${debias}`;
            expect(usable, label).toBeLessThanOrEqual(k);
            expect(judgeCalls, label).toBeLessThanOrEqual(METHODS.knockout.callCount(n, { debias, extraCalls: k }));
            // adaptive matches take 1 call or 2, so only the bound holds; otherwise every usable call is spent
            if (debias === "adaptive") expect(extraCalls, label).toBeLessThanOrEqual(usable);
            else {
              expect(extraCalls, label).toBe(usable);
              expect(judgeCalls, label).toBe(METHODS.knockout.callCount(n, { debias, extraCalls: k }));
            }
          }
    expect(usableExtraCalls(2, true, 8)).toBe(0);
    expect(usableExtraCalls(3, false, 12)).toBe(1);
  });

  it("are counted in the method's most calls, and refused outside 0..4N", () => {
    // 7 calls debiased are 3 matches: the seventh call is never spent
    expect(METHODS.knockout.callCount(10, { debias: true, extraCalls: 7 })).toBe(18 + 6);
    expect(() => startKnockout(ids(5), { seed: 1, debias: true, extraCalls: 21 })).toThrow(/0 to 4N/);
    expect(() => startKnockout(ids(5), { seed: 1, debias: true, extraCalls: -1 })).toThrow(/0 to 4N/);
    expect(() => startKnockout(ids(5), { seed: 1, debias: true, extraCalls: 1.5 })).toThrow(/0 to 4N/);
    expect(() => METHODS["round-robin"].start(ids(5), { seed: 1, debias: true, extraCalls: 3 })).toThrow(/knockout's/);
  });
});

describe("adaptive debiasing", () => {
  it("sends one order, and the other only when the judge is unsure: a written tie, or deciding scores within the margin", () => {
    expect(isUnsure({ scores: [3, 3], expected: [3.2, 2.8] }, 0.1)).toBe(true);
    expect(isUnsure({ scores: [3.5, 3], expected: [3.3, 3.2] }, 0.1)).toBe(true);
    expect(isUnsure({ scores: [3.5, 3], expected: [3.4, 3.2] }, 0.1)).toBe(false);
    expect(isUnsure({ scores: [3.5, 3] }, 0.5)).toBe(true);
    expect(isUnsure({ scores: [4, 3] }, 0.5)).toBe(false);

    let t = startKnockout(["x", "y", "z", "w"], { seed: 1, debias: "adaptive", adaptiveMargin: 0.5 });
    expect(t.matches.every((m) => m.calls.length === 1 && m.adaptive)).toBe(true);
    const [m0, m1] = t.matches;
    t = recordCall(t, 0, 0, [4, 2]); // sure: settled on one call
    expect(t.matches[0].calls).toHaveLength(1);
    expect(t.matches[0].winner).toBe(m0.a);
    t = recordCall(t, 1, 0, [3, 3]); // a tie: the other order is asked for
    expect(t.matches[1].calls.map((c) => c.order)).toEqual([
      [m1.a, m1.b],
      [m1.b, m1.a],
    ]);
    expect(t.matches[1].winner).toBeNull();
    t = recordCall(t, 1, 1, [3.5, 3]); // b first: 3.5; a: 3
    expect(t.matches[1].winner).toBe(m1.b);
    expect(t.matches[1].scoreB).toBeCloseTo(3.25, 12);
    expect(knockoutUsage(t)).toMatchObject({ judgeCalls: 3, callsSaved: 1 });
  });

  it("saves calls against full debiasing and is counted: usage equals the calls made", () => {
    for (const pairing of ["round", "bracket"] as const) {
      const n = 24;
      const t = play(n, { seed: 5, debias: "adaptive", pairing, adaptiveMargin: adaptiveMargin(5) }, noisyJudge(n, 5));
      const usage = knockoutUsage(t);
      expect(usage.judgeCalls + usage.callsSaved).toBe(2 * (n - 1));
      expect(usage.callsSaved).toBeGreaterThan(0);
      expect(usage.judgeCalls).toBe(t.matches.reduce((s, m) => s + m.calls.length, 0));
      expect(METHODS.knockout.callCount(n, { debias: "adaptive" })).toBe(2 * (n - 1));
    }
  });

  it("takes half the position bias its pairs show out of the one-order match scores, so position does not score", () => {
    // a judge that adds 1 to whoever is shown first and is otherwise exact; qualities far apart are sure
    const n = 12;
    const judge: Judge = (order) => ({ scores: order.map((id, i) => quality(id) / 2 + (i === 0 ? 1 : 0)) });
    const t = play(n, { seed: 4, debias: "adaptive", pairing: "bracket", adaptiveMargin: 1 }, judge);
    expect(t.matches.some((m) => m.calls.length === 1)).toBe(true);
    expect(t.matches.some((m) => m.calls.length === 2)).toBe(true);
    for (const s of standings(t)) expect(s.score).toBeCloseTo(quality(s.id) / 2 + 0.5, 12);
  });

  it("weighs a two-call match score twice against a one-call one (the mean of the answer's judgments)", () => {
    let t = startKnockout(["x", "y", "z"], { seed: 2, debias: "adaptive", adaptiveMargin: 0 });
    // play to the end with exact scores so that one match is sure and one a tie
    const scoreOf: Record<string, number> = { x: 4, y: 2, z: 2 };
    while (t.champion === null || t.matches.some((m) => m.winner === null)) {
      const m = t.matches.find((x) => x.winner === null)!;
      const call = m.calls.findIndex((c) => c.scores === null);
      t = recordCall(t, m.index, call, [scoreOf[m.calls[call].order[0]], scoreOf[m.calls[call].order[1]]]);
    }
    for (const s of standings(t)) {
      const weights = t.matches.filter((m) => m.a === s.id || m.b === s.id).map((m) => m.calls.length);
      const weighted = s.scores.reduce((sum, x, i) => sum + x * weights[i], 0) / weights.reduce((a, b) => a + b, 0);
      expect(s.score).toBeCloseTo(weighted, 12);
    }
  });

  it("is the knockout's: the scheduled methods refuse it", () => {
    expect(() => METHODS.pairwise.start(ids(4), { seed: 1, debias: "adaptive" })).toThrow(/knockout's/);
    expect(() => startKnockout(ids(4), { seed: 1, debias: "sometimes" as never })).toThrow(/debias/);
    expect(() => startKnockout(ids(4), { seed: 1, debias: "adaptive", adaptiveMargin: -1 })).toThrow(/adaptiveMargin/);
    expect(adaptiveMargin(5)).toBe(0.5);
  });
});
