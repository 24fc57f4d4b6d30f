import { describe, expect, it } from "vitest";
import { bootstrapRatings, percentile, resampleGames } from "../../../src/ratings/bootstrap.js";
import { rateElo } from "../../../src/ratings/elo.js";
import { benchmarkTournamentGames, type Game } from "../../../src/ratings/games.js";
import { seededRandom } from "../../../src/random/seeded";
import { rankByRating } from "../../../src/ratings/ranking.js";

// Three models with accuracies 0.8 > 0.6 > 0.4 on 200 items, 002-style tournament.
function tournament(): Game[] {
  const random = seededRandom(5);
  const accuracy = { good: 0.8, middling: 0.6, poor: 0.4 };
  const outcomes = Object.fromEntries(
    Object.entries(accuracy).map(([model, p]) => [model, Array.from({ length: 200 }, () => random.next() < p)]),
  );
  return benchmarkTournamentGames(outcomes, { matchSize: 8, rounds: 40, seed: 11 });
}

describe("percentile (numpy's default linear interpolation)", () => {
  it("interpolates between order statistics", () => {
    // numpy.percentile([1, 2, 3, 4], [0, 25, 50, 97.5, 100]) = [1, 1.75, 2.5, 3.925, 4]
    expect(percentile([1, 2, 3, 4], 0)).toBe(1);
    expect(percentile([1, 2, 3, 4], 0.25)).toBeCloseTo(1.75, 15);
    expect(percentile([1, 2, 3, 4], 0.5)).toBeCloseTo(2.5, 15);
    expect(percentile([1, 2, 3, 4], 0.975)).toBeCloseTo(3.925, 15);
    expect(percentile([1, 2, 3, 4], 1)).toBe(4);
    expect(percentile([7], 0.3)).toBe(7);
  });
});

describe("resampleGames", () => {
  it("draws n games with replacement, keeping the original order", () => {
    const games: Game[] = Array.from({ length: 50 }, (_, i) => ({ a: `p${i}`, b: "q", outcome: 1 }));
    const sample = resampleGames(games, seededRandom(3));
    expect(sample).toHaveLength(50);
    const positions = sample.map((g) => games.indexOf(g));
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    expect(new Set(positions).size).toBeLessThan(50); // with replacement: duplicates (P(none) ~ 1e-20)
  });
});

describe("bootstrapRatings", () => {
  const games = tournament();
  const players = ["good", "middling", "poor"];
  const rate = (sample: readonly Game[]) => rateElo(sample, { players });

  it("is deterministic for a seed and changes with the seed", () => {
    const first = bootstrapRatings(games, rate, { samples: 200, seed: 9 });
    const again = bootstrapRatings(games, rate, { samples: 200, seed: 9 });
    const other = bootstrapRatings(games, rate, { samples: 200, seed: 10 });
    expect(again).toEqual(first);
    expect(other.ratings.get("good")).not.toEqual(first.ratings.get("good"));
  });

  it("brackets the point estimate, and a higher confidence widens the interval", () => {
    const point = rate(games);
    const ci95 = bootstrapRatings(games, rate, { samples: 300, seed: 1 });
    const ci50 = bootstrapRatings(games, rate, { samples: 300, seed: 1, confidence: 0.5 });
    for (const p of players) {
      const { low, high } = ci95.ratings.get(p)!;
      expect(low).toBeLessThanOrEqual(point.get(p)!);
      expect(high).toBeGreaterThanOrEqual(point.get(p)!);
      const narrow = ci50.ratings.get(p)!;
      expect(narrow.high - narrow.low).toBeLessThan(high - low);
    }
    // The ordering of this tournament is clear: rank intervals are whole ranks and pin the top.
    expect(ci95.ranks.get("good")).toEqual({ low: 1, high: 1 });
    expect(ci95.ranks.get("poor")!.low).toBeGreaterThanOrEqual(2);
  });

  it("validates its options", () => {
    expect(() => bootstrapRatings(games, rate, { samples: 0 })).toThrow(RangeError);
    expect(() => bootstrapRatings(games, rate, { confidence: 1 })).toThrow(RangeError);
  });
});

describe("rankByRating", () => {
  it("ranks best first with shared ranks for ties (competition ranking)", () => {
    const ranks = rankByRating(
      new Map([
        ["c", 1200],
        ["a", 1300],
        ["b", 1200],
        ["d", 1100],
        ["e", 1200 + 1e-10],
      ]),
    );
    expect(ranks).toEqual(
      new Map([
        ["a", 1],
        ["e", 2],
        ["b", 2],
        ["c", 2],
        ["d", 5],
      ]),
    );
  });
});
