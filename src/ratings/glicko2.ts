// Glicko-2, following Glickman, "Example of the Glicko-2 system" (glicko.net/glicko/glicko2.pdf,
// the reference of seeds/002 section 6.3), steps 1-8, with the Illinois variant of regula falsi
// for the volatility (step 5.1-5.5, convergence tolerance epsilon = 0.000001 as in the paper).
//
// Defaults are those of seeds/002 section 6.3: tau 0.5, RD 350, volatility 0.06, everybody
// starting at 1200 (Glickman starts at 1500; only rating differences enter the update, so the
// starting value is free), and the paper's floor of 100 and soft ceiling of 3000 (bounds.ts),
// applied to the rating change of each period. Pass bounds: null for the textbook system.

import { boundedUpdate, PAPER_BOUNDS, validateBounds, type RatingBounds } from "./bounds.js";
import { playersOf, validateGame, type Game } from "./games.js";

/** Glicko-2 internal scale: 173.7178 = 400 / ln(10) (Glickman, step 2). */
export const GLICKO2_SCALE = 173.7178;
const GLICKO2_ORIGIN = 1500;

export interface Glicko2Rating {
  readonly rating: number;
  /** Rating deviation, on the rating scale. */
  readonly rd: number;
  readonly volatility: number;
}

export interface Glicko2Options {
  readonly tau?: number;
  readonly initialRating?: number;
  readonly initialRd?: number;
  readonly initialVolatility?: number;
  /** Volatility iteration tolerance (Glickman's epsilon). */
  readonly epsilon?: number;
  readonly bounds?: RatingBounds | null;
  readonly players?: readonly string[];
  /** Starting state of some players (e.g. Glickman's example); others start at the initial values. */
  readonly initial?: ReadonlyMap<string, Glicko2Rating>;
}

export const GLICKO2_DEFAULTS: Readonly<Required<Omit<Glicko2Options, "players" | "initial">>> = Object.freeze({
  tau: 0.5,
  initialRating: 1200,
  initialRd: 350,
  initialVolatility: 0.06,
  epsilon: 0.000001,
  bounds: PAPER_BOUNDS,
});

/** An opponent as seen in one rating period: their pre-period rating and RD, and our score. */
export interface Glicko2Result {
  readonly opponent: Glicko2Rating;
  readonly score: number;
}

const g = (phi: number) => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
const expected = (mu: number, muJ: number, phiJ: number) => 1 / (1 + Math.exp(-g(phiJ) * (mu - muJ)));

/**
 * One player's update over one rating period (Glickman steps 2-8). With no results the player
 * only gains uncertainty: phi' = sqrt(phi^2 + sigma^2) (step 6 applied alone).
 */
export function glicko2PeriodUpdate(
  player: Glicko2Rating,
  results: readonly Glicko2Result[],
  options: Pick<Glicko2Options, "tau" | "epsilon" | "bounds"> = {},
): Glicko2Rating {
  const tau = options.tau ?? GLICKO2_DEFAULTS.tau;
  const epsilon = options.epsilon ?? GLICKO2_DEFAULTS.epsilon;
  const bounds = options.bounds === undefined ? GLICKO2_DEFAULTS.bounds : options.bounds;
  const mu = (player.rating - GLICKO2_ORIGIN) / GLICKO2_SCALE;
  const phi = player.rd / GLICKO2_SCALE;
  const sigma = player.volatility;
  if (results.length === 0) {
    return { rating: player.rating, rd: Math.sqrt(phi * phi + sigma * sigma) * GLICKO2_SCALE, volatility: sigma };
  }

  // Step 3: estimated variance v; step 4: estimated improvement Delta.
  let inverseV = 0;
  let improvementSum = 0;
  for (const { opponent, score } of results) {
    const muJ = (opponent.rating - GLICKO2_ORIGIN) / GLICKO2_SCALE;
    const phiJ = opponent.rd / GLICKO2_SCALE;
    const e = expected(mu, muJ, phiJ);
    inverseV += g(phiJ) ** 2 * e * (1 - e);
    improvementSum += g(phiJ) * (score - e);
  }
  const v = 1 / inverseV;
  const delta = v * improvementSum;

  const newSigma = newVolatility(delta, phi, v, sigma, tau, epsilon);
  // Steps 6-7.
  const phiStar = Math.sqrt(phi * phi + newSigma * newSigma);
  const newPhi = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const newMu = mu + newPhi * newPhi * improvementSum;
  // Step 8, with the paper's bounds applied to the change of rating.
  const rating = boundedUpdate(player.rating, GLICKO2_SCALE * newMu + GLICKO2_ORIGIN - player.rating, bounds);
  return { rating, rd: GLICKO2_SCALE * newPhi, volatility: newSigma };
}

// Step 5: solve f(x) = 0 for x = ln(sigma'^2) by the Illinois algorithm.
function newVolatility(delta: number, phi: number, v: number, sigma: number, tau: number, epsilon: number): number {
  const a = Math.log(sigma * sigma);
  const f = (x: number) => {
    const ex = Math.exp(x);
    const d = phi * phi + v + ex;
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * d * d) - (x - a) / (tau * tau);
  };
  let A = a;
  let B: number;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  while (Math.abs(B - A) > epsilon) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  return Math.exp(A / 2);
}

/** A player idle for `periods` rating periods: only its RD grows, phi^2 + periods x sigma^2 (step 6 alone, repeated). */
function idleFor(player: Glicko2Rating, periods: number): Glicko2Rating {
  const phi = player.rd / GLICKO2_SCALE;
  const sigma = player.volatility;
  return { rating: player.rating, rd: Math.sqrt(phi * phi + periods * sigma * sigma) * GLICKO2_SCALE, volatility: sigma };
}

/**
 * Rates players over successive rating periods. Within a period every player is updated from
 * everybody's pre-period state (games in a period count as simultaneous, per Glickman); players
 * idle in a period only gain RD. That growth is applied when the player next plays (or at the end),
 * for all its idle periods at once: with one game a period, updating every idle player every period
 * cost games x players (10,000 games of 500 players took half a second, each bootstrap sample again).
 */
export function rateGlicko2(periods: readonly (readonly Game[])[], options: Glicko2Options = {}): Map<string, Glicko2Rating> {
  const d = GLICKO2_DEFAULTS;
  const tau = options.tau ?? d.tau;
  const bounds = options.bounds === undefined ? d.bounds : options.bounds;
  if (!(tau > 0)) throw new RangeError(`tau must be positive, got ${tau}`);
  validateBounds(bounds);
  const fresh: Glicko2Rating = {
    rating: options.initialRating ?? d.initialRating,
    rd: options.initialRd ?? d.initialRd,
    volatility: options.initialVolatility ?? d.initialVolatility,
  };
  if (!(fresh.rd > 0) || !(fresh.volatility > 0)) throw new RangeError("initial RD and volatility must be positive");
  const allPlayers = playersOf(periods.flat(), [...(options.players ?? []), ...(options.initial?.keys() ?? [])]);
  const state = new Map<string, Glicko2Rating>(allPlayers.map((p) => [p, options.initial?.get(p) ?? fresh]));
  /** The period each player's state stands at the start of. */
  const upTo = new Map<string, number>(allPlayers.map((p) => [p, 0]));
  /** A player's state at the start of period `t`: its pending idle periods applied. */
  const at = (player: string, t: number): Glicko2Rating => {
    const idle = t - upTo.get(player)!;
    if (idle > 0) {
      state.set(player, idleFor(state.get(player)!, idle));
      upTo.set(player, t);
    }
    return state.get(player)!;
  };
  const update = { tau, epsilon: options.epsilon ?? d.epsilon, bounds };
  for (const [t, period] of periods.entries()) {
    const results = new Map<string, Glicko2Result[]>();
    for (const game of period) {
      validateGame(game);
      const a = at(game.a, t);
      const b = at(game.b, t);
      const resultsOf = (player: string) => results.get(player) ?? results.set(player, []).get(player)!;
      resultsOf(game.a).push({ opponent: b, score: game.outcome });
      resultsOf(game.b).push({ opponent: a, score: 1 - game.outcome });
    }
    for (const [player, mine] of results) {
      state.set(player, glicko2PeriodUpdate(state.get(player)!, mine, update));
      upTo.set(player, t + 1);
    }
  }
  for (const player of allPlayers) at(player, periods.length);
  return new Map(allPlayers.map((p) => [p, state.get(p)!]));
}

/**
 * Splits games into rating periods: by `round` (ascending) when every game has one, otherwise one
 * game per period in the given order, i.e. rated after each match like Elo (seeds/002 section
 * 6.1.2: "Updated Elo ratings were computed after each match").
 */
export function ratingPeriods(games: readonly Game[]): Game[][] {
  if (games.length === 0 || games.some((game) => game.round === undefined)) return games.map((game) => [game]);
  const byRound = new Map<number, Game[]>();
  for (const game of games) {
    const period = byRound.get(game.round!) ?? [];
    period.push(game);
    byRound.set(game.round!, period);
  }
  return [...byRound.entries()].sort(([x], [y]) => x - y).map(([, period]) => period);
}
