// Bradley-Terry (seeds/002 section 5.2.1; seeds/004 "Combining Both"): P(A beats B) = pA/(pA+pB),
// a draw counting as half a win for each side (its likelihood term is sqrt(pA pB)/(pA+pB), the same as
// half a win plus half a loss). Solvers (Newton for up to NEWTON_MAX_PLAYERS players, the MM algorithm
// of Zermelo/Hunter above that) live in bradley-terry-solvers.ts.
//
// Maximum likelihood where it exists, MAP where it does not (`estimate: "auto"`, the default; the fit
// says which it gave). The MLE exists only if the "beats" graph is strongly connected (Hunter 2004,
// Assumption 1): an undefeated player, a winless one, or two groups that never met send strengths to
// 0 or infinity. Then every player gets `prior` virtual games against a fixed virtual opponent of
// strength 1, half won and half lost. That is a proper prior on each log-strength (density
// proportional to sigma(theta)^(prior/2) sigma(-theta)^(prior/2), peaked at 0), so the posterior mode
// always exists and is unique. The default, 0.1 virtual games per player, is negligible next to real
// data yet keeps an undefeated player finite. Disconnected groups are placed relative to each other by
// the prior alone: their offset means nothing. `estimate: "mle"` (or `prior: 0`) refuses data without
// an MLE; `estimate: "map"` always fits the posterior mode.
//
// Ratings are reported on the Elo scale, rating = center + scale * log10(p / geometric-mean p),
// so 400 points mean 10:1 odds as in Elo and the mean rating is 1200 (seeds/002 section 6.3
// initialises every system at 1200 and scales them alike), then bounded as seeds/002 bounds every
// system: the hard floor of 100 and the soft ceiling of 3000 (bounds.ts, `boundedRating`), so 8
// players in a strict order no longer reach -1,601. `strength` is the fit's, unbounded: it is what
// the odds are computed from.

import { NEWTON_MAX_PLAYERS, solveMM, solveNewton, type BradleyTerryData } from "./bradley-terry-solvers.js";
import { boundedRating, PAPER_BOUNDS, validateBounds, type RatingBounds } from "./bounds.js";
import { headToHead, playersOf, type Game } from "./games.js";
import { withDefaults } from "./options.js";

export type BradleyTerryEstimate = "mle" | "map";

export interface BradleyTerryOptions {
  /** "auto" (default): the MLE where it exists, else the MAP; "mle": the MLE or an error; "map": always the MAP. */
  readonly estimate?: "auto" | BradleyTerryEstimate;
  /** The MAP's virtual games per player against a strength-1 opponent, half won. Default 0.1; 0 = the MLE only. */
  readonly prior?: number;
  /** Floor and soft ceiling on the Elo-scale ratings; null disables them. Default PAPER_BOUNDS. */
  readonly bounds?: RatingBounds | null;
  /** Elo-scale points per factor 10 in odds. Default 400. */
  readonly scale?: number;
  /** Mean rating on the Elo scale. Default 1200. */
  readonly center?: number;
  /** Stop when no log-strength moves more than this in an iteration. Default 1e-10. */
  readonly tolerance?: number;
  readonly maxIterations?: number;
  /**
   * The most work the solver may do, in units of one pair or player visited (`bradleyTerryStepCost`:
   * an MM iteration visits every pair and player; a Newton iteration also solves its n x n system). Fewer
   * iterations than `maxIterations` when it runs out; the fit then says it did not converge. Default
   * Infinity. A chain of 500 players, each beating the next twice in three, needs MM's whole 100,000
   * iterations (3 s on a shared core): the service sets a budget, so a request cannot hold its CPU.
   */
  readonly workBudget?: number;
  /** Solver: "auto" (default) = Newton up to NEWTON_MAX_PLAYERS players, MM above. */
  readonly method?: "auto" | "newton" | "mm";
  readonly players?: readonly string[];
  /** Warm start (strengths by player, any positive scale), e.g. the point fit when bootstrapping. */
  readonly initialStrengths?: ReadonlyMap<string, number>;
}

export const BRADLEY_TERRY_DEFAULTS: Readonly<
  Required<Pick<BradleyTerryOptions, "estimate" | "prior" | "scale" | "center" | "tolerance" | "maxIterations" | "method">>
> = Object.freeze({
  estimate: "auto",
  prior: 0.1,
  scale: 400,
  center: 1200,
  tolerance: 1e-10,
  maxIterations: 100_000,
  method: "auto",
});

export interface BradleyTerryRating {
  /** Elo-scale rating (mean over players = center before the bounds). */
  readonly rating: number;
  /** Strength p, normalised so that the geometric mean over players is 1. */
  readonly strength: number;
}

export interface BradleyTerryFit {
  readonly ratings: Map<string, BradleyTerryRating>;
  readonly iterations: number;
  readonly converged: boolean;
  /** Which estimate this is: the maximum likelihood, or the posterior mode where no MLE exists. */
  readonly estimate: BradleyTerryEstimate;
}

/** P(A beats B) from two Bradley-Terry ratings on the Elo scale (draws count as half). */
export function bradleyTerryWinProbability(ratingA: number, ratingB: number, scale: number = BRADLEY_TERRY_DEFAULTS.scale): number {
  return 1 / (1 + 10 ** ((ratingB - ratingA) / scale));
}

export function fitBradleyTerry(games: readonly Game[], options: BradleyTerryOptions = {}): BradleyTerryFit {
  const {
    estimate: asked,
    prior: mapPrior,
    scale,
    center,
    tolerance,
    maxIterations,
    method,
  } = withDefaults(BRADLEY_TERRY_DEFAULTS, options);
  if (!(mapPrior >= 0) || !Number.isFinite(mapPrior)) throw new RangeError(`prior must be a finite number >= 0, got ${mapPrior}`);
  if (!(scale > 0)) throw new RangeError(`scale must be positive, got ${scale}`);
  if (!["auto", "mle", "map"].includes(asked))
    throw new RangeError(`estimate must be "auto", "mle" or "map", got ${JSON.stringify(asked)}`);
  const bounds = options.bounds === undefined ? PAPER_BOUNDS : options.bounds;
  validateBounds(bounds);
  const players = playersOf(games, options.players);
  const index = new Map(players.map((player, i) => [player, i]));
  const n = players.length;
  const points = new Float64Array(n);
  const pairs = headToHead(games).map((pair) => {
    const i = index.get(pair.a)!;
    const j = index.get(pair.b)!;
    points[i] += pair.scoreA;
    points[j] += pair.games - pair.scoreA;
    return { i, j, games: pair.games, scoreI: pair.scoreA };
  });
  const mleOnly = asked === "mle" || mapPrior === 0;
  const estimate: BradleyTerryEstimate = mleOnly || (asked === "auto" && mleExists(players, games)) ? "mle" : "map";
  if (mleOnly && !mleExists(players, games)) {
    throw new RangeError(
      "Bradley-Terry MLE does not exist: some group of players never lost (or never won) against the rest; use prior > 0",
    );
  }
  const prior = estimate === "mle" ? 0 : mapPrior;
  const data: BradleyTerryData = { n, pairs, points, prior };
  const start = Float64Array.from(players, (player) => {
    const p = options.initialStrengths?.get(player);
    return p !== undefined && p > 0 && Number.isFinite(p) ? Math.log(p) : 0;
  });
  const useNewton = method === "newton" || (method === "auto" && n <= NEWTON_MAX_PLAYERS);
  const solve = useNewton ? solveNewton : solveMM;
  const perIteration = bradleyTerryStepCost(n, pairs.length, useNewton);
  const iterationCap = Math.min(maxIterations, Math.max(1, Math.floor((options.workBudget ?? Infinity) / perIteration)));
  const { theta, iterations, converged } =
    n === 0 ? { theta: start, iterations: 0, converged: true } : solve(data, start, tolerance, iterationCap);

  const logStrength = Array.from(theta);
  const meanLog = n === 0 ? 0 : logStrength.reduce((sum, x) => sum + x, 0) / n;
  const ratings = new Map<string, BradleyTerryRating>();
  players.forEach((player, i) => {
    const centred = logStrength[i] - meanLog;
    ratings.set(player, { rating: boundedRating(center + (scale / Math.LN10) * centred, bounds), strength: Math.exp(centred) });
  });
  return { ratings, iterations, converged, estimate };
}

/**
 * One solver iteration's work, in units of one pair or player visited by MM (about 30 ns here): MM
 * visits every pair and player; Newton also solves its n x n system, n^3 / 3 multiply-adds at about
 * 1 ns each, so n^3 / 90 units (a line of 250 players: 5.4 ms a Newton step).
 */
export function bradleyTerryStepCost(players: number, pairs: number, newton = players <= NEWTON_MAX_PLAYERS): number {
  return pairs + players + (newton ? players ** 3 / 90 : 0);
}

export function rateBradleyTerry(games: readonly Game[], options: BradleyTerryOptions = {}): Map<string, BradleyTerryRating> {
  return fitBradleyTerry(games, options).ratings;
}

// Hunter's Assumption 1: for every split of the players into two groups, someone in each group
// scored against someone in the other. Equivalently the digraph "i took points from j" is
// strongly connected. A draw takes points both ways.
export function mleExists(players: readonly string[], games: readonly Game[]): boolean {
  if (players.length <= 1) return true;
  const forward = new Map<string, Set<string>>(players.map((p) => [p, new Set()]));
  const backward = new Map<string, Set<string>>(players.map((p) => [p, new Set()]));
  const edge = (from: string, to: string) => {
    forward.get(from)!.add(to);
    backward.get(to)!.add(from);
  };
  for (const game of games) {
    if (game.outcome > 0) edge(game.a, game.b);
    if (game.outcome < 1) edge(game.b, game.a);
  }
  const reachesAll = (graph: Map<string, Set<string>>) => {
    const seen = new Set([players[0]]);
    const stack = [players[0]];
    while (stack.length > 0) {
      for (const next of graph.get(stack.pop()!)!) {
        if (!seen.has(next)) {
          seen.add(next);
          stack.push(next);
        }
      }
    }
    return seen.size === players.length;
  };
  return reachesAll(forward) && reachesAll(backward);
}
