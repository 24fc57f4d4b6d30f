import { describe, expect, it } from "vitest";
import { bradleyTerryWinProbability, fitBradleyTerry, rateBradleyTerry } from "../../../src/ratings/bradley-terry.js";
import type { Game, Outcome } from "../../../src/ratings/games.js";

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

  it("is a small perturbation of the MLE when the MLE exists", () => {
    const games = [...repeat("a", "b", 1, 70), ...repeat("a", "b", 0, 30)];
    const mle = rateBradleyTerry(games, { prior: 0 });
    const map = rateBradleyTerry(games);
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
    const natural = rateBradleyTerry(games, { scale: Math.LN10, center: 0 });
    expect(natural.get("a")!.rating).toBeCloseTo(Math.log(base.ratings.get("a")!.strength), 9);
    const warm = fitBradleyTerry(games, { initialStrengths: new Map([...base.ratings].map(([p, r]) => [p, r.strength])) });
    expect(warm.iterations).toBeLessThanOrEqual(base.iterations);
    for (const p of ["a", "b", "c"]) expect(warm.ratings.get(p)!.rating).toBeCloseTo(base.ratings.get(p)!.rating, 7);
  });

  it("Newton and MM reach the same optimum, with and without the prior", () => {
    const cases: [Game[], number][] = [
      [fromWinMatrix(["m0", "m1", "m2"], [[0, 30, 45], [20, 0, 35], [5, 15, 0]]), 0],
      [fromWinMatrix(["m0", "m1", "m2"], [[0, 30, 45], [20, 0, 35], [5, 15, 0]]), 0.1],
      [[...repeat("champ", "x", 1, 5), ...repeat("x", "y", 1, 3), ...repeat("y", "x", 1, 2)], 0.1],
      [[...repeat("a", "b", 1, 4), ...repeat("c", "d", 1, 2), ...repeat("d", "c", 1, 1)], 1],
    ];
    for (const [games, prior] of cases) {
      const newton = fitBradleyTerry(games, { prior, method: "newton" });
      const mm = fitBradleyTerry(games, { prior, method: "mm" });
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
