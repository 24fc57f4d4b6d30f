import { describe, expect, it } from "vitest";
import { erfc, normalCdf, normalPdf, normalQuantile } from "../../../src/ratings/gaussian.js";
import type { Game } from "../../../src/ratings/games.js";
import {
  CLASSIC_TRUESKILL,
  rateTrueSkill,
  trueskillDrawMargin,
  trueskillRate1vs1,
  TRUESKILL_DEFAULTS,
} from "../../../src/ratings/trueskill.js";

describe("normal distribution helpers", () => {
  // Reference values: scipy 1.17.1, scipy.special.erf/erfc and scipy.stats.norm.cdf/ppf.
  it("erfc matches scipy across the range, with relative precision in the tail", () => {
    expect(1 - erfc(0.5)).toBeCloseTo(0.5204998778130465, 15);
    expect(erfc(1)).toBeCloseTo(0.15729920705028516, 15);
    expect(erfc(3) / 2.2090496998585445e-5).toBeCloseTo(1, 12);
    expect(erfc(10) / 2.0884875837625446e-45).toBeCloseTo(1, 12);
    expect(erfc(-1)).toBeCloseTo(2 - 0.15729920705028516, 15);
    expect(erfc(0)).toBe(1);
  });

  it("cdf, pdf and quantile match scipy", () => {
    expect(normalCdf(-5) / 2.866515718791933e-7).toBeCloseTo(1, 12);
    expect(normalCdf(-20) / 2.7536241186061556e-89).toBeCloseTo(1, 10);
    expect(normalCdf(0)).toBe(0.5);
    expect(normalPdf(0)).toBeCloseTo(1 / Math.sqrt(2 * Math.PI), 16);
    expect(normalQuantile(0.55)).toBeCloseTo(0.12566134685507416, 14);
    expect(normalQuantile(0.999)).toBeCloseTo(3.090232306167813, 12);
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 10);
    expect(normalQuantile(0.5)).toBe(0);
    for (const p of [0.001, 0.02, 0.3, 0.7, 0.98]) expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 14);
  });
});

describe("TrueSkill 1v1 against the reference Python `trueskill` package (classic parameters)", () => {
  // trueskill.TrueSkill() defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300, draw 0.1.
  // rate_1vs1(Rating(), Rating()) -> (29.396, 7.171), (20.604, 7.171);
  // rate_1vs1(Rating(), Rating(), drawn=True) -> (25.000, 6.458), (25.000, 6.458).
  const fresh = { mu: CLASSIC_TRUESKILL.mu, sigma: CLASSIC_TRUESKILL.sigma };

  it("win from fresh players", () => {
    const [winner, loser] = trueskillRate1vs1(fresh, fresh, false, CLASSIC_TRUESKILL);
    expect(winner.mu).toBeCloseTo(29.396, 3);
    expect(winner.sigma).toBeCloseTo(7.171, 3);
    expect(loser.mu).toBeCloseTo(20.604, 3);
    expect(loser.sigma).toBeCloseTo(7.171, 3);
  });

  it("draw from fresh players", () => {
    const [a, b] = trueskillRate1vs1(fresh, fresh, true, CLASSIC_TRUESKILL);
    expect(a.mu).toBeCloseTo(25, 12);
    expect(b.mu).toBeCloseTo(25, 12);
    expect(a.sigma).toBeCloseTo(6.458, 3);
    expect(b.sigma).toBeCloseTo(6.458, 3);
  });

  it("same through rateTrueSkill, whichever side of the game the winner is on", () => {
    const asA = rateTrueSkill([{ a: "w", b: "l", outcome: 1 }], CLASSIC_TRUESKILL);
    const asB = rateTrueSkill([{ a: "l", b: "w", outcome: 0 }], CLASSIC_TRUESKILL);
    expect(asA.get("w")).toEqual(asB.get("w"));
    expect(asA.get("w")!.mu).toBeCloseTo(29.396, 3);
    expect(asA.get("l")!.mu).toBeCloseTo(20.604, 3);
  });

  it("draw margin: Phi^-1((p + 1)/2) * sqrt(2) * beta", () => {
    expect(trueskillDrawMargin(0.1, 25 / 6)).toBeCloseTo(0.12566134685507416 * Math.SQRT2 * (25 / 6), 12);
    expect(trueskillDrawMargin(0, 25 / 6)).toBe(0);
  });
});

describe("TrueSkill with seeds/002's parameters", () => {
  it("defaults to mu 1200, sigma 400/3, beta 200, tau 5, draw 0.1 and the paper's bounds", () => {
    expect(TRUESKILL_DEFAULTS).toMatchObject({ mu: 1200, sigma: 400 / 3, beta: 200, tau: 5, drawProbability: 0.1 });
    expect(rateTrueSkill([], { players: ["p"] }).get("p")).toEqual({ mu: 1200, sigma: 400 / 3 });
  });

  it("is scale-equivariant: the classic system times 48 gives 48 times the classic ratings", () => {
    // A units check on the whole update. (002's parameters are not such a rescaling: mu and beta
    // are 48x classic but sigma 400/3 is only 16x and tau 5 is 60x.)
    const games: Game[] = [
      { a: "x", b: "y", outcome: 1 },
      { a: "y", b: "z", outcome: 0.5 },
      { a: "z", b: "x", outcome: 1 },
      { a: "x", b: "z", outcome: 0 },
    ];
    const classic = rateTrueSkill(games, CLASSIC_TRUESKILL);
    const scaled = rateTrueSkill(games, { mu: 1200, sigma: 400, beta: 200, tau: 4, drawProbability: 0.1, bounds: null });
    for (const p of ["x", "y", "z"]) {
      expect(scaled.get(p)!.mu).toBeCloseTo(48 * classic.get(p)!.mu, 9);
      expect(scaled.get(p)!.sigma).toBeCloseTo(48 * classic.get(p)!.sigma, 9);
    }
  });

  it("stays finite and well-ordered for huge rating gaps (far-tail v and w)", () => {
    const strong = { mu: 3000, sigma: 30 };
    const weak = { mu: 100, sigma: 30 };
    const [s1, w1] = trueskillRate1vs1(strong, weak, false);
    expect(s1.mu).toBeCloseTo(3000, 6); // expected result: (almost) nothing learned
    expect(w1.mu).toBeCloseTo(100, 6);
    const [w2, s2] = trueskillRate1vs1(weak, strong, false, { bounds: null });
    expect(w2.mu).toBeGreaterThan(100 + 10);
    expect(s2.mu).toBeLessThan(3000 - 10);
    expect(Number.isFinite(w2.sigma) && w2.sigma > 0 && w2.sigma < 30.5).toBe(true);
    const [d1, d2] = trueskillRate1vs1(strong, weak, true, { bounds: null });
    expect(d1.mu).toBeLessThan(3000);
    expect(d2.mu).toBeGreaterThan(100);
    expect(d1.sigma).toBeLessThan(Math.sqrt(30 ** 2 + 25));
  });

  it("a win moves the winner up and the loser down, a draw pulls them together", () => {
    const [w, l] = trueskillRate1vs1({ mu: 1300, sigma: 80 }, { mu: 1150, sigma: 120 }, false);
    expect(w.mu).toBeGreaterThan(1300);
    expect(l.mu).toBeLessThan(1150);
    expect(1300 - w.mu + (l.mu - 1150)).toBeLessThan(0);
    const [a, b] = trueskillRate1vs1({ mu: 1300, sigma: 80 }, { mu: 1150, sigma: 120 }, true);
    expect(a.mu).toBeLessThan(1300);
    expect(b.mu).toBeGreaterThan(1150);
    // The more uncertain player moves more.
    expect(b.mu - 1150).toBeGreaterThan(1300 - a.mu);
  });

  it("applies the floor of 100 to mu", () => {
    const [, loser] = trueskillRate1vs1({ mu: 1200, sigma: 400 / 3 }, { mu: 110, sigma: 400 / 3 }, false);
    expect(loser.mu).toBeGreaterThanOrEqual(100);
    const [, low] = trueskillRate1vs1({ mu: 400, sigma: 400 / 3 }, { mu: 110, sigma: 400 / 3 }, false);
    expect(low.mu).toBe(100);
  });

  it("rejects bad parameters", () => {
    expect(() => rateTrueSkill([], { sigma: 0 })).toThrow(RangeError);
    expect(() => rateTrueSkill([], { drawProbability: 1 })).toThrow(RangeError);
  });
});
