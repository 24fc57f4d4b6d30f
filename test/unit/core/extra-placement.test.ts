import { describe, expect, it } from "vitest";
import { knockoutUsage, usableExtraCalls } from "../../../src/core/extra";
import type { MethodOptions } from "../../../src/core/method";
import { METHODS } from "../../../src/core/methods";
import { firstRoundLosers } from "../../../src/core/placement-quality";
import { type CallDetail, EXTRA_PLACEMENTS, type ExtraPlacement, type KnockoutState } from "../../../src/core/types";
import { gaussian, seededRandom } from "../../../src/random/seeded";

// Where the extra calls go (issue 26 item 3): every knockout of 2..9 answers, every budget, both
// placements, both pairings and every debias mode.

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
function noisyJudge(n: number, seed: number, sd = 0.5): Judge {
  const rand = seededRandom(seed).next;
  return (order) => {
    const belief = order.map((id) => Math.min(5, Math.max(0, (quality(id) / n) * 5 + sd * gaussian(rand))));
    return { scores: belief.map((b) => Math.round(b * 2) / 2), detail: { expected: belief, spread: belief.map(() => sd) } };
  };
}

const pairKey = (a: string, b: string | null) => [a, b].sort().join("\u0000");

/** Every knockout of 2..9 answers at every budget, in every mode, with `placement`. */
function* everyKnockout(placement: ExtraPlacement) {
  for (const pairing of ["round", "bracket"] as const)
    for (const debias of [true, false, "adaptive"] as const)
      for (let n = 2; n <= 9; n++)
        for (let k = 0; k <= 4 * n; k++) {
          const options = { seed: 7 * n + k, debias, pairing, extraCalls: k, extraPlacement: placement };
          yield {
            n,
            k,
            debias,
            options,
            t: play(n, options, noisyJudge(n, 31 * n + k)),
            label: `${placement} n=${n} k=${k} ${pairing} debias=${debias}`,
          };
        }
}

// 3,000 knockouts a test: a machine shared with other work takes longer than vitest's 5 s default
describe("the placements of extra calls, on every knockout of 2..9 answers", { timeout: 60_000 }, () => {
  for (const placement of EXTRA_PLACEMENTS) {
    it(`${placement}: spends what the method's call count says (at most, adaptive), and never judges a pair twice`, () => {
      for (const { n, k, debias, t, label } of everyKnockout(placement)) {
        const { judgeCalls, extraCalls } = knockoutUsage(t);
        const most = METHODS.knockout.callCount(n, { debias, extraCalls: k });
        if (debias === "adaptive") expect(judgeCalls, label).toBeLessThanOrEqual(most);
        else {
          expect(judgeCalls, label).toBe(most);
          expect(extraCalls, label).toBe(usableExtraCalls(n, debias, k));
        }
        expect(new Set(t.matches.map((m) => pairKey(m.a, m.b))).size, label).toBe(t.matches.length);
        // a wave shows each answer at most once
        const waves = new Map<number, string[]>();
        for (const m of t.matches.filter((x) => x.extra)) waves.set(m.round, [...(waves.get(m.round) ?? []), m.a, m.b]);
        for (const players of waves.values()) expect(new Set(players).size, label).toBe(players.length);
      }
    });
  }

  it("widest: every first-round loser plays an extra match once the budget holds a match for each", () => {
    let checked = 0;
    for (const { n, k, debias, t, label } of everyKnockout("widest")) {
      const losers = firstRoundLosers(t.matches);
      const perMatch = debias === false ? 1 : 2;
      // adaptive matches may take 1 call: the budget is held to 2 a match, as the plan counts it
      if (k < perMatch * losers.size || usableExtraCalls(n, debias, k) < perMatch * losers.size) continue;
      const players = new Set(t.matches.filter((m) => m.extra).flatMap((m) => [m.a, m.b]));
      for (const l of losers) expect(players.has(l), `${label}: ${l}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(500);
  });

  it("widest: the first wave goes to the answers with the fewest judgments, the first-round losers before the finalists", () => {
    for (let n = 4; n <= 9; n++) {
      for (let seed = 1; seed <= 10; seed++) {
        const t = play(n, { seed, debias: true, pairing: "bracket", extraCalls: 2, extraPlacement: "widest" }, noisyJudge(n, seed));
        const [extra] = t.matches.filter((m) => m.extra);
        const judged = (id: string) => t.matches.filter((m) => !m.extra && (m.a === id || m.b === id)).length;
        // one match to spend: both its answers played the fewest knockout matches of those not met
        const fewest = Math.min(...ids(n).map(judged));
        expect(Math.min(judged(extra.a), judged(extra.b!)), `n=${n} seed=${seed}`).toBe(fewest);
        // the champion played the most matches: never in it while a loser waits
        expect([extra.a, extra.b]).not.toContain(t.champion);
      }
    }
  });

  it("the same results in any order plan the same extra matches, for every placement", () => {
    // a judge whose reply is a function of the prompt alone, so the order of the replies is all that differs
    const judge = (order: string[]) => ({
      scores: order.map((id, i) => (quality(id) * 7 + i) % 5),
      detail: { expected: order.map((id, i) => ((quality(id) * 7 + i) % 5) + (quality(id) % 3) / 10) },
    });
    for (const extraPlacement of EXTRA_PLACEMENTS)
      for (const n of [7, 9]) {
        const options = { seed: 2, debias: true, pairing: "bracket" as const, extraCalls: 2 * n, extraPlacement };
        const forward = play(n, options, judge);
        expect(forward.matches.some((m) => m.extra)).toBe(true);
        expect(play(n, options, judge, true)).toEqual(forward);
      }
  });

  it("absent is the placement stored evaluations were played with, and an unknown one is refused", () => {
    const n = 9;
    const options = { seed: 3, debias: true, pairing: "bracket" as const, extraCalls: n };
    expect(play(n, options, noisyJudge(n, 5)).matches).toEqual(
      play(n, { ...options, extraPlacement: "neighbours" }, noisyJudge(n, 5)).matches,
    );
    expect(() => METHODS.knockout.start(ids(4), { ...options, extraPlacement: "random" as ExtraPlacement })).toThrow(/extraPlacement/);
  });
});
