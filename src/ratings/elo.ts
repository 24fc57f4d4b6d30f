// Elo as defined in seeds/002 section 5.1 (eqs. 4-5), with the floor and soft ceiling of section
// 6.1.1 (see bounds.ts). Defaults are the paper's: K = 10 (section 6.1.4: "All other experiments in
// this paper with Elo use a K value of 10"), start 1200, floor 100, soft ceiling 3000.

import { boundedUpdate, PAPER_BOUNDS, validateBounds, type RatingBounds } from "./bounds.js";
import { playersOf, validateGame, type Game, type Outcome } from "./games.js";

export interface EloOptions {
  readonly k?: number;
  readonly initialRating?: number;
  /** Floor and soft ceiling; null disables them (plain textbook Elo). Default PAPER_BOUNDS. */
  readonly bounds?: RatingBounds | null;
  /** Players to rate even if they play no game (they keep the initial rating). */
  readonly players?: readonly string[];
}

export const ELO_DEFAULTS: Readonly<Required<Omit<EloOptions, "players">>> = Object.freeze({
  k: 10,
  initialRating: 1200,
  bounds: PAPER_BOUNDS,
});

/** Expected score of A against B (eq. 4): 400 points of difference mean 10:1 odds. */
export function eloExpectedScore(ratingA: number, ratingB: number): number {
  return 1 / (1 + 10 ** ((ratingB - ratingA) / 400));
}

/** One game (eq. 5), both players updated from their pre-game ratings. Returns [newA, newB]. */
export function eloUpdate(
  ratingA: number,
  ratingB: number,
  outcome: Outcome,
  options: Pick<EloOptions, "k" | "bounds"> = {},
): [number, number] {
  const k = options.k ?? ELO_DEFAULTS.k;
  const bounds = options.bounds === undefined ? ELO_DEFAULTS.bounds : options.bounds;
  const expectedA = eloExpectedScore(ratingA, ratingB);
  const deltaA = k * (outcome - expectedA);
  // B's expected score is 1 - expectedA and its result 1 - outcome, so its change is -deltaA
  // before bounds; the floor and ceiling can break the zero sum, as in the paper.
  return [boundedUpdate(ratingA, deltaA, bounds), boundedUpdate(ratingB, -deltaA, bounds)];
}

/** Sequential Elo over `games` in order. */
export function rateElo(games: readonly Game[], options: EloOptions = {}): Map<string, number> {
  const k = options.k ?? ELO_DEFAULTS.k;
  const initialRating = options.initialRating ?? ELO_DEFAULTS.initialRating;
  const bounds = options.bounds === undefined ? ELO_DEFAULTS.bounds : options.bounds;
  if (!Number.isFinite(k) || k < 0) throw new RangeError(`Elo K must be a non-negative number, got ${k}`);
  if (!Number.isFinite(initialRating)) throw new RangeError(`initial rating must be finite, got ${initialRating}`);
  validateBounds(bounds);
  const ratings = new Map<string, number>();
  for (const player of playersOf(games, options.players)) ratings.set(player, initialRating);
  for (const game of games) {
    validateGame(game);
    const [a, b] = eloUpdate(ratings.get(game.a)!, ratings.get(game.b)!, game.outcome, { k, bounds });
    ratings.set(game.a, a);
    ratings.set(game.b, b);
  }
  return ratings;
}
