import { describe, expect, it } from "vitest";
import { boundedUpdate, PAPER_BOUNDS } from "../../../src/ratings/bounds.js";
import { eloExpectedScore, eloUpdate, rateElo } from "../../../src/ratings/elo.js";
import type { Game } from "../../../src/ratings/games.js";

describe("Elo expected score (seeds/002 eq. 4)", () => {
  it("is 1/2 between equals and 10:1 odds at a 400-point gap", () => {
    expect(eloExpectedScore(1200, 1200)).toBe(0.5);
    // 002 section 5.1: "a score difference of 400 points translates into a 10:1 odds".
    expect(eloExpectedScore(1600, 1200)).toBeCloseTo(10 / 11, 15);
    expect(eloExpectedScore(1200, 1600)).toBeCloseTo(1 / 11, 15);
  });

  it("reproduces Wikipedia's worked example (Elo rating system, 'Mathematical details')", () => {
    // Player A, 1613, loses to 1609, draws 1477, beats 1388 and 1586, loses to 1720. Wikipedia:
    // expected (0.506 + 0.686 + 0.785 + 0.539 + 0.351) = 2.867, new rating 1613 + 32(2.5 - 2.867) = 1601.
    const opponents = [1609, 1477, 1388, 1586, 1720];
    const scores = [0, 0.5, 1, 1, 0];
    const expected = opponents.map((r) => eloExpectedScore(1613, r));
    expect(expected.map((e) => e.toFixed(3))).toEqual(["0.506", "0.686", "0.785", "0.539", "0.351"]);
    const total = expected.reduce((s, e) => s + e, 0);
    expect(total.toFixed(3)).toBe("2.867");
    // Wikipedia updates once per tournament (all games against the pre-tournament rating).
    const after = 1613 + 32 * (scores.reduce((s, x) => s + x, 0) - total);
    expect(Math.round(after)).toBe(1601);
  });
});

describe("Elo update (seeds/002 eq. 5)", () => {
  it("gives +5/-5 for a win between two 1200s at K=10", () => {
    expect(eloUpdate(1200, 1200, 1)).toEqual([1205, 1195]);
    expect(eloUpdate(1200, 1200, 0)).toEqual([1195, 1205]);
    expect(eloUpdate(1200, 1200, 0.5)).toEqual([1200, 1200]);
  });

  it("moves the underdog more for an upset, zero-sum inside the bounds", () => {
    const [a, b] = eloUpdate(1200, 1600, 1);
    expect(a - 1200).toBeCloseTo(10 * (1 - 1 / 11), 12);
    expect(a - 1200).toBeCloseTo(1600 - b, 12);
  });

  it("uses K", () => {
    expect(eloUpdate(1200, 1200, 1, { k: 32 })).toEqual([1216, 1184]);
  });
});

describe("floor and soft ceiling (seeds/002 section 6.1.1)", () => {
  it("never lets a rating fall below the hard floor of 100", () => {
    const [a] = eloUpdate(103, 103, 0, { k: 32 });
    expect(a).toBe(100);
    const [c] = eloUpdate(100, 500, 0, { k: 10 });
    expect(c).toBe(100);
  });

  it("leaves updates at or below the 3000 threshold undamped", () => {
    expect(eloUpdate(3000, 3000, 1)).toEqual([3005, 2995]);
    expect(boundedUpdate(2995, 8, PAPER_BOUNDS)).toBe(3003);
  });

  it("decays updates above 3000 exponentially in the distance to 3000", () => {
    // 100 points above: factor e^-1; 200 above: e^-2 (ceilingScale 100, our documented choice).
    const [a, b] = eloUpdate(3100, 3100, 1);
    expect(a - 3100).toBeCloseTo(5 * Math.exp(-1), 12);
    expect(3100 - b).toBeCloseTo(5 * Math.exp(-1), 12);
    expect(boundedUpdate(3200, 10, PAPER_BOUNDS) - 3200).toBeCloseTo(10 * Math.exp(-2), 12);
    // A player above the ceiling beaten by one below: only the former's change is damped.
    const [high, low] = eloUpdate(3100, 2900, 0);
    const fullChange = 10 * eloExpectedScore(3100, 2900);
    expect(3100 - high).toBeCloseTo(fullChange * Math.exp(-1), 12);
    expect(low - 2900).toBeCloseTo(fullChange, 12);
  });

  it("applies both bounds inside a sequential run", () => {
    const games: Game[] = [
      { a: "x", b: "y", outcome: 1 },
      { a: "x", b: "y", outcome: 1 },
    ];
    // Both start 50 above the ceiling: every update is damped by e^-0.5, then by the new distance.
    const high = rateElo(games, { initialRating: 3050 });
    const firstStep = 5 * Math.exp(-0.5);
    const x1 = 3050 + firstStep;
    const y1 = 3050 - firstStep;
    const secondStep = 10 * (1 - eloExpectedScore(x1, y1));
    expect(high.get("x")).toBeCloseTo(x1 + secondStep * Math.exp(-(x1 - 3000) / 100), 12);
    expect(high.get("y")).toBeCloseTo(y1 - secondStep * Math.exp(-(y1 - 3000) / 100), 12);
    // Near the floor the loser stops at 100 while the winner still gains the full amount.
    const low = rateElo(games, { initialRating: 110, k: 32 });
    expect(low.get("y")).toBe(100);
    expect(low.get("x")).toBeCloseTo(110 + 16 + 32 * (1 - eloExpectedScore(126, 100)), 12);
    expect(rateElo(games, { initialRating: 110, k: 32, bounds: null }).get("y")).toBeLessThan(100);
  });

  it("applies custom bounds and none", () => {
    expect(eloUpdate(1200, 1200, 0, { k: 400, bounds: { floor: 1100, ceiling: 2000, ceilingScale: 50 } })[0]).toBe(1100);
    expect(eloUpdate(1200, 1200, 0, { k: 4000, bounds: null })[0]).toBe(-800);
    expect(() => rateElo([], { bounds: { floor: 3000, ceiling: 100, ceilingScale: 1 } })).toThrow(RangeError);
  });
});

describe("rateElo", () => {
  it("starts everyone at 1200 and processes games in order", () => {
    const games: Game[] = [
      { a: "x", b: "y", outcome: 1 },
      { a: "y", b: "z", outcome: 0.5 },
    ];
    const ratings = rateElo(games, { players: ["idle"] });
    expect(ratings.get("x")).toBe(1205);
    expect(ratings.get("idle")).toBe(1200);
    // y (1195) draws z (1200): y gains 10*(0.5 - E(1195,1200)).
    expect(ratings.get("y")).toBeCloseTo(1195 + 10 * (0.5 - eloExpectedScore(1195, 1200)), 12);
    expect([...ratings.keys()]).toEqual(["x", "y", "z", "idle"]);
  });

  it("depends on order (it is sequential), unlike Bradley-Terry", () => {
    const g1: Game = { a: "x", b: "y", outcome: 1 };
    const g2: Game = { a: "y", b: "z", outcome: 1 };
    expect(rateElo([g1, g2]).get("y")).not.toBe(rateElo([g2, g1]).get("y"));
  });

  it("rejects malformed games", () => {
    expect(() => rateElo([{ a: "x", b: "x", outcome: 1 }])).toThrow(RangeError);
    expect(() => rateElo([{ a: "x", b: "y", outcome: 2 as never }])).toThrow(RangeError);
    expect(() => rateElo([{ a: "", b: "y", outcome: 1 }])).toThrow(RangeError);
    expect(() => rateElo([], { k: -1 })).toThrow(RangeError);
  });
});
