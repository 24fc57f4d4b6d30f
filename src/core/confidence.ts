import { flagged, type ReviewSubject, wrongProbabilities } from "./review";
import { studentQuantile } from "./student-t";
import { type JudgedMatch, type ScoreUncertainty, uncertainties } from "./uncertainty";

export type { JudgedCall, JudgedMatch } from "./uncertainty";

/**
 * How sure each answer's score is, from the judge calls behind it: how many there are, a 95% interval,
 * and whether a teacher should look at it. Pure: it works on any method's matches (the knockout's and
 * the scheduled methods' have this shape) once the shell has recorded their calls.
 */

export type ReviewReason = "orders-disagree" | "single-judgment" | "tie" | "parse-retried" | "near-boundary";

/** Reasons in the order they are listed in a review. */
export const REVIEW_REASONS: readonly ReviewReason[] = ["orders-disagree", "single-judgment", "tie", "parse-retried", "near-boundary"];

export interface AnswerConfidence {
  /** The judge scores behind the answer's score: one per call it was shown in. */
  judgments: number;
  /** A 95% interval for the score, within [0, maxScore]; null while the answer has no judgment. */
  interval: [number, number] | null;
  /**
   * Null while the answer has no judgment. Else how likely its grade is wrong (src/core/review.ts),
   * whether it is among those a teacher should look at, and what in its calls explains it.
   */
  review: null | { flagged: boolean; probability: number; reasons: ReviewReason[] };
}

export interface ConfidenceOptions {
  maxScore: number;
  /** The written scores' resolution (0.5 for half points): no judgment is known more finely than it. Default 0.5. */
  step?: number;
  /** Scores where a grade changes, e.g. [2.5, 4]; an interval that crosses one asks for review. */
  gradeBoundaries?: readonly number[];
  /** Default 0.95. */
  level?: number;
  /** The share of the judged answers flagged for review, the most likely wrong first. Default 0.15. */
  reviewShare?: number;
  /** Also flag every answer more likely wrong than this. */
  reviewThreshold?: number;
  /** Without grade boundaries, how far from the truth a grade may be before it is wrong (src/core/review.ts). */
  tolerance?: number;
}

/**
 * Per answer: `judgments`, a 95% `interval` and `review`.
 *
 * The interval. An answer's score s is a weighted mean of its judgments x_j (weights w_j as in its
 * score). Each judgment is taken as the answer's true score plus noise of variance v, where v blends
 * three estimates, each by its degrees of freedom:
 *   - the answer's own spread: the sample variance of its judgments (k - 1 degrees of freedom);
 *   - the evaluation's per-call noise (`callNoise`: from the pairs judged in both orders, or else the
 *     spread of every answer's judgments), weighted as at most 20 degrees of freedom, so an answer's
 *     own spread can still show that it is harder to judge than most;
 *   - where the judge gave its probabilities, the mean variance of its distributions at this answer's
 *     scores, the judge's own uncertainty, weighted as the pooled estimate is (it is a model of the
 *     same per-call noise, and it is all there is for an answer judged once, pointwise);
 * never below step^2 / 12, the rounding of a written score. The half-width is
 * t(0.975, df) * sqrt(v * sum w_j^2), with df the sum of those degrees of freedom, plus the position
 * bias the score still carries (half the estimated bias times the weight of the calls it saw from one
 * side only); the interval is clamped to [0, maxScore]. With nothing to estimate the noise from (one
 * judgment and no other answer judged twice, no probabilities) it is the whole scale.
 *
 * Review: the probability that the answer's grade is wrong (`wrongProbabilities`, src/core/review.ts:
 * from its score, standard error, per-call noise, the positions it was shown at and the scale's ends),
 * `flagged` when it is among the `reviewShare` most likely wrong or above `reviewThreshold`, and
 * reasons that explain it, none of which flags an answer alone: `orders-disagree` (the two orders of one of its matches chose different winners),
 * `single-judgment` (one judge score behind it), `tie` (one of its matches, which advanced or
 * eliminated it, had equal written match scores), `parse-retried` (a reply behind it had to be asked
 * for again), `near-boundary` (a grade boundary g lies in lo < g <= hi: the score could be on either
 * side of it).
 */
export function answerConfidence(
  ids: readonly string[],
  matches: readonly JudgedMatch[],
  options: ConfidenceOptions,
): Map<string, AnswerConfidence> {
  const { maxScore, step = 0.5, gradeBoundaries = [], level = 0.95, reviewShare = 0.15, reviewThreshold, tolerance } = options;
  if (!(maxScore > 0)) throw new RangeError(`maxScore must be positive, got ${maxScore}`);
  if (!(step > 0)) throw new RangeError(`step must be positive, got ${step}`);
  if (!(level > 0 && level < 1)) throw new RangeError(`level must be in (0, 1), got ${level}`);
  const { settled: done, noise, answers, judgeSpread } = uncertainties(ids, matches, step);
  const subjects: ReviewSubject[] = [];
  const found = new Map<string, { judgments: number; interval: [number, number] | null; reasons: ReviewReason[] }>();
  for (const [id, { judgments, shown, uncertainty: u }] of answers) {
    const reasons = new Set<ReviewReason>();
    const mine = done.filter((m) => m.a === id || m.b === id);
    if (mine.some((m) => m.ordersDisagree)) reasons.add("orders-disagree");
    if (judgments === 1) reasons.add("single-judgment");
    if (mine.some((m) => m.tie !== undefined)) reasons.add("tie");
    if (mine.some((m) => m.calls.some((c) => c.parseRetried))) reasons.add("parse-retried");
    const interval = u ? intervalOf(u, maxScore, level) : null;
    if (interval && gradeBoundaries.some((g) => interval[0] < g && g <= interval[1])) reasons.add("near-boundary");
    if (u) subjects.push({ id, score: u.score, se: u.se, sigma: u.sigma, shown });
    found.set(id, { judgments, interval, reasons: REVIEW_REASONS.filter((r) => reasons.has(r)) });
  }
  const probabilities = wrongProbabilities(subjects, {
    maxScore,
    positionBias: noise.positionBias,
    tolerance,
    gradeBoundaries,
    step,
    judgeSpread,
  });
  const flags = subjects.length ? flagged(probabilities, { share: reviewShare, threshold: reviewThreshold }) : new Set<string>();
  const out = new Map<string, AnswerConfidence>();
  for (const [id, f] of found) {
    const probability = probabilities.get(id);
    out.set(id, {
      judgments: f.judgments,
      interval: f.interval,
      review: probability === undefined ? null : { flagged: flags.has(id), probability, reasons: f.reasons },
    });
  }
  return out;
}

/** A `level` interval for the score, within [0, maxScore]; the whole scale when nothing tells the noise. */
function intervalOf(u: ScoreUncertainty, maxScore: number, level: number): [number, number] {
  if (u.df === 0) return [0, maxScore];
  const half = studentQuantile(1 - (1 - level) / 2, u.df) * u.se + u.carriedBias;
  const clamp = (x: number) => Math.min(maxScore, Math.max(0, x));
  return [clamp(u.score - half), clamp(u.score + half)];
}
