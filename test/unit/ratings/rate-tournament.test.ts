import { describe, expect, it } from "vitest";
import { benchmarkTournamentGames, gameFromScores, RATING_SYSTEMS, rateTournament, type Game } from "../../../src/ratings/index.js";
import { seededRandom } from "../../../src/random/seeded";

// Four models with benchmark accuracies 0.85 > 0.7 > 0.55 > 0.4 on 300 items, rated from
// 4 rounds of round robin with match size 32 (002 section 6.3 uses 4 rounds of size 128).
function benchmarkGames(): Game[] {
  const random = seededRandom(2024);
  const accuracy: Record<string, number> = { alpha: 0.85, beta: 0.7, gamma: 0.55, delta: 0.4 };
  const outcomes = Object.fromEntries(
    Object.entries(accuracy).map(([m, p]) => [m, Array.from({ length: 300 }, () => (random.next() < p ? 1 : 0))]),
  );
  return benchmarkTournamentGames(outcomes, { matchSize: 32, rounds: 12, seed: 3 });
}

describe("rateTournament", () => {
  const games = benchmarkGames();
  const result = rateTournament(games, { bootstrap: { samples: 200, seed: 1 } });

  it("rates every player with every system, best first, with intervals around the estimate", () => {
    expect(result.games).toBe(games.length);
    expect([...result.players].sort()).toEqual(["alpha", "beta", "delta", "gamma"]);
    expect(Object.keys(result.systems)).toEqual([...RATING_SYSTEMS]);
    for (const system of RATING_SYSTEMS) {
      const rows = result.systems[system]!.players;
      expect(rows.map((r) => r.player)).toEqual(["alpha", "beta", "gamma", "delta"]);
      expect(rows.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
      for (const row of rows) {
        expect(row.ci!.low).toBeLessThanOrEqual(row.rating);
        expect(row.ci!.high).toBeGreaterThanOrEqual(row.rating);
        expect(row.rankCi!.low).toBeLessThanOrEqual(row.rank);
        expect(row.rankCi!.high).toBeGreaterThanOrEqual(row.rank);
      }
    }
    expect(result.bootstrap).toEqual({ samples: 200, confidence: 0.95, seed: 1 });
  });

  it("carries each system's own uncertainty fields", () => {
    const glicko = result.systems.glicko2!.players[0];
    expect(glicko.rd).toBeGreaterThan(0);
    expect(glicko.volatility).toBeGreaterThan(0);
    expect(result.systems.trueskill!.players[0].sigma).toBeGreaterThan(0);
    expect(result.systems.bradleyTerry!.players[0].strength).toBeGreaterThan(1);
    const bt = result.systems.bradleyTerry!.players;
    expect(bt.reduce((s, r) => s + r.rating, 0) / bt.length).toBeCloseTo(1200, 6);
  });

  it("reports transitivity and each ranking's agreement with the pairwise majority", () => {
    expect(result.transitivity.linearOrder).toBe(true);
    expect(result.transitivity.transitiveShare).toBe(1);
    expect(result.transitivity.triples.total).toBe(4);
    for (const system of RATING_SYSTEMS) {
      expect(result.transitivity.agreement[system]).toMatchObject({ decidedPairs: 6, agreeing: 6, agrees: true });
    }
  });

  it("is deterministic for a seed", () => {
    expect(rateTournament(games, { bootstrap: { samples: 200, seed: 1 } })).toEqual(result);
  });

  it("runs only the requested systems, passes their options, and can skip the bootstrap", () => {
    const quick = rateTournament(games, { systems: ["elo"], bootstrap: false, elo: { k: 32 } });
    expect(Object.keys(quick.systems)).toEqual(["elo"]);
    expect(quick.bootstrap).toBeNull();
    expect(quick.systems.elo!.players[0].ci).toBeNull();
    expect(quick.systems.elo!.players[0].rating).toBeGreaterThan(result.systems.elo!.players[0].rating);
    expect(() => rateTournament(games, { systems: ["chess" as never] })).toThrow(RangeError);
  });

  it("rates knockout matches turned into games, flags a cycle, and survives an empty tournament", () => {
    const knockout = [
      gameFromScores("ann", 8, "bob", 6),
      gameFromScores("bob", 9, "cat", 4),
      gameFromScores("cat", 7, "ann", 5),
      gameFromScores("ann", 5, "dan", 5),
    ];
    const rated = rateTournament(knockout, { bootstrap: { samples: 50 } });
    expect(rated.transitivity.cycles).toEqual([["ann", "bob", "cat"]]);
    expect(rated.transitivity.transitiveShare).toBe(0);
    for (const system of RATING_SYSTEMS) expect(rated.transitivity.agreement[system]!.agrees).toBe(false);
    const empty = rateTournament([]);
    expect(empty.players).toEqual([]);
    expect(empty.systems.elo!.players).toEqual([]);
    expect(empty.transitivity.transitiveShare).toBeNull();
  });

  it("runs the default 1000-sample, 95% bootstrap of all four systems", { timeout: 30_000 }, () => {
    const full = rateTournament(games);
    expect(full.bootstrap).toEqual({ samples: 1000, confidence: 0.95, seed: 0 });
    for (const system of RATING_SYSTEMS) {
      for (const row of full.systems[system]!.players) {
        expect(row.ci!.low).toBeLessThanOrEqual(row.rating);
        expect(row.ci!.high).toBeGreaterThanOrEqual(row.rating);
      }
    }
  });
});
