import { describe, expect, it } from "vitest";
import { isFinished, openCalls, recordCall, startKnockout } from "../../../src/core/knockout";
import { shuffle } from "../../../src/random/seeded";
import { standings } from "../../../src/core/standings";
import type { KnockoutState } from "../../../src/core/types";

const ids = (n: number) => Array.from({ length: n }, (_, i) => `a${i + 1}`);

/** A judge with a fixed quality per answer and a bias toward the first position, so orders differ. */
function biasedJudge(order: string[]): [number, number] {
  const quality = (id: string) => Number(id.slice(1)) % 11;
  return [quality(order[0]) + 0.5, quality(order[1])];
}

/** Plays a whole tournament, answering calls round by round in the given sequence. */
function play(
  n: number,
  seed: number,
  debias: boolean,
  judge = biasedJudge,
  pick: (open: ReturnType<typeof openCalls>) => number = () => 0,
): KnockoutState {
  let state = startKnockout(ids(n), { seed, debias });
  for (let guard = 0; !isFinished(state); guard++) {
    const open = openCalls(state);
    expect(open.length).toBeGreaterThan(0);
    const c = open[pick(open)];
    state = recordCall(state, c.match, c.call, judge(c.order));
    expect(guard).toBeLessThan(1000);
  }
  return state;
}

const seeds = [1, 2, 7, 42, 2024];

describe("knockout tournament, for every N in 2..64", () => {
  for (const debias of [false, true]) {
    it(`has N-1 matches, the paper's rounds and byes, one champion (debias=${debias})`, () => {
      for (let n = 2; n <= 64; n++) {
        for (const seed of seeds) {
          const t = play(n, seed, debias);
          expect(t.matches).toHaveLength(n - 1);
          expect(t.matches.every((m) => m.calls.length === (debias ? 2 : 1))).toBe(true);

          // round r has ceil(n / 2^(r-1)) answers: floor(k/2) matches and a bye when k is odd
          let k = n;
          let round = 1;
          while (k > 1) {
            const inRound = t.matches.filter((m) => m.round === round);
            expect(inRound).toHaveLength(Math.floor(k / 2));
            const byes = t.byes.filter((b) => b.round === round);
            expect(byes).toHaveLength(k % 2);
            const players = [...inRound.flatMap((m) => [m.a, m.b]), ...byes.map((b) => b.id)];
            expect(new Set(players).size).toBe(k);
            k = Math.ceil(k / 2);
            round++;
          }
          expect(t.round).toBe(Math.max(1, Math.ceil(Math.log2(n))));

          const table = standings(t);
          const alive = table.filter((s) => s.eliminatedInRound === null);
          expect(alive.map((s) => s.id)).toEqual([t.champion]);
          // a knocked-out answer never plays again
          for (const s of table) {
            const last = Math.max(...t.matches.filter((m) => m.a === s.id || m.b === s.id).map((m) => m.round));
            if (s.eliminatedInRound !== null) expect(last).toBe(s.eliminatedInRound);
          }
        }
      }
    });
  }

  it("advances the higher match score and the second answer of the pair on a tie", () => {
    for (let n = 2; n <= 64; n++) {
      const t = play(n, n, true);
      for (const m of t.matches) {
        if (m.scoreA! > m.scoreB!) expect(m.winner).toBe(m.a);
        else expect(m.winner).toBe(m.b);
      }
      const ties = play(n, n, false, () => [3, 3]);
      for (const m of ties.matches) expect(m.winner).toBe(m.b);
    }
  });

  it("scores each answer by the mean of all its match scores, and a debiased match by the mean of both orders", () => {
    for (let n = 2; n <= 64; n += 3) {
      for (const seed of seeds) {
        const t = play(n, seed, true);
        for (const m of t.matches) {
          const [ab, ba] = m.calls;
          expect(ab.order).toEqual([m.a, m.b]);
          expect(ba.order).toEqual([m.b, m.a]);
          expect(m.scoreA).toBeCloseTo((ab.scores![0] + ba.scores![1]) / 2, 12);
          expect(m.scoreB).toBeCloseTo((ab.scores![1] + ba.scores![0]) / 2, 12);
        }
        for (const s of standings(t)) {
          const own = t.matches.filter((m) => m.a === s.id || m.b === s.id).map((m) => (m.a === s.id ? m.scoreA! : m.scoreB!));
          expect(s.scores).toEqual(own);
          expect(s.score).toBeCloseTo(own.reduce((x, y) => x + y, 0) / own.length, 12);
        }
      }
    }
  });

  it("without debiasing, one call per match in the pair's order, and the position bias shows", () => {
    const t = play(8, 3, false);
    for (const m of t.matches) {
      expect(m.calls).toHaveLength(1);
      expect(m.calls[0].order).toEqual([m.a, m.b]);
      expect(m.scoreA).toBe(m.calls[0].scores![0]);
    }
  });
});

describe("determinism", () => {
  it("same seed and same replies give the same tournament, whatever order the replies arrive in", () => {
    for (const n of [2, 3, 7, 16, 31, 64]) {
      for (const seed of seeds) {
        const first = play(n, seed, true);
        const last = play(n, seed, true, biasedJudge, (open) => open.length - 1);
        const middle = play(n, seed, true, biasedJudge, (open) => Math.floor(open.length / 2));
        expect(last).toEqual(first);
        expect(middle).toEqual(first);
      }
    }
  });

  it("different seeds give different pairings", () => {
    const pairings = new Set(
      seeds.map((seed) => JSON.stringify(startKnockout(ids(16), { seed, debias: false }).matches.map((m) => [m.a, m.b]))),
    );
    expect(pairings.size).toBe(seeds.length);
  });

  it("pairs uniformly: over many seeds every answer meets every other in round 1 about equally often", () => {
    const n = 6;
    const counts = new Map<string, number>();
    const runs = 6000;
    for (let seed = 0; seed < runs; seed++) {
      for (const m of startKnockout(ids(n), { seed, debias: false }).matches) {
        const key = [m.a, m.b].sort().join("-");
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    // 15 possible pairs, 3 matches a run: each pair expected 1200 times
    expect(counts.size).toBe(15);
    for (const c of counts.values()) expect(Math.abs(c - 1200)).toBeLessThan(150);
  });

  it("the seeded shuffle is a permutation and independent per round", () => {
    const xs = ids(20);
    expect(shuffle(xs, 5, 1).slice().sort()).toEqual(xs.slice().sort());
    expect(shuffle(xs, 5, 1)).toEqual(shuffle(xs, 5, 1));
    expect(shuffle(xs, 5, 1)).not.toEqual(shuffle(xs, 5, 2));
  });
});

describe("recording results", () => {
  it("refuses a duplicate, an unknown call and a non-finite score, and leaves the state as it was", () => {
    let t = startKnockout(ids(4), { seed: 1, debias: true });
    const before = structuredClone(t);
    expect(() => recordCall(t, 9, 0, [1, 2])).toThrow(/no match/);
    expect(() => recordCall(t, 0, 2, [1, 2])).toThrow(/no call/);
    expect(() => recordCall(t, 0, 0, [Number.NaN, 2])).toThrow(/finite/);
    expect(t).toEqual(before);
    t = recordCall(t, 0, 0, [1, 2]);
    expect(() => recordCall(t, 0, 0, [1, 2])).toThrow(/already recorded/);
  });

  it("opens the next round only when the whole round is in", () => {
    let t = startKnockout(ids(8), { seed: 9, debias: false });
    expect(openCalls(t)).toHaveLength(4);
    for (const c of openCalls(t).slice(0, 3)) t = recordCall(t, c.match, c.call, [5, 1]);
    expect(t.round).toBe(1);
    expect(openCalls(t)).toHaveLength(1);
    const last = openCalls(t)[0];
    t = recordCall(t, last.match, last.call, [5, 1]);
    expect(t.round).toBe(2);
    expect(openCalls(t)).toHaveLength(2);
  });

  it("needs two unique answers", () => {
    expect(() => startKnockout(["x"], { seed: 1, debias: false })).toThrow();
    expect(() => startKnockout(["x", "x"], { seed: 1, debias: false })).toThrow(/unique/);
  });
});

describe("standings", () => {
  it("ranks by score, then by how far the answer got, and shares equal ranks", () => {
    const t = play(2, 1, false, () => [4, 4]);
    const table = standings(t);
    const champ = table.find((s) => s.id === t.champion)!;
    const other = table.find((s) => s.id !== t.champion)!;
    expect(champ.rank).toBe(1);
    expect(other.rank).toBe(2);
    expect(other.eliminatedInRound).toBe(1);
  });

  it("ranks are consistent with scores for a full tournament", () => {
    const table = standings(play(31, 4, true));
    for (const x of table) for (const y of table) if (x.score! > y.score!) expect(x.rank).toBeLessThan(y.rank);
    expect(Math.min(...table.map((s) => s.rank))).toBe(1);
  });
});
