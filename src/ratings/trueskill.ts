// Two-player TrueSkill (Herbrich, Minka & Graepel 2007), the closed form that the reference Python
// `trueskill` package's factor graph reduces to for one player per team:
//   sigma^2 += tau^2                         (dynamics, applied before each game)
//   c^2 = 2 beta^2 + sigma_w^2 + sigma_l^2
//   epsilon = Phi^-1((drawProbability + 1) / 2) * sqrt(2) * beta   (draw margin, 2 players)
//   t = (mu_w - mu_l) / c
//   win:  v = pdf(t - e) / cdf(t - e),                 w = v (v + t - e)          with e = epsilon/c
//   draw: v = (pdf(-e - t) - pdf(e - t)) / (cdf(e - t) - cdf(-e - t)),
//         w = v^2 + ((e - t) pdf(e - t) + (e + t) pdf(-e - t)) / (cdf(e - t) - cdf(-e - t))
//   mu_w += sigma_w^2 / c * v,   mu_l -= sigma_l^2 / c * v,   sigma^2 *= 1 - sigma^2 / c^2 * w
//
// Defaults are seeds/002 section 6.3's rescaled parameters (mu 1200, sigma 400/3, beta 200, tau 5,
// draw probability 0.1) with the paper's floor and soft ceiling on mu. CLASSIC_TRUESKILL holds the
// original parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300, draw 0.1, no bounds).

import { boundedUpdate, PAPER_BOUNDS, validateBounds, type RatingBounds } from "./bounds.js";
import { playersOf, validateGame, type Game } from "./games.js";
import { normalCdf, normalPdf, normalQuantile } from "./gaussian.js";
import { withDefaults } from "./options.js";

export interface TrueSkillRating {
  readonly mu: number;
  readonly sigma: number;
}

export interface TrueSkillParameters {
  readonly mu: number;
  readonly sigma: number;
  readonly beta: number;
  readonly tau: number;
  readonly drawProbability: number;
  readonly bounds: RatingBounds | null;
}

export const TRUESKILL_DEFAULTS: TrueSkillParameters = Object.freeze({
  mu: 1200,
  sigma: 400 / 3,
  beta: 200,
  tau: 5,
  drawProbability: 0.1,
  bounds: PAPER_BOUNDS,
});

export const CLASSIC_TRUESKILL: TrueSkillParameters = Object.freeze({
  mu: 25,
  sigma: 25 / 3,
  beta: 25 / 6,
  tau: 25 / 300,
  drawProbability: 0.1,
  bounds: null,
});

export interface TrueSkillOptions extends Partial<TrueSkillParameters> {
  readonly players?: readonly string[];
}

/** Draw margin epsilon for a 1v1 game: P(draw) = drawProbability between equal players. */
export function trueskillDrawMargin(drawProbability: number, beta: number): number {
  return normalQuantile((drawProbability + 1) / 2) * Math.SQRT2 * beta;
}

// Additive and multiplicative corrections of the truncated Gaussian (Herbrich et al., table 1).
// Far in the tails the ratios underflow; the limits are v -> -x and w -> 1, as in the Python
// package's fallbacks.
function vWin(t: number, e: number): number {
  const x = t - e;
  const cdf = normalCdf(x);
  return cdf > 0 ? normalPdf(x) / cdf : -x;
}

function wWin(t: number, e: number): number {
  const v = vWin(t, e);
  const w = v * (v + t - e);
  return Number.isFinite(w) ? Math.min(1, Math.max(0, w)) : 1;
}

function vDraw(t: number, e: number): number {
  // Symmetric in t up to sign; computing at |t| keeps both cdf terms in the lower tail.
  const s = Math.abs(t);
  const a = e - s;
  const b = -e - s;
  const mass = normalCdf(a) - normalCdf(b);
  const v = mass > 0 ? (normalPdf(b) - normalPdf(a)) / mass : a;
  return t < 0 ? -v : v;
}

function wDraw(t: number, e: number): number {
  const s = Math.abs(t);
  const a = e - s;
  const b = -e - s;
  const mass = normalCdf(a) - normalCdf(b);
  if (!(mass > 0)) return 1;
  const v = vDraw(s, e);
  const w = v * v + (a * normalPdf(a) - b * normalPdf(b)) / mass;
  return Number.isFinite(w) ? Math.min(1, Math.max(0, w)) : 1;
}

/** One game between `first` and `second`; `drawn` false means `first` won. Returns [first', second']. */
export function trueskillRate1vs1(
  first: TrueSkillRating,
  second: TrueSkillRating,
  drawn: boolean,
  parameters: Partial<TrueSkillParameters> = {},
): [TrueSkillRating, TrueSkillRating] {
  const { beta, tau, drawProbability, bounds } = withDefaults(TRUESKILL_DEFAULTS, parameters);
  return rate1vs1(first, second, drawn, beta, tau, trueskillDrawMargin(drawProbability, beta), bounds);
}

function rate1vs1(
  first: TrueSkillRating,
  second: TrueSkillRating,
  drawn: boolean,
  beta: number,
  tau: number,
  drawMargin: number,
  bounds: RatingBounds | null,
): [TrueSkillRating, TrueSkillRating] {
  const varianceFirst = first.sigma ** 2 + tau ** 2;
  const varianceSecond = second.sigma ** 2 + tau ** 2;
  const c2 = 2 * beta * beta + varianceFirst + varianceSecond;
  const c = Math.sqrt(c2);
  const t = (first.mu - second.mu) / c;
  const e = drawMargin / c;
  const v = drawn ? vDraw(t, e) : vWin(t, e);
  const w = drawn ? wDraw(t, e) : wWin(t, e);
  const next = (rating: TrueSkillRating, variance: number, sign: 1 | -1): TrueSkillRating => ({
    mu: boundedUpdate(rating.mu, (sign * variance * v) / c, bounds),
    sigma: Math.sqrt(variance * (1 - (variance / c2) * w)),
  });
  return [next(first, varianceFirst, 1), next(second, varianceSecond, -1)];
}

/** Sequential TrueSkill over `games` in order. */
export function rateTrueSkill(games: readonly Game[], options: TrueSkillOptions = {}): Map<string, TrueSkillRating> {
  const parameters: TrueSkillParameters = withDefaults(TRUESKILL_DEFAULTS, options);
  const { mu, sigma, beta, tau, drawProbability, bounds } = parameters;
  if (![mu, sigma, beta, tau].every(Number.isFinite) || sigma <= 0 || beta <= 0 || tau < 0) {
    throw new RangeError("TrueSkill needs finite mu, sigma > 0, beta > 0, tau >= 0");
  }
  if (!(drawProbability >= 0 && drawProbability < 1)) throw new RangeError(`drawProbability must be in [0, 1), got ${drawProbability}`);
  validateBounds(bounds);
  const drawMargin = trueskillDrawMargin(drawProbability, beta);
  const ratings = new Map<string, TrueSkillRating>();
  for (const player of playersOf(games, options.players)) ratings.set(player, { mu, sigma });
  for (const game of games) {
    validateGame(game);
    // The reference update is written winner-first; a draw is symmetric.
    const [winner, loser] = game.outcome === 0 ? [game.b, game.a] : [game.a, game.b];
    const [w, l] = rate1vs1(ratings.get(winner)!, ratings.get(loser)!, game.outcome === 0.5, beta, tau, drawMargin, bounds);
    ratings.set(winner, w);
    ratings.set(loser, l);
  }
  return ratings;
}
