import { decidingScores, mean } from "./match";
import { flagged, type ReviewSubject, wrongProbabilities } from "./review";
import { studentQuantile } from "./student-t";
import type { Tie } from "./types";

/**
 * How sure each answer's score is, from the judge calls behind it: how many there are, a 95% interval,
 * and whether a teacher should look at it. Pure: it works on any method's matches (the knockout's and
 * the scheduled methods' have this shape) once the shell has recorded their calls.
 */

/** A judge call as the confidence needs it; `expected` and `spread` come from the judge's probabilities. */
export interface JudgedCall {
  order: readonly string[];
  scores: readonly number[] | null;
  expected?: readonly number[] | null;
  spread?: readonly number[] | null;
  parseRetried?: boolean;
}

/** A match as the confidence needs it: `b` null for a pointwise judgment of `a` alone. */
export interface JudgedMatch {
  a: string;
  b: string | null;
  calls: readonly JudgedCall[];
  /** Set when the match's scores tied, written or deciding (the knockout's Match.tie). */
  tie?: Tie;
  ordersDisagree?: boolean;
}

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

/** The per-call noise of the judge as one evaluation's calls show it. */
export interface CallNoise {
  /** Pooled variance of one judgment about its answer's mean, after the position bias. */
  variance: number;
  /** Its degrees of freedom (0: nothing to estimate it from). */
  df: number;
  /** How much more an answer scores shown first than shown second, from the pairs judged in both orders; 0 without any. */
  positionBias: number;
  /** How many such pairs of judgments it rests on. */
  pairs: number;
}

/** One judgment of an answer: its score in one call, where it stood, and its weight in the answer's score. */
interface Judgment {
  value: number;
  /** +1 shown first of two, -1 second, 0 alone. */
  position: 1 | -1 | 0;
  weight: number;
  /** The variance of the judge's distribution behind it, when it gave its probabilities. */
  beliefVariance: number | null;
}

/**
 * How much the evaluation-wide estimate (and the judge's probabilities) may weigh against an answer's
 * own spread, in degrees of freedom. Tuned on simulated knockouts (test/unit/core/confidence.test.ts):
 * 8 over-covered (t(9) = 2.26 where the pooled noise was well known), 20 covers about 95%.
 */
const POOL_WEIGHT = 20;

/** Matches whose every call is in: the ones the answer's score is made of. */
function settled<M extends JudgedMatch>(matches: readonly M[]): M[] {
  return matches.filter((m) => m.calls.length > 0 && m.calls.every((c) => c.scores !== null));
}

/**
 * Each answer's judgments, weighted as its score weighs them: each the same, 1 / judgments. That is
 * the mean over its matches of the mean over a match's calls whenever its matches have as many calls,
 * and what the knockout's standings take when adaptive debiasing mixes one- and two-call matches.
 */
function judgmentsOf(ids: readonly string[], matches: readonly JudgedMatch[]): Map<string, Judgment[]> {
  const byAnswer = new Map<string, Judgment[]>(ids.map((id) => [id, []]));
  const judgmentCount = new Map<string, number>();
  for (const m of matches)
    for (const id of m.b === null ? [m.a] : [m.a, m.b]) judgmentCount.set(id, (judgmentCount.get(id) ?? 0) + m.calls.length);
  for (const m of matches) {
    for (const id of m.b === null ? [m.a] : [m.a, m.b]) {
      const list = byAnswer.get(id);
      if (!list) continue;
      for (const c of m.calls) {
        const i = c.order.indexOf(id);
        const spread = c.expected ? c.spread?.[i] : undefined;
        list.push({
          value: decidingScores(c)[i],
          position: c.order.length === 2 ? (i === 0 ? 1 : -1) : 0,
          weight: 1 / judgmentCount.get(id)!,
          beliefVariance: spread === undefined ? null : spread * spread,
        });
      }
    }
  }
  return byAnswer;
}

/**
 * The judge's per-call noise in an evaluation, from its debiased pairs where it has them: every answer
 * judged in both orders of one match gives d = its score shown first - its score shown second. The
 * mean of d is the position bias; the variance of d is twice the per-call variance (two independent
 * calls), with one degree of freedom per pair less one. A pair's difference does not depend on who won
 * the match (that is decided by the pair's sum), so the knockout's selection does not bias it.
 * Without two such pairs, the variance pools every answer's spread of judgments about its own mean,
 * with (judgments - 1) degrees of freedom per answer.
 */
export function callNoise(ids: readonly string[], matches: readonly JudgedMatch[]): CallNoise {
  const done = settled(matches);
  const differences: number[] = [];
  for (const m of done) {
    if (m.b === null || m.calls.length !== 2 || m.calls[0].order[0] !== m.calls[1].order[1]) continue;
    for (const id of [m.a, m.b]) {
      const [x, y] = m.calls.map((c) => decidingScores(c)[c.order.indexOf(id)]);
      differences.push(m.calls[0].order[0] === id ? x - y : y - x);
    }
  }
  const positionBias = differences.length ? mean(differences) : 0;
  if (differences.length >= 2) {
    const squares = differences.reduce((s, d) => s + (d - positionBias) ** 2, 0);
    return { variance: squares / (differences.length - 1) / 2, df: differences.length - 1, positionBias, pairs: differences.length };
  }
  let squares = 0;
  let df = 0;
  for (const list of judgmentsOf(ids, done).values()) {
    if (list.length < 2) continue;
    const centre = mean(list.map((j) => j.value));
    for (const j of list) squares += (j.value - centre) ** 2;
    df += list.length - 1;
  }
  return { variance: df > 0 ? squares / df : 0, df, positionBias, pairs: differences.length };
}

/**
 * Per answer: `judgments`, a 95% `interval` and `review`.
 *
 * The interval. An answer's score s is a weighted mean of its judgments x_j (weights w_j as in its
 * score). Each judgment is taken as the answer's true score plus noise of variance v, where v blends
 * three estimates, each by its degrees of freedom:
 *   - the answer's own spread: the sample variance of its judgments (k - 1 degrees of freedom);
 *   - the evaluation's per-call noise (`callNoise`: from the pairs judged in both orders, or else the
 *     spread of every answer's judgments), weighted as at most 8 degrees of freedom, so an answer's
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
  const done = settled(matches);
  const noise = callNoise(ids, done);
  const poolWeight = Math.min(noise.df, POOL_WEIGHT);
  const floor = (step * step) / 12;
  const subjects: ReviewSubject[] = [];
  const found = new Map<string, { judgments: number; interval: [number, number] | null; reasons: ReviewReason[] }>();
  const beliefVariances: number[] = [];
  for (const [id, list] of judgmentsOf(ids, done)) {
    for (const j of list) if (j.beliefVariance !== null) beliefVariances.push(j.beliefVariance);
    const reasons = new Set<ReviewReason>();
    const mine = done.filter((m) => m.a === id || m.b === id);
    if (mine.some((m) => m.ordersDisagree)) reasons.add("orders-disagree");
    if (list.length === 1) reasons.add("single-judgment");
    if (mine.some((m) => m.tie !== undefined)) reasons.add("tie");
    if (mine.some((m) => m.calls.some((c) => c.parseRetried))) reasons.add("parse-retried");
    const interval = list.length === 0 ? null : intervalOf(list, noise, poolWeight, floor, maxScore, level);
    if (interval && gradeBoundaries.some((g) => interval[0] < g && g <= interval[1])) reasons.add("near-boundary");
    if (list.length > 0) subjects.push(subjectOf(id, list, noise, poolWeight, floor));
    found.set(id, { judgments: list.length, interval, reasons: REVIEW_REASONS.filter((r) => reasons.has(r)) });
  }
  // the judge's own width at its verdicts, where the judgments are read from its probabilities
  const judgeSpread = beliefVariances.length ? Math.sqrt(mean(beliefVariances)) : undefined;
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

/** What the review model needs of an answer: its score, standard error, per-call noise and positions. */
function subjectOf(id: string, list: Judgment[], noise: CallNoise, poolWeight: number, floor: number): ReviewSubject {
  const u = uncertaintyOf(list, noise, poolWeight, floor);
  const share = (p: Judgment["position"]) => list.reduce((s, j) => s + (j.position === p ? j.weight : 0), 0);
  return { id, score: u.score, se: u.se, sigma: u.sigma, shown: { first: share(1), second: share(-1), alone: share(0) } };
}

/** An answer's score and how uncertain it is: the standard error, its degrees of freedom, the position bias it carries. */
export interface ScoreUncertainty {
  score: number;
  /** The standard error of the score; Infinity when nothing tells the judge's noise. */
  se: number;
  df: number;
  /** Half the estimated position bias times the weight of the calls it saw from one side only. */
  carriedBias: number;
  /** The per-call standard deviation the standard error is made of (Infinity with it). */
  sigma: number;
}

/**
 * Each judged answer's score and standard error, as the interval of `answerConfidence` uses them (without
 * the scale's clamp, which the core does not know): for planning where more judgments help most.
 */
export function scoreUncertainty(ids: readonly string[], matches: readonly JudgedMatch[], step = 0.5): Map<string, ScoreUncertainty> {
  const done = settled(matches);
  const noise = callNoise(ids, done);
  const poolWeight = Math.min(noise.df, POOL_WEIGHT);
  const out = new Map<string, ScoreUncertainty>();
  for (const [id, list] of judgmentsOf(ids, done))
    if (list.length > 0) out.set(id, uncertaintyOf(list, noise, poolWeight, (step * step) / 12));
  return out;
}

function uncertaintyOf(list: Judgment[], noise: CallNoise, poolWeight: number, floor: number): ScoreUncertainty {
  const score = list.reduce((s, j) => s + j.weight * j.value, 0);
  const own = list.length - 1;
  let ownSquares = 0;
  if (own > 0) {
    const corrected = list.map((j) => j.value - (j.position * noise.positionBias) / 2);
    const centre = mean(corrected);
    for (const x of corrected) ownSquares += (x - centre) ** 2;
  }
  const beliefs = list.flatMap((j) => (j.beliefVariance === null ? [] : [j.beliefVariance]));
  const beliefWeight = beliefs.length > 0 ? POOL_WEIGHT : 0;
  const df = own + poolWeight + beliefWeight;
  const carriedBias = Math.abs(list.reduce((s, j) => s + j.weight * j.position, 0) * noise.positionBias) / 2;
  if (df === 0) return { score, se: Infinity, df, carriedBias, sigma: Infinity };
  const variance = Math.max(
    floor,
    (ownSquares + poolWeight * noise.variance + (beliefs.length > 0 ? beliefWeight * mean(beliefs) : 0)) / df,
  );
  const sumOfSquaredWeights = list.reduce((s, j) => s + j.weight * j.weight, 0);
  return { score, se: Math.sqrt(variance * sumOfSquaredWeights), df, carriedBias, sigma: Math.sqrt(variance) };
}

function intervalOf(
  list: Judgment[],
  noise: CallNoise,
  poolWeight: number,
  floor: number,
  maxScore: number,
  level: number,
): [number, number] {
  const u = uncertaintyOf(list, noise, poolWeight, floor);
  if (u.df === 0) return [0, maxScore];
  const half = studentQuantile(1 - (1 - level) / 2, u.df) * u.se + u.carriedBias;
  const clamp = (x: number) => Math.min(maxScore, Math.max(0, x));
  return [clamp(u.score - half), clamp(u.score + half)];
}
