import { describe, expect, it } from "vitest";
import { METHODS, type MethodName } from "../../../src/core/methods";
import type { MethodCore } from "../../../src/core/method";
import type { Outcome } from "../../../src/model/evaluation";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `a${i + 1}`);
const quality = (id: string) => Number(id.slice(1)) % 11;
/** A judge with a bias toward the first position, so a mix-up of orders shows in the scores. */
const judge = (order: string[]) => (order.length === 1 ? [quality(order[0])] : [quality(order[0]) + 0.5, quality(order[1])]);

/** Plays a method to the end, answering open calls front to back or back to front; returns outcome and calls made. */
function play(name: MethodName, n: number, seed: number, debias: boolean, fromBack = false): { outcome: Outcome; calls: number } {
  const method = METHODS[name] as MethodCore<unknown>;
  let state = method.start(ids(n), { seed, debias });
  let calls = 0;
  // like the Durable Object: take every open call, record the results one by one, ask again
  while (!method.isFinished(state)) {
    const open = method.openCalls(state);
    expect(open.length).toBeGreaterThan(0);
    for (const c of fromBack ? open.reverse() : open) {
      state = method.record(state, c.match, c.call, judge(c.order));
      calls++;
    }
  }
  expect(method.openCalls(state)).toEqual([]);
  return { outcome: method.outcome(state, new Map()), calls };
}

const names = Object.keys(METHODS) as MethodName[];
const expectedCount: Record<MethodName, (n: number, debias: boolean) => number> = {
  knockout: (n, d) => (n - 1) * (d ? 2 : 1),
  individual: (n) => n,
  pairwise: (n, d) => Math.ceil(n / 2) * (d ? 2 : 1),
  "round-robin": (n, d) => ((n * (n - 1)) / 2) * (d ? 2 : 1),
};

describe("every method's exact judge call count, for every N in 2..64", () => {
  for (const name of names) {
    for (const debias of [false, true]) {
      it(`${name} (debias=${debias})`, () => {
        for (let n = 2; n <= 64; n++) {
          const count = METHODS[name].callCount(n, { debias });
          expect(count, `n=${n}`).toBe(expectedCount[name](n, debias));
          const { outcome, calls } = play(name, n, n * 7 + 1, debias);
          expect(calls, `n=${n}`).toBe(count);
          expect(outcome.matches.reduce((s, m) => s + m.calls.length, 0)).toBe(count);
        }
      });
    }
  }
});

describe("the common result shape", () => {
  for (const name of names) {
    it(`${name}: every answer once, with a score that is the mean of its match scores, ranks from 1`, () => {
      for (const n of [2, 3, 7, 16, 33]) {
        for (const debias of [false, true]) {
          const { outcome } = play(name, n, 5, debias);
          expect(outcome.answers.map((a) => a.id).sort()).toEqual(ids(n).sort());
          for (const a of outcome.answers) {
            expect(a.score).not.toBeNull();
            expect(a.scores.length).toBeGreaterThan(0);
            expect(a.score).toBeCloseTo(a.scores.reduce((s, x) => s + x, 0) / a.scores.length, 12);
            expect(a.rank).toBeGreaterThanOrEqual(1);
          }
          expect(Math.min(...outcome.answers.map((a) => a.rank))).toBe(1);
          for (const m of outcome.matches) {
            for (const c of m.calls) expect(c.scores).toHaveLength(c.order.length);
          }
        }
      }
    });
  }

  it("individual: one match per answer with b = null, scored by the judge's score", () => {
    const { outcome } = play("individual", 9, 1, true);
    expect(outcome.matches.map((m) => m.a)).toEqual(ids(9));
    for (const m of outcome.matches) {
      expect(m.b).toBeNull();
      expect(m.scoreB).toBeNull();
      expect(m.winner).toBeNull();
      expect(m.calls).toEqual([{ order: [m.a], scores: [quality(m.a)], raw: "", expected: null, endpoint: null }]);
      expect(m.scoreA).toBe(quality(m.a));
    }
    for (const a of outcome.answers) expect(a.score).toBe(quality(a.id));
    // a1..a9 have qualities 1..9: the best is a9 and it is the champion
    expect(outcome.champion).toBe("a9");
    expect(outcome.answers.find((a) => a.id === "a9")!.rank).toBe(1);
  });

  it("a tie at the top has no champion, and tied answers share the rank", () => {
    const m = METHODS.individual;
    let state = m.start(["x", "y", "z"], { seed: 1, debias: false });
    state = m.record(m.record(m.record(state, 0, 0, [3]), 1, 0, [3]), 2, 0, [1]);
    const outcome = m.outcome(state, new Map());
    expect(outcome.champion).toBeNull();
    expect(outcome.answers.map((a) => a.rank)).toEqual([1, 1, 3]);
  });

  it("pairwise: one round of distinct pairs; with an odd N the left-over answer plays once and its partner twice", () => {
    for (let n = 2; n <= 64; n++) {
      const { outcome } = play("pairwise", n, 3, true);
      const plays = new Map<string, number>();
      for (const m of outcome.matches) {
        expect(m.round).toBe(1);
        expect(m.b).not.toBeNull();
        expect(m.a).not.toBe(m.b);
        for (const id of [m.a, m.b!]) plays.set(id, (plays.get(id) ?? 0) + 1);
        expect(m.calls.map((c) => c.order)).toEqual([
          [m.a, m.b],
          [m.b, m.a],
        ]);
      }
      expect(plays.size).toBe(n);
      const twice = [...plays.values()].filter((k) => k === 2).length;
      expect(twice).toBe(n % 2);
      for (const a of outcome.answers) expect(a.scores).toHaveLength(plays.get(a.id)!);
      for (const a of outcome.answers) expect(a.eliminatedInRound).toBeNull();
    }
  });

  it("pairwise: debiased match scores are the mean of both orders; the higher one wins, a draw has no winner", () => {
    const { outcome } = play("pairwise", 10, 9, true);
    for (const m of outcome.matches) {
      expect(m.scoreA).toBeCloseTo(quality(m.a) + 0.25, 12);
      expect(m.scoreB).toBeCloseTo(quality(m.b!) + 0.25, 12);
      expect(m.winner).toBe(m.scoreA! > m.scoreB! ? m.a : m.scoreA! < m.scoreB! ? m.b : null);
    }
  });

  it("round-robin: every unordered pair exactly once, each answer first in about half its undebiased matches", () => {
    for (const n of [2, 3, 4, 9, 20, 64]) {
      const { outcome } = play("round-robin", n, 4, false);
      const pairs = new Set(outcome.matches.map((m) => [m.a, m.b].sort().join("|")));
      expect(pairs.size).toBe((n * (n - 1)) / 2);
      const first = new Map<string, number>();
      for (const m of outcome.matches) first.set(m.a, (first.get(m.a) ?? 0) + 1);
      for (const id of ids(n)) expect(Math.abs((first.get(id) ?? 0) - (n - 1) / 2)).toBeLessThanOrEqual(1);
      for (const a of outcome.answers) expect(a.scores).toHaveLength(n - 1);
    }
  });

  it("round-robin: a Bradley-Terry strength per answer (geometric mean 1) that orders answers by quality", () => {
    const { outcome } = play("round-robin", 10, 4, true);
    const strengths = outcome.answers.map((a) => a.strength!);
    expect(strengths.every((s) => s > 0)).toBe(true);
    expect(Math.exp(strengths.reduce((s, x) => s + Math.log(x), 0) / strengths.length)).toBeCloseTo(1, 9);
    const byStrength = [...outcome.answers].sort((x, y) => y.strength! - x.strength!).map((a) => a.id);
    // qualities: a1..a10 = 1..10; debiased, the better answer wins every match
    expect(byStrength).toEqual(ids(10).reverse());
    expect(outcome.champion).toBe("a10");
  });

  it("methods other than round-robin report no strength; nothing reports criteria without a rubric", () => {
    for (const name of ["individual", "pairwise"] as const) {
      for (const a of play(name, 6, 1, true).outcome.answers) {
        expect(a.strength).toBeUndefined();
        expect(a.criteria).toBeUndefined();
      }
    }
  });
});

describe("determinism", () => {
  for (const name of names) {
    it(`${name}: the same seed gives the same outcome whatever order results arrive in`, () => {
      for (const n of [2, 5, 8, 13]) {
        const forward = play(name, n, 77, true).outcome;
        const backward = play(name, n, 77, true, true).outcome;
        expect(backward).toEqual(forward);
        expect(play(name, n, 77, true).outcome).toEqual(forward);
      }
    });
  }

  it("pairwise and round-robin plans depend on the seed", () => {
    const plan = (name: MethodName, seed: number) =>
      play(name, 12, seed, false)
        .outcome.matches.map((m) => `${m.a}-${m.b}`)
        .join(",");
    expect(plan("pairwise", 1)).not.toBe(plan("pairwise", 2));
    expect(plan("round-robin", 1)).not.toBe(plan("round-robin", 2));
  });
});

describe("recording", () => {
  const method = METHODS.pairwise;
  it("rejects a second result for one call, a wrong number of scores, and non-finite scores", () => {
    let state = method.start(ids(4), { seed: 1, debias: false });
    const [c] = method.openCalls(state);
    expect(() => method.record(state, c.match, c.call, [1])).toThrow(/expected 2 scores/);
    expect(() => method.record(state, c.match, c.call, [1, NaN])).toThrow(/finite/);
    state = method.record(state, c.match, c.call, [1, 2]);
    expect(() => method.record(state, c.match, c.call, [1, 2])).toThrow(/already recorded/);
    expect(() => method.record(state, 99, 0, [1, 2])).toThrow(/no match/);
  });

  it("rubric: a pointwise call carries the overall score then one score per criterion, reported by name", () => {
    const m = METHODS.individual;
    let state = m.start(["x", "y"], { seed: 1, debias: true, criteria: ["accuracy", "clarity"] });
    expect(() => m.record(state, 0, 0, [4])).toThrow(/expected 3 scores/);
    state = m.record(state, 0, 0, [4, 3, 5]);
    state = m.record(state, 1, 0, [2, 1, 2.5]);
    const outcome = m.outcome(state, new Map([["0.0", "{}"]]));
    expect(outcome.answers.map((a) => [a.id, a.score, a.criteria])).toEqual([
      ["x", 4, { accuracy: 3, clarity: 5 }],
      ["y", 2, { accuracy: 1, clarity: 2.5 }],
    ]);
    expect(outcome.matches[0].calls).toEqual([{ order: ["x"], scores: [4], raw: "{}", expected: null, endpoint: null }]);
  });

  it("needs at least two answers and unique ids", () => {
    expect(() => METHODS.individual.start(["x"], { seed: 1, debias: false })).toThrow(/at least 2/);
    expect(() => METHODS["round-robin"].start(["x", "x"], { seed: 1, debias: false })).toThrow(/unique/);
  });
});
