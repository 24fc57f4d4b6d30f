import { describe, expect, it } from "vitest";
import { benchmarkTournamentGames, type Game, gameFromScores, headToHead, playersOf } from "../../../src/ratings/games.js";
import { seededRandom } from "../../../src/random/seeded";

describe("gameFromScores", () => {
  it("higher score wins, equal scores draw", () => {
    expect(gameFromScores("ann", 7, "bob", 5)).toEqual({ a: "ann", b: "bob", outcome: 1 });
    expect(gameFromScores("ann", 2, "bob", 5)).toEqual({ a: "ann", b: "bob", outcome: 0 });
    expect(gameFromScores("ann", 5, "bob", 5, 3)).toEqual({ a: "ann", b: "bob", outcome: 0.5, round: 3 });
  });

  it("rejects non-finite scores and self-play", () => {
    expect(() => gameFromScores("ann", NaN, "bob", 1)).toThrow(RangeError);
    expect(() => gameFromScores("ann", 1, "ann", 2)).toThrow(RangeError);
  });
});

describe("benchmark-built tournaments (seeds/002 section 4)", () => {
  it("schedules N rounds of round robin: M(M-1)/2 matches per round, tagged with the round", () => {
    const outcomes = { m1: [1, 0, 1, 1], m2: [0, 0, 1, 0], m3: [1, 1, 1, 1], m4: [0, 1, 0, 0] };
    const games = benchmarkTournamentGames(outcomes, { matchSize: 2, rounds: 3, seed: 7 });
    expect(games).toHaveLength(3 * 6);
    expect(games.map((x) => x.round)).toEqual([0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    expect(games.slice(0, 6).map((x) => `${x.a}-${x.b}`)).toEqual(["m1-m2", "m1-m3", "m1-m4", "m2-m3", "m2-m4", "m3-m4"]);
  });

  it("scores a match by kappa points (eq. 2-3) when the schedule covers every instance", () => {
    // matchSize >= instances: the schedule is all instances, so the outcome is deterministic.
    // m1 vs m2 on [1,0,1,1] vs [0,0,1,0]: m1 gets points on items 0 and 3, m2 none -> m1 wins.
    // m1 vs m3 on [1,0,1,1] vs [1,1,1,1]: m3 gets item 1 -> m3 wins.
    // m2 vs m4 on [0,0,1,0] vs [0,1,0,0]: one point each -> draw.
    // Items both got right or both got wrong give no point (the paper's "draw" instances).
    const outcomes = new Map([
      ["m1", [1, 0, 1, 1]],
      ["m2", [0, 0, 1, 0]],
      ["m3", [1, 1, 1, 1]],
      ["m4", [0, 1, 0, 0]],
    ]);
    const games = benchmarkTournamentGames(outcomes, { matchSize: 10, rounds: 1 });
    const outcome = (a: string, b: string) => games.find((x) => x.a === a && x.b === b)!.outcome;
    expect(outcome("m1", "m2")).toBe(1);
    expect(outcome("m1", "m3")).toBe(0);
    expect(outcome("m2", "m4")).toBe(0.5);
    expect(outcome("m3", "m4")).toBe(1);
  });

  it("accepts booleans and graded scores, skips unanswered instances, and skips pairs with nothing in common", () => {
    const games = benchmarkTournamentGames(
      { a: [true, false, null], b: [false, false, 0.5], c: [null, null, 0.7], d: [null, null, null] },
      { matchSize: 5, rounds: 1 },
    );
    const find = (a: string, b: string) => games.find((x) => x.a === a && x.b === b);
    expect(find("a", "b")!.outcome).toBe(1); // item 2 unanswered by a: only items 0 and 1 count
    expect(find("a", "c")).toBeUndefined(); // no instance both answered
    expect(find("b", "c")!.outcome).toBe(0); // 0.5 < 0.7
    expect(games.some((x) => x.a === "d" || x.b === "d")).toBe(false);
  });

  it("samples k instances per match without replacement, reproducibly from the seed", () => {
    // With one point-giving instance among 10 and k = 1, a match is decided only if that
    // instance is drawn: about 1 in 10 matches.
    const strong = Array.from({ length: 10 }, (_, i) => (i === 0 ? 1 : 0));
    const weak = Array.from({ length: 10 }, () => 0);
    const options = { matchSize: 1, rounds: 2000, seed: 42 };
    const games = benchmarkTournamentGames({ strong, weak }, options);
    const decided = games.filter((x) => x.outcome === 1).length;
    expect(decided).toBeGreaterThan(140);
    expect(decided).toBeLessThan(260);
    expect(games.every((x) => x.outcome !== 0)).toBe(true);
    expect(benchmarkTournamentGames({ strong, weak }, options)).toEqual(games);
    expect(benchmarkTournamentGames({ strong, weak }, { ...options, seed: 43 })).not.toEqual(games);
    // k = 9 of 10: decided unless the one point-giving instance is left out (1 in 10).
    const nine = benchmarkTournamentGames({ strong, weak }, { matchSize: 9, rounds: 2000, seed: 1 });
    const draws = nine.filter((x) => x.outcome === 0.5).length;
    expect(draws).toBeGreaterThan(140);
    expect(draws).toBeLessThan(260);
  });

  it("validates its parameters", () => {
    expect(() => benchmarkTournamentGames({ a: [1] }, { matchSize: 0, rounds: 1 })).toThrow(RangeError);
    expect(() => benchmarkTournamentGames({ a: [1] }, { matchSize: 1, rounds: -1 })).toThrow(RangeError);
    expect(() => benchmarkTournamentGames({ a: [NaN], b: [1] }, { matchSize: 1, rounds: 1 })).toThrow(RangeError);
    expect(benchmarkTournamentGames({ a: [1], b: [0] }, { matchSize: 1, rounds: 0 })).toEqual([]);
  });
});

describe("head-to-head tallies and players", () => {
  it("aggregates both orders of a pair, from the alphabetically first player's side", () => {
    const tallies = headToHead([
      { a: "y", b: "x", outcome: 1 },
      { a: "x", b: "y", outcome: 0.5 },
      { a: "x", b: "z", outcome: 0 },
    ]);
    expect(tallies).toEqual([
      { a: "x", b: "y", games: 2, scoreA: 0.5 },
      { a: "x", b: "z", games: 1, scoreA: 0 },
    ]);
  });

  it("does not confuse names that contain separators", () => {
    const tallies = headToHead([
      { a: "a|b", b: "c", outcome: 1 },
      { a: "a", b: "b|c", outcome: 1 },
    ]);
    expect(tallies).toHaveLength(2);
  });

  it("lists players in order of appearance, then extras", () => {
    expect(playersOf([{ a: "q", b: "p", outcome: 1 }], ["p", "r"])).toEqual(["q", "p", "r"]);
  });
});

describe("seeded PRNG", () => {
  it("is reproducible, seed-sensitive and uniform enough for resampling", () => {
    const draw = (seed: number) => Array.from({ length: 5 }, seededRandom(seed).next);
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
    const random = seededRandom(123);
    const counts = new Array(10).fill(0);
    let outOfRange = 0;
    for (let i = 0; i < 100_000; i++) {
      const x = random.next();
      if (!(x >= 0 && x < 1)) outOfRange++;
      else counts[Math.floor(x * 10)]++;
    }
    expect(outOfRange).toBe(0);
    // Each bucket expects 10000 (sd ~95); 5 sd bounds.
    for (const c of counts) expect(Math.abs(c - 10_000)).toBeLessThan(500);
    expect(() => seededRandom(NaN)).toThrow(RangeError);
  });
});

describe("benchmarkTournamentGames at the cost of its matches", () => {
  /** The games as seeds/002 draws them, written plainly: each match copies and shuffles the shared instances. */
  function plainly(outcomes: Record<string, (number | null)[]>, matchSize: number, rounds: number, seed: number): Game[] {
    const random = seededRandom(seed);
    const models = Object.entries(outcomes);
    const games: Game[] = [];
    for (let round = 0; round < rounds; round++)
      for (let i = 0; i < models.length; i++)
        for (let j = i + 1; j < models.length; j++) {
          const [a, xs] = models[i];
          const [b, ys] = models[j];
          const shared = xs.map((_, k) => k).filter((k) => k < ys.length && xs[k] !== null && ys[k] !== null);
          if (shared.length === 0) continue;
          const pool = [...shared];
          const take = Math.min(matchSize, pool.length);
          for (let t = 0; t < take; t++) {
            const u = t + random.nextInt(pool.length - t);
            [pool[t], pool[u]] = [pool[u], pool[t]];
          }
          let pa = 0;
          let pb = 0;
          for (const k of pool.slice(0, take)) {
            if (xs[k]! > ys[k]!) pa++;
            else if (ys[k]! > xs[k]!) pb++;
          }
          games.push({ a, b, outcome: pa > pb ? 1 : pa < pb ? 0 : 0.5, round });
        }
    return games;
  }

  it("draws exactly the games of the plain procedure, for any sizes and gaps", () => {
    const random = seededRandom(3);
    for (let trial = 0; trial < 60; trial++) {
      const outcomes: Record<string, (number | null)[]> = {};
      const count = 2 + random.nextInt(5);
      for (let m = 0; m < count; m++)
        outcomes[`m${m}`] = Array.from({ length: 1 + random.nextInt(40) }, () => (random.nextInt(5) === 0 ? null : random.nextInt(3)));
      const matchSize = 1 + random.nextInt(50);
      const rounds = random.nextInt(4);
      expect(benchmarkTournamentGames(outcomes, { matchSize, rounds, seed: trial })).toEqual(plainly(outcomes, matchSize, rounds, trial));
    }
  });
});
