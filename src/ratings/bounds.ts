// Rating bounds of the tournament paper (seeds/002, section 6.1.1 "Score convergence"): "We use a
// hard floor of 100 for all models and a 'soft ceiling' whereby updates for models with a rating
// above a threshold (chosen as 3000 in our experiments) are exponentially decayed in proportion to
// the difference between the model rating and the threshold." Section 6.3 applies the same floor
// and ceiling to Glicko-2 and TrueSkill "for consistency".
//
// Read literally, that gives three rules, which this module implements:
// - the ceiling test looks at the rating *before* the update ("models with a rating above a
//   threshold"), so a player at 2995 gaining 8 points lands on 3003 undamped;
// - every update of such a player is damped, losses as well as gains ("updates ... are decayed");
// - the damping factor is exp(-(rating - ceiling) / ceilingScale), i.e. the exponent is
//   proportional to the distance above the threshold.
// The paper does not publish the rate constant. We chose ceilingScale = 100 rating points (an
// update shrinks by a factor e for every 100 points above 3000), which is steep enough that 3000
// acts as a ceiling at K=10 yet still lets ratings above it move and stay ordered. It is a
// parameter so a caller can match another implementation.
// The floor is applied after the damped update: ratings never go below 100.

export interface RatingBounds {
  /** Hard floor: no rating ends an update below this. */
  readonly floor: number;
  /** Soft ceiling: updates of players rated above this are exponentially damped. */
  readonly ceiling: number;
  /** Rating points above the ceiling per e-fold reduction of an update. */
  readonly ceilingScale: number;
}

/** The bounds of seeds/002 section 6.1.1 (floor 100, soft ceiling 3000; scale is our choice). */
export const PAPER_BOUNDS: RatingBounds = Object.freeze({ floor: 100, ceiling: 3000, ceilingScale: 100 });

/** Applies an unbounded system's proposed change `delta` to `rating` under `bounds` (null: none). */
export function boundedUpdate(rating: number, delta: number, bounds: RatingBounds | null): number {
  if (bounds === null) return rating + delta;
  const damping = rating > bounds.ceiling ? Math.exp(-(rating - bounds.ceiling) / bounds.ceilingScale) : 1;
  return Math.max(bounds.floor, rating + delta * damping);
}

export function validateBounds(bounds: RatingBounds | null): void {
  if (bounds === null) return;
  const { floor, ceiling, ceilingScale } = bounds;
  if (![floor, ceiling, ceilingScale].every(Number.isFinite) || floor >= ceiling || ceilingScale <= 0) {
    throw new RangeError(`invalid rating bounds ${JSON.stringify(bounds)}: need finite floor < ceiling, ceilingScale > 0`);
  }
}

/**
 * The bounds for a rating that is fitted at once rather than built by updates (Bradley-Terry). The
 * ceiling's rule, "every update above the ceiling is damped by exp(-(rating - ceiling) / scale)", taken
 * over a rise made of many small updates, gives dr_bounded = exp(-(r_bounded - ceiling) / scale) dr, so
 * a fitted rating r above the ceiling becomes ceiling + scale * ln(1 + (r - ceiling) / scale): the same
 * soft ceiling, still increasing, so the order is kept. Then the hard floor.
 */
export function boundedRating(rating: number, bounds: RatingBounds | null): number {
  if (bounds === null) return rating;
  const damped =
    rating > bounds.ceiling ? bounds.ceiling + bounds.ceilingScale * Math.log1p((rating - bounds.ceiling) / bounds.ceilingScale) : rating;
  return Math.max(bounds.floor, damped);
}
