import { describe, expect, it } from "vitest";
import { METHODS, type MethodName } from "../../../src/core/methods";
import type { MethodCore, Pairing } from "../../../src/core/method";
import { recordCall, startKnockout } from "../../../src/core/knockout";
import { standings } from "../../../src/core/standings";
import type { CallDetail, KnockoutState } from "../../../src/core/types";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `a${i + 1}`);
const quality = (id: string) => Number(id.slice(1));

type Judge = (order: string[]) => { scores: number[]; detail?: CallDetail };

/** Plays the knockout core to the end, answering every open call with `judge`. */
function play(n: number, seed: number, debias: boolean, pairing: Pairing, judge: Judge, fromBack = false): KnockoutState {
  const method = METHODS.knockout;
  let state = method.start(ids(n), { seed, debias, pairing });
  while (!method.isFinished(state)) {
    const open = method.openCalls(state);
    expect(open.length).toBeGreaterThan(0);
    for (const c of fromBack ? open.reverse() : open) {
      const r = judge(c.order);
      state = method.record(state, c.match, c.call, r.scores, r.detail);
    }
  }
  return state;
}

// The written scores always tie (a coarse judge); what it believed ranks the answers by their number.
const coarse: Judge = (order) => ({
  scores: order.map(() => 3),
  detail: { expected: order.map((id) => 2.8 + quality(id) / 100), spread: order.map(() => 0.4) },
});
const coarseWithoutProbabilities: Judge = (order) => ({ scores: order.map(() => 3) });

describe("ties of written scores decided by the judge's expected scores", () => {
  for (const pairing of ["round", "bracket"] as const) {
    for (const debias of [false, true]) {
      it(`every match a written tie: the expected scores pick the better answer, so the best becomes champion (${pairing}, debias=${debias})`, () => {
        for (const n of [2, 3, 5, 8, 13, 31]) {
          const t = play(n, n, debias, pairing, coarse);
          expect(t.champion).toBe(`a${n}`);
          for (const m of t.matches) {
            expect(m.winner).toBe(quality(m.a) > quality(m.b) ? m.a : m.b);
            expect(m.tie).toBe("expected");
            // the written scores stay recorded; the match scores are the expected ones
            for (const c of m.calls) expect(c.scores).toEqual([3, 3]);
            expect(m.scoreA).toBeCloseTo(2.8 + quality(m.a) / 100, 12);
          }
        }
      });

      it(`without probabilities the paper's rule stays: the second answer of the pair advances (${pairing}, debias=${debias})`, () => {
        for (const n of [2, 3, 5, 8, 13, 31]) {
          const t = play(n, n, debias, pairing, coarseWithoutProbabilities);
          for (const m of t.matches) {
            expect(m.winner).toBe(m.b);
            expect(m.tie).toBe("position");
            expect(m.scoreA).toBe(3);
            expect(m.calls.every((c) => c.expected === undefined)).toBe(true);
          }
        }
      });
    }
  }

  it("a call recorded with an empty detail is the call recorded without one: the same tournament", () => {
    const written: Judge = (order) => ({ scores: [(quality(order[0]) % 4) + 0.5, quality(order[1]) % 4] });
    for (const pairing of ["round", "bracket"] as const) {
      for (const n of [2, 7, 16, 33]) {
        const plain = play(n, 5, true, pairing, written);
        const empty = play(n, 5, true, pairing, (order) => ({ ...written(order), detail: {} }));
        const nulls = play(n, 5, true, pairing, (order) => ({
          ...written(order),
          detail: { expected: null, spread: null, parseRetried: false },
        }));
        expect(empty).toEqual(plain);
        expect(nulls).toEqual(plain);
      }
    }
  });

  it("expected scores order the match even against the written ones; a tie of both is still the paper's coin flip", () => {
    let t = startKnockout(["x", "y"], { seed: 1, debias: false });
    const [a, b] = [t.matches[0].a, t.matches[0].b];
    // written 3.5 vs 3, but the judge believed 3.3 vs 3.45: what it believed decides
    t = recordCall(t, 0, 0, [3.5, 3], { expected: [3.3, 3.45] });
    expect(t.matches[0].winner).toBe(b);
    expect(t.matches[0].tie).toBeUndefined();
    expect(t.champion).toBe(b);

    let u = startKnockout(["x", "y"], { seed: 1, debias: false });
    u = recordCall(u, 0, 0, [3, 3], { expected: [3.1, 3.1] });
    expect(u.matches[0].winner).toBe(b);
    expect(u.matches[0].tie).toBe("position");
    void a;
  });

  it("a debiased match: each call decides by its expected scores where it has them, the written ones where not", () => {
    let t = startKnockout(["x", "y"], { seed: 3, debias: true });
    const m = t.matches[0];
    t = recordCall(t, 0, 0, [3, 3], { expected: [3.2, 2.9] }); // a first: 3.2, b: 2.9
    t = recordCall(t, 0, 1, [3, 3]); // b first, no probabilities: 3 and 3
    const done = t.matches[0];
    expect(done.scoreA).toBeCloseTo((3.2 + 3) / 2, 12);
    expect(done.scoreB).toBeCloseTo((2.9 + 3) / 2, 12);
    expect(done.winner).toBe(m.a);
    expect(done.tie).toBe("expected");
    expect(done.ordersDisagree).toBe(false); // the second call chose no one
  });

  it("records whether a match's two orders chose different winners", () => {
    // position bias: whoever is shown first wins
    const firstWins: Judge = (_order) => ({ scores: [4, 3], detail: { expected: [3.9, 3.2] } });
    for (const pairing of ["round", "bracket"] as const) {
      const t = play(9, 2, true, pairing, firstWins);
      expect(t.matches.every((m) => m.ordersDisagree === true)).toBe(true);
      const fair = play(9, 2, true, pairing, (order) => ({ scores: order.map((id) => quality(id) / 2) }));
      expect(fair.matches.every((m) => m.ordersDisagree === false)).toBe(true);
      const once = play(9, 2, false, pairing, firstWins);
      expect(once.matches.every((m) => m.ordersDisagree === undefined)).toBe(true);
    }
  });

  it("the same replies with the same probabilities give the same tournament, whatever order they arrive in", () => {
    const noisy: Judge = (order) => {
      const w = order.map((id) => (quality(id) * 7) % 5);
      return { scores: w, detail: { expected: w.map((x, i) => Math.min(5, x + ((quality(order[i]) * 13) % 7) / 20)) } };
    };
    for (const pairing of ["round", "bracket"] as const) {
      for (const n of [5, 12, 21]) expect(play(n, 9, true, pairing, noisy, true)).toEqual(play(n, 9, true, pairing, noisy));
    }
  });

  it("refuses expected scores that are not one finite number >= 0 per answer shown, and leaves the state as it was", () => {
    const t = startKnockout(["x", "y", "z"], { seed: 1, debias: true });
    const before = structuredClone(t);
    for (const detail of [
      { expected: [3] },
      { expected: [3, Number.NaN] },
      { expected: [3, -1] },
      { spread: [1, 2, 3] },
      { spread: [Infinity, 1] },
    ]) {
      expect(() => recordCall(t, 0, 0, [3, 3], detail)).toThrow(/finite numbers >= 0/);
    }
    expect(t).toEqual(before);
  });

  it("standings score each answer by the mean of its expected match scores", () => {
    const t = play(8, 4, true, "round", coarse);
    for (const s of standings(t)) {
      expect(s.score).toBeCloseTo(2.8 + quality(s.id) / 100, 12);
    }
  });
});

describe("the scheduled methods use expected scores for their match scores too", () => {
  const methods: MethodName[] = ["individual", "pairwise", "round-robin"];
  for (const name of methods) {
    it(`${name}: scores from the expected scores, written scores kept in the calls`, () => {
      const method = METHODS[name] as MethodCore<unknown>;
      let state = method.start(ids(6), { seed: 1, debias: true });
      for (const c of method.openCalls(state)) {
        const r = coarse(c.order);
        state = method.record(state, c.match, c.call, r.scores, r.detail);
      }
      const outcome = method.outcome(state, new Map());
      for (const a of outcome.answers) expect(a.score).toBeCloseTo(2.8 + quality(a.id) / 100, 12);
      for (const m of outcome.matches) for (const c of m.calls) expect(c.scores.every((x) => x === 3)).toBe(true);
    });
  }
});

describe("the shell's parse-retried flag", () => {
  it("is kept on the call it came with, and asks for review of both answers of that match", async () => {
    const { answerConfidence } = await import("../../../src/core/confidence");
    let t = startKnockout(["x", "y", "z", "w"], { seed: 1, debias: false });
    t = recordCall(t, 0, 0, [4, 2], { parseRetried: true });
    t = recordCall(t, 1, 0, [3, 1]);
    expect(t.matches[0].calls[0].parseRetried).toBe(true);
    expect(t.matches[1].calls[0].parseRetried).toBeUndefined();
    const review = answerConfidence(t.ids, t.matches, { maxScore: 5 });
    for (const id of [t.matches[0].a, t.matches[0].b]) expect(review.get(id)!.review!.reasons).toContain("parse-retried");
    for (const id of [t.matches[1].a, t.matches[1].b]) expect(review.get(id)!.review!.reasons).not.toContain("parse-retried");
  });
});
