// Bootstrap confidence intervals for any rating system: resample the games with replacement,
// re-rate each sample, and take percentiles of each player's ratings (and ranks) across samples
// (Efron's percentile interval; the scheme Chatbot Arena uses for its leaderboard).
//
// Resampled games keep their original relative order (the drawn indices are sorted). Sequential
// systems (Elo, TrueSkill, Glicko-2 periods) depend on order, and the question the interval
// answers is "which games happened", not "in what order"; shuffling would also move every
// sequential estimate away from the point estimate it is meant to bracket.

import type { Game } from "./games.js";
import { type Random, seededRandom } from "../random/seeded";
import { rankByRating } from "./ranking.js";

export interface BootstrapOptions {
  /** Number of resamples. Default 1000. */
  readonly samples?: number;
  /** Coverage of the interval. Default 0.95. */
  readonly confidence?: number;
  /** PRNG seed; the same seed gives the same intervals. Default 0. */
  readonly seed?: number;
}

export const BOOTSTRAP_DEFAULTS: Readonly<Required<BootstrapOptions>> = Object.freeze({ samples: 1000, confidence: 0.95, seed: 0 });

export interface Interval {
  readonly low: number;
  readonly high: number;
}

export interface BootstrapIntervals {
  readonly ratings: Map<string, Interval>;
  /** Rank intervals (1 = best); nearest-rank percentiles so the bounds are whole ranks. */
  readonly ranks: Map<string, Interval>;
}

/** Draws games.length games with replacement, kept in their original order. */
export function resampleGames(games: readonly Game[], random: Random): Game[] {
  const picks = Array.from({ length: games.length }, () => random.nextInt(games.length));
  picks.sort((x, y) => x - y);
  return picks.map((i) => games[i]);
}

/** Linear-interpolation percentile of sorted values (Hyndman & Fan type 7, numpy's default). */
export function percentile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * q;
  const lower = Math.floor(h);
  const upper = Math.min(lower + 1, sorted.length - 1);
  return sorted[lower] + (h - lower) * (sorted[upper] - sorted[lower]);
}

// Inverted-CDF percentile (Hyndman & Fan type 1): always one of the values.
function nearestRank(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/**
 * `rate` maps a list of games to each player's rating. It should rate a fixed set of players
 * (pass the full player list to the system) so that a player missing from a resample still gets
 * a value; a player absent from a sample's result is simply left out of that sample.
 */
export function bootstrapRatings(
  games: readonly Game[],
  rate: (sample: readonly Game[]) => ReadonlyMap<string, number>,
  options: BootstrapOptions = {},
): BootstrapIntervals {
  const samples = options.samples ?? BOOTSTRAP_DEFAULTS.samples;
  const confidence = options.confidence ?? BOOTSTRAP_DEFAULTS.confidence;
  const seed = options.seed ?? BOOTSTRAP_DEFAULTS.seed;
  if (!Number.isInteger(samples) || samples < 1) throw new RangeError(`samples must be a positive integer, got ${samples}`);
  if (!(confidence > 0 && confidence < 1)) throw new RangeError(`confidence must be in (0, 1), got ${confidence}`);
  const random = seededRandom(seed);
  const ratingDraws = new Map<string, number[]>();
  const rankDraws = new Map<string, number[]>();
  const record = (draws: Map<string, number[]>, player: string, value: number) => {
    const list = draws.get(player);
    if (list) list.push(value);
    else draws.set(player, [value]);
  };
  for (let s = 0; s < samples; s++) {
    const ratings = rate(resampleGames(games, random));
    for (const [player, rating] of ratings) record(ratingDraws, player, rating);
    for (const [player, rank] of rankByRating(ratings)) record(rankDraws, player, rank);
  }
  const tail = (1 - confidence) / 2;
  const intervals = (draws: Map<string, number[]>, pick: (sorted: number[], q: number) => number) =>
    new Map(
      [...draws].map(([player, values]) => {
        const sorted = values.sort((x, y) => x - y);
        return [player, { low: pick(sorted, tail), high: pick(sorted, 1 - tail) }] as const;
      }),
    );
  return { ratings: intervals(ratingDraws, percentile), ranks: intervals(rankDraws, nearestRank) };
}
