import { describe, expect, it } from "vitest";
import { bradleyTerryWinProbability, fitBradleyTerry, rateBradleyTerry } from "../../../src/ratings/bradley-terry.js";
import type { Game, Outcome } from "../../../src/ratings/games.js";
import { boundedRating, PAPER_BOUNDS } from "../../../src/ratings/bounds.js";
import { rateTournament } from "../../../src/ratings/index.js";

function repeat(a: string, b: string, outcome: Outcome, times: number): Game[] {
  return Array.from({ length: times }, () => ({ a, b, outcome }));
}

/** Games from a win matrix: wins[i][j] = times player i beat player j. */
function fromWinMatrix(names: string[], wins: number[][]): Game[] {
  const games: Game[] = [];
  names.forEach((a, i) => names.forEach((b, j) => i !== j && games.push(...repeat(a, b, 1, wins[i][j]))));
  return games;
}

describe("Bradley-Terry maximum likelihood", () => {
  it("two players, w wins and l losses: closed form p = w / (w + l)", () => {
    // The likelihood p^w (1-p)^l peaks at p = w/(w+l), so pA/pB = w/l.
    const games = [...repeat("a", "b", 1, 7), ...repeat("a", "b", 0, 3)];
    const fit = fitBradleyTerry(games, { prior: 0 });
    expect(fit.converged).toBe(true);
    const a = fit.ratings.get("a")!;
    const b = fit.ratings.get("b")!;
    expect(a.strength / b.strength).toBeCloseTo(7 / 3, 10);
    expect(a.strength / (a.strength + b.strength)).toBeCloseTo(0.7, 10);
    expect(bradleyTerryWinProbability(a.rating, b.rating)).toBeCloseTo(0.7, 10);
    expect(a.rating - b.rating).toBeCloseTo(400 * Math.log10(7 / 3), 8);
    // Elo-like scale anchored so the mean is 1200.
    expect((a.rating + b.rating) / 2).toBeCloseTo(1200, 10);
  });

  it("counts a draw as half a win for each side", () => {
    // 3 wins, 1 loss, 2 draws -> 4 of 6 points -> p = 2/3.
    const games = [...repeat("a", "b", 1, 3), ...repeat("b", "a", 1, 1), ...repeat("a", "b", 0.5, 2)];
    const r = rateBradleyTerry(games, { prior: 0 });
    expect(bradleyTerryWinProbability(r.get("a")!.rating, r.get("b")!.rating)).toBeCloseTo(2 / 3, 10);
  });

  // seeds/004's three-model example (win matrix [[0,30,45],[20,0,35],[5,15,0]]). Reference: that
  // snippet's negative log-likelihood minimised with scipy 1.17.1 (BFGS, gtol 1e-12), log-strengths
  // centred: [0.78344516, 0.16016070, -0.94360585], i.e. Elo-scale 1336.0984, 1227.8228, 1036.0789.
  const names = ["m0", "m1", "m2"];
  const wins = [
    [0, 30, 45],
    [20, 0, 35],
    [5, 15, 0],
  ];
  const games = fromWinMatrix(names, wins);

  it("three players: matches scipy's MLE of seeds/004's example", () => {
    const r = rateBradleyTerry(games, { prior: 0 });
    expect(r.get("m0")!.rating).toBeCloseTo(1336.0984, 3);
    expect(r.get("m1")!.rating).toBeCloseTo(1227.8228, 3);
    expect(r.get("m2")!.rating).toBeCloseTo(1036.0789, 3);
    expect(Math.log(r.get("m0")!.strength)).toBeCloseTo(0.78344516, 6);
  });

  it("three players: is the MM fixed point (expected wins equal observed wins)", () => {
    // Hunter (2004): at the MLE, W_i = sum_j n_ij p_i / (p_i + p_j) for every i.
    const r = rateBradleyTerry(games, { prior: 0 });
    const p = names.map((n) => r.get(n)!.strength);
    names.forEach((_, i) => {
      const observed = wins[i].reduce((s, w) => s + w, 0);
      let expected = 0;
      names.forEach((_, j) => {
        if (i !== j) expected += ((wins[i][j] + wins[j][i]) * p[i]) / (p[i] + p[j]);
      });
      expect(expected).toBeCloseTo(observed, 8);
      // ... and one more MM step leaves p unchanged.
      let denominator = 0;
      names.forEach((_, j) => {
        if (i !== j) denominator += (wins[i][j] + wins[j][i]) / (p[i] + p[j]);
      });
      expect(observed / denominator / p[i]).toBeCloseTo(1, 9);
    });
  });

  it("does not depend on game order", () => {
    const shuffled = [...games].reverse();
    const a = rateBradleyTerry(games);
    const b = rateBradleyTerry(shuffled);
    for (const n of names) expect(b.get(n)!.rating).toBeCloseTo(a.get(n)!.rating, 6);
  });
});

describe("Bradley-Terry regularisation (virtual draws against a strength-1 opponent)", () => {
  it("keeps an undefeated player finite with the default prior, and rejects the plain MLE", () => {
    const games = [...repeat("champ", "x", 1, 5), ...repeat("x", "y", 1, 3), ...repeat("y", "x", 1, 2)];
    expect(() => fitBradleyTerry(games, { prior: 0 })).toThrow(/does not exist/);
    const fit = fitBradleyTerry(games);
    expect(fit.converged).toBe(true);
    const champ = fit.ratings.get("champ")!.rating;
    expect(Number.isFinite(champ)).toBe(true);
    expect(champ).toBeGreaterThan(fit.ratings.get("x")!.rating + 400);
    // A stronger prior shrinks more.
    const shrunk = fitBradleyTerry(games, { prior: 5 }).ratings.get("champ")!.rating;
    expect(shrunk).toBeLessThan(champ);
  });

  it("keeps winless players and disconnected groups finite", () => {
    const games = [...repeat("a", "b", 1, 4), ...repeat("c", "d", 1, 2), ...repeat("d", "c", 1, 1)];
    const fit = fitBradleyTerry(games);
    expect(fit.converged).toBe(true);
    for (const r of fit.ratings.values()) expect(Number.isFinite(r.rating)).toBe(true);
    expect(fit.ratings.get("a")!.rating).toBeGreaterThan(fit.ratings.get("b")!.rating);
    expect(() => fitBradleyTerry(games, { prior: 0 })).toThrow(RangeError);
  });

  it("the MAP, when asked for, is a small perturbation of the MLE when the MLE exists", () => {
    const games = [...repeat("a", "b", 1, 70), ...repeat("a", "b", 0, 30)];
    const mle = rateBradleyTerry(games, { prior: 0 });
    const map = rateBradleyTerry(games, { estimate: "map" });
    const gap = (r: typeof mle) => r.get("a")!.rating - r.get("b")!.rating;
    expect(gap(map)).toBeLessThan(gap(mle));
    expect(gap(map)).toBeGreaterThan(gap(mle) - 2);
  });

  it("rates players without games at the mean when asked to include them", () => {
    const r = rateBradleyTerry([{ a: "a", b: "b", outcome: 0.5 }], { players: ["idle"] });
    expect(r.get("idle")!.rating).toBeCloseTo(1200, 8);
    expect(r.get("a")!.rating).toBeCloseTo(1200, 8);
  });

  it("uses custom scale and centre, and warm starts reach the same optimum", () => {
    const games = [...repeat("a", "b", 1, 3), ...repeat("a", "b", 0, 1), ...repeat("b", "c", 1, 2), ...repeat("c", "a", 1, 1)];
    const base = fitBradleyTerry(games);
    const natural = rateBradleyTerry(games, { scale: Math.LN10, center: 0, bounds: null });
    expect(natural.get("a")!.rating).toBeCloseTo(Math.log(base.ratings.get("a")!.strength), 9);
    const warm = fitBradleyTerry(games, { initialStrengths: new Map([...base.ratings].map(([p, r]) => [p, r.strength])) });
    expect(warm.iterations).toBeLessThanOrEqual(base.iterations);
    for (const p of ["a", "b", "c"]) expect(warm.ratings.get(p)!.rating).toBeCloseTo(base.ratings.get(p)!.rating, 7);
  });

  it("Newton and MM reach the same optimum, with and without the prior", () => {
    const cases: [Game[], number][] = [
      [
        fromWinMatrix(
          ["m0", "m1", "m2"],
          [
            [0, 30, 45],
            [20, 0, 35],
            [5, 15, 0],
          ],
        ),
        0,
      ],
      [
        fromWinMatrix(
          ["m0", "m1", "m2"],
          [
            [0, 30, 45],
            [20, 0, 35],
            [5, 15, 0],
          ],
        ),
        0.1,
      ],
      [[...repeat("champ", "x", 1, 5), ...repeat("x", "y", 1, 3), ...repeat("y", "x", 1, 2)], 0.1],
      [[...repeat("a", "b", 1, 4), ...repeat("c", "d", 1, 2), ...repeat("d", "c", 1, 1)], 1],
    ];
    for (const [games, prior] of cases) {
      const estimate = prior === 0 ? "mle" : "map";
      const newton = fitBradleyTerry(games, { prior, estimate, method: "newton" });
      const mm = fitBradleyTerry(games, { prior, estimate, method: "mm" });
      expect(newton.converged && mm.converged).toBe(true);
      expect(newton.iterations).toBeLessThan(20);
      for (const [player, r] of newton.ratings) expect(mm.ratings.get(player)!.rating).toBeCloseTo(r.rating, 5);
    }
  });

  it("handles no games and rejects a negative prior", () => {
    expect(fitBradleyTerry([]).ratings.size).toBe(0);
    expect(() => fitBradleyTerry([], { prior: -1 })).toThrow(RangeError);
  });
});

describe("Bradley-Terry: the MLE where it exists, the MAP where not, and the paper's bounds", () => {
  it("by default the true maximum likelihood estimate when it exists, and says so (it was a MAP with 0.1 virtual games)", () => {
    const games = [
      ...repeat("a", "b", 1, 7),
      ...repeat("b", "a", 1, 3),
      ...repeat("b", "c", 1, 6),
      ...repeat("c", "b", 1, 4),
      ...repeat("c", "a", 1, 2),
    ];
    const fit = fitBradleyTerry(games);
    expect(fit.estimate).toBe("mle");
    const mle = fitBradleyTerry(games, { prior: 0 });
    for (const [p, r] of mle.ratings) expect(fit.ratings.get(p)!.rating).toBeCloseTo(r.rating, 9);
    // two players: the MLE's closed form, odds 7:3 exactly
    const two = fitBradleyTerry([...repeat("a", "b", 1, 7), ...repeat("b", "a", 1, 3)]);
    expect(two.ratings.get("a")!.strength / two.ratings.get("b")!.strength).toBeCloseTo(7 / 3, 9);
  });

  it("the MAP, labelled, where no MLE exists; estimate 'mle' refuses such data", () => {
    const unbeaten = [...repeat("champ", "x", 1, 5), ...repeat("x", "y", 1, 3), ...repeat("y", "x", 1, 2)];
    expect(fitBradleyTerry(unbeaten).estimate).toBe("map");
    expect(() => fitBradleyTerry(unbeaten, { estimate: "mle" })).toThrow(/does not exist/);
    expect(fitBradleyTerry(unbeaten, { estimate: "map" }).estimate).toBe("map");
    expect(() => fitBradleyTerry(unbeaten, { estimate: "best" as never })).toThrow(RangeError);
  });

  it("the hard floor of 100: 8 players in a strict order no longer fall to -1,601", () => {
    const names = Array.from({ length: 8 }, (_, i) => `p${i}`);
    const games = names.flatMap((a, i) => names.slice(i + 1).map((b) => ({ a, b, outcome: 1 as Outcome })));
    const unbounded = fitBradleyTerry(games, { bounds: null });
    expect(Math.min(...[...unbounded.ratings.values()].map((r) => r.rating))).toBeLessThan(100);
    const fit = fitBradleyTerry(games);
    expect(fit.estimate).toBe("map");
    for (const [p, r] of fit.ratings) {
      expect(r.rating).toBeGreaterThanOrEqual(100);
      expect(r.rating).toBe(boundedRating(unbounded.ratings.get(p)!.rating, PAPER_BOUNDS));
      expect(r.strength).toBe(unbounded.ratings.get(p)!.strength); // the odds stay the fit's
    }
    expect(fit.ratings.get("p7")!.rating).toBe(100);
  });

  it("the soft ceiling of 3000: above it a fitted rating is damped as updates are, still in order", () => {
    expect(boundedRating(2500, PAPER_BOUNDS)).toBe(2500);
    expect(boundedRating(3000, PAPER_BOUNDS)).toBe(3000);
    expect(boundedRating(3001, PAPER_BOUNDS)).toBeCloseTo(3001, 1); // slope 1 at the ceiling
    expect(boundedRating(3100, PAPER_BOUNDS)).toBeCloseTo(3000 + 100 * Math.log(2), 9);
    expect(boundedRating(4000, PAPER_BOUNDS)).toBeLessThan(boundedRating(5000, PAPER_BOUNDS));
    expect(boundedRating(5000, PAPER_BOUNDS)).toBeLessThan(3400);
    expect(boundedRating(-500, PAPER_BOUNDS)).toBe(100);
    expect(boundedRating(-500, null)).toBe(-500);
    // in a fit: a huge spread (center high so the top rises past 3000)
    const games = [...repeat("a", "b", 1, 99), ...repeat("b", "a", 1, 1)];
    const high = fitBradleyTerry(games, { center: 3000 });
    const raw = fitBradleyTerry(games, { center: 3000, bounds: null });
    expect(raw.ratings.get("a")!.rating).toBeGreaterThan(3300);
    expect(high.ratings.get("a")!.rating).toBeCloseTo(boundedRating(raw.ratings.get("a")!.rating, PAPER_BOUNDS), 9);
  });

  it("rateTournament labels the Bradley-Terry estimate", () => {
    const mle = rateTournament([...repeat("a", "b", 1, 3), ...repeat("b", "a", 1, 1)], { systems: ["bradleyTerry"], bootstrap: false });
    expect(mle.systems.bradleyTerry!.estimate).toBe("mle");
    const map = rateTournament(repeat("a", "b", 1, 3), { systems: ["bradleyTerry", "elo"], bootstrap: false });
    expect(map.systems.bradleyTerry!.estimate).toBe("map");
    expect(map.systems.elo!.estimate).toBeUndefined();
  });
});

describe("Bradley-Terry within a work budget", () => {
  /** Players in a line, each beating the next two games in three: MM creeps along it for ever. */
  const chain = (players: number): Game[] =>
    Array.from({ length: players - 1 }, (_, i) =>
      ([1, 0, 1] as Outcome[]).map((outcome) => ({ a: `p${i}`, b: `p${i + 1}`, outcome })),
    ).flat();
  /** 320 players (MM's side of NEWTON_MAX_PLAYERS), each meeting 8 others from across the field: a few hundred steps. */
  const connected = (): Game[] =>
    Array.from({ length: 320 }, (_, i) =>
      [1, 17, 53, 101].flatMap((d) => [
        { a: `p${i}`, b: `p${(i + d) % 320}`, outcome: (i % 3 === 0 ? 1 : 0) as Outcome },
        { a: `p${(i + d) % 320}`, b: `p${i}`, outcome: 0.5 as Outcome },
      ]),
    ).flat();

  it("stops when its budget is spent and says it did not converge", () => {
    const games = chain(320);
    // MM visits the 319 pairs and 320 players each iteration
    const fit = fitBradleyTerry(games, { workBudget: 639 * 50 });
    expect(fit.iterations).toBe(50);
    expect(fit.converged).toBe(false);
    expect(fitBradleyTerry(games, { workBudget: 639 * 50, maxIterations: 20 }).iterations).toBe(20);
  });

  it("gives the same fit as without a budget when the budget is enough", () => {
    const games = connected();
    const free = fitBradleyTerry(games);
    const budgeted = fitBradleyTerry(games, { workBudget: 1e9 });
    expect(free.converged).toBe(true);
    expect(budgeted.iterations).toBe(free.iterations);
    expect([...budgeted.ratings]).toEqual([...free.ratings]);
  });

  it("rateTournament gives the point fit half the request's work when it bootstraps, the samples the other half", () => {
    const games = connected();
    const iterations = fitBradleyTerry(games).iterations;
    const perIteration = 320 + new Set(games.map((g) => [g.a, g.b].sort().join())).size;
    const work = perIteration * (iterations + 1);
    const alone = rateTournament(games, { systems: ["bradleyTerry"], bootstrap: false, bradleyTerryWork: work });
    expect(alone.systems.bradleyTerry!.converged).toBe(true);
    // bootstrapped, the point fit gets half of it, too few iterations; with twice the work, enough again
    const shared = rateTournament(games, { systems: ["bradleyTerry"], bootstrap: { samples: 9, seed: 1 }, bradleyTerryWork: work });
    expect(shared.systems.bradleyTerry!.converged).toBe(false);
    const doubled = rateTournament(games, { systems: ["bradleyTerry"], bootstrap: { samples: 9, seed: 1 }, bradleyTerryWork: 2 * work });
    expect(doubled.systems.bradleyTerry!.converged).toBe(true);
    expect(rateTournament(games, { systems: ["bradleyTerry"], bootstrap: false }).systems.bradleyTerry!.converged).toBe(true);
  });
});
