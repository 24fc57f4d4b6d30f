import { decidingScores, mean } from "./match";
import type { Tie } from "./types";

/**
 * How uncertain each answer's score is, from the judge calls behind it: the judge's per-call noise as
 * the evaluation's calls show it (`callNoise`), and each answer's score, standard error and the position
 * bias it still carries (`scoreUncertainty`). Pure. The interval and the review (./confidence) are
 * made of these; so is the placement of extra calls (./extra).
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

/** Where an answer was shown: the shares of its score's weight from judgments shown first, second and alone (sum 1). */
export interface Shown {
  first: number;
  second: number;
  alone: number;
}

/** What the interval and the review (./confidence) read of one evaluation's calls. */
export interface Uncertainties<M extends JudgedMatch = JudgedMatch> {
  /** The matches whose every call is in: the ones the scores are made of. */
  settled: M[];
  noise: CallNoise;
  /** Per answer, in the order of `ids`: its judgments, where it was shown, and its score's uncertainty (null with no judgment). */
  answers: Map<string, { judgments: number; shown: Shown; uncertainty: ScoreUncertainty | null }>;
  /** The judge's own width at its verdicts (root mean square of the spreads it reported); absent without them. */
  judgeSpread?: number;
}

/** Each answer's score and how uncertain it is, with the judge's per-call noise they rest on. */
export function uncertainties<M extends JudgedMatch>(ids: readonly string[], matches: readonly M[], step = 0.5): Uncertainties<M> {
  const done = settled(matches);
  const noise = callNoise(ids, done);
  const poolWeight = Math.min(noise.df, POOL_WEIGHT);
  const floor = (step * step) / 12;
  const answers: Uncertainties["answers"] = new Map();
  const beliefVariances: number[] = [];
  for (const [id, list] of judgmentsOf(ids, done)) {
    for (const j of list) if (j.beliefVariance !== null) beliefVariances.push(j.beliefVariance);
    const share = (p: Judgment["position"]) => list.reduce((s, j) => s + (j.position === p ? j.weight : 0), 0);
    answers.set(id, {
      judgments: list.length,
      shown: { first: share(1), second: share(-1), alone: share(0) },
      uncertainty: list.length > 0 ? uncertaintyOf(list, noise, poolWeight, floor) : null,
    });
  }
  const judgeSpread = beliefVariances.length ? Math.sqrt(mean(beliefVariances)) : undefined;
  return { settled: done, noise, answers, ...(judgeSpread === undefined ? {} : { judgeSpread }) };
}

/**
 * Each judged answer's score and standard error, as the interval of `answerConfidence` uses them (without
 * the scale's clamp, which the core does not know): for planning where more judgments help most.
 */
export function scoreUncertainty(ids: readonly string[], matches: readonly JudgedMatch[], step = 0.5): Map<string, ScoreUncertainty> {
  const out = new Map<string, ScoreUncertainty>();
  for (const [id, a] of uncertainties(ids, matches, step).answers) if (a.uncertainty) out.set(id, a.uncertainty);
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
