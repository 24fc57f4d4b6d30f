import { normalCdf, normalPdf } from "../ratings/gaussian";
import { meanReading, readingTable } from "./reading";
import type { Shown } from "./uncertainty";

/**
 * How likely each answer's grade is wrong, and which answers a teacher should look at first. Pure.
 *
 * The model, per answer: its true grade T (what a teacher would give, on the judge's scale) has a
 * prior over [0, maxScore], a normal about the mean of the question's scores with the variance the
 * scores show beyond their own noise (empirical Bayes: an answer judged twice far from the others is
 * more likely pulled there by noise than one judged eight times). Its score s is the mean of its
 * judgments, each a judgment of T shifted by the position bias it was shown at (+b/2 first, -b/2
 * second) plus the judge's per-call noise, and held to the scale: so s ~ N(m(T), se^2), with m(T) the
 * mean of the judgments' expectations. Near the ends of the scale m(T) is pulled inwards (a judge
 * cannot write 5.6 of 5), which is why a high score is more often too low than a middle one. Where the
 * judgments are read from the judge's probabilities (`judgeSpread` given), m(T) is the mean of what the
 * service reads (./reading): lower still at the top, where the probabilities can only spread downwards.
 * The probability that the grade is wrong is the posterior mass of the T where it would be another:
 * |T - s| > tolerance, or, with grade boundaries, T in another band than s.
 */

/** One judged answer as the review model needs it. */
export interface ReviewSubject {
  id: string;
  score: number;
  /** Standard error of the score (Infinity: nothing tells the judge's noise). */
  se: number;
  /** The judge's per-call standard deviation behind the score. */
  sigma: number;
  /** Shares of the score's weight from judgments shown first, shown second, and shown alone (sum 1). */
  shown: Shown;
}

export interface ReviewModelOptions {
  maxScore: number;
  /** First minus second position, as the evaluation's debiased pairs show it. */
  positionBias: number;
  /** Without grade boundaries, a grade is wrong when the truth is further than this. Default 0.5 (10 on a 100-point scale). */
  tolerance?: number;
  gradeBoundaries?: readonly number[];
  /** The written scores' step; default 0.5. */
  step?: number;
  /**
   * The width of the judge's probabilities at its verdicts (root mean square of the calls' reported
   * `spread`); absent when it gave none, and the judgments are its written scores.
   */
  judgeSpread?: number;
}

/** Points of the grid the truth is integrated over. */
const GRID = 201;

/** E[min(M, max(0, X))] for X ~ N(mu, sigma^2). */
export function clampedMean(mu: number, sigma: number, maxScore: number): number {
  if (!(sigma > 0)) return Math.min(maxScore, Math.max(0, mu));
  const a = (0 - mu) / sigma;
  const b = (maxScore - mu) / sigma;
  const inside = mu * (normalCdf(b) - normalCdf(a)) + sigma * (normalPdf(a) - normalPdf(b));
  return inside + maxScore * (1 - normalCdf(b));
}

/** The band of a score: how many boundaries lie at or below it. */
function band(x: number, boundaries: readonly number[]): number {
  let n = 0;
  for (const g of boundaries) if (g <= x) n++;
  return n;
}

/** From this many judged answers on, the prior takes the shape the scores show rather than a normal's. */
export const SHAPED_PRIOR_FROM = 20;

/** Steps of smoothed EM from a flat prior. */
const SHAPED_PRIOR_STEPS = 30;

/**
 * The smoothing of each step: a normal kernel of this share of the scale (0.15 of a point on 0-5).
 * Narrow enough to keep the crowd at full marks apart from the grades just below it: a tenth of the
 * scale spread it half a point down, and answers read a little low looked like true 4.5s (issue 26;
 * 0.03 against 0.1 over five seeds of the review bench, docs/benchmarks.md).
 */
const SHAPED_PRIOR_SMOOTHING = 0.03;

/**
 * The question's prior for the true grades, fitted to its scores (empirical Bayes). With
 * SHAPED_PRIOR_FROM answers or more, of any shape (`shapedPrior`): exam grades gather at full marks
 * with a long tail below, which a normal, thin in its tails, cannot take, so it pulled a truly weak
 * answer up and called its grade likely wrong (the quality bench on Mohler, docs/benchmarks.md). With
 * fewer, a normal (`normalPrior`): a dozen scores cannot show a shape. Flat with fewer than 3 answers.
 */
function priorOf(likelihoods: readonly number[][], grid: readonly number[], maxScore: number): number[] {
  if (likelihoods.length < 3) return grid.map(() => 1);
  return likelihoods.length >= SHAPED_PRIOR_FROM ? shapedPrior(likelihoods, grid) : normalPrior(likelihoods, grid, maxScore);
}

/**
 * A prior of the shape the scores show, by smoothed EM (Silverman, Jones, Wilson and Nychka's EMS):
 * from a flat prior, SHAPED_PRIOR_STEPS times, give each grid point the mean over the answers of its
 * posterior weight, w(t) <- mean_i w(t) L_i(t) / sum_u w(u) L_i(u), then smooth w with a normal kernel
 * of SHAPED_PRIOR_SMOOTHING of the grid's span. Unsmoothed, EM tends to the nonparametric maximum
 * likelihood prior, which puts all weight on a few points: a weak answer judged twice would then be
 * sure to be as weak as the others near it.
 */
export function shapedPrior(likelihoods: readonly number[][], grid: readonly number[]): number[] {
  const kernel = smoothingKernel(grid);
  let weights = grid.map(() => 1 / grid.length);
  for (let step = 0; step < SHAPED_PRIOR_STEPS; step++) {
    const next = grid.map(() => 0);
    for (const l of likelihoods) {
      let z = 0;
      for (let i = 0; i < grid.length; i++) z += weights[i] * l[i];
      if (!(z > 0)) continue;
      for (let i = 0; i < grid.length; i++) next[i] += (weights[i] * l[i]) / z;
    }
    const smoothed = new Array<number>(grid.length);
    let total = 0;
    for (let i = 0; i < grid.length; i++) {
      const row = kernel[i];
      let sum = 0;
      for (let j = 0; j < grid.length; j++) sum += row[j] * next[j];
      smoothed[i] = sum;
      total += sum;
    }
    if (!(total > 0)) break;
    weights = smoothed.map((x) => x / total);
  }
  return weights;
}

/** Kernels by their grid: every evaluation of a scale has the same grid, and a kernel is GRID² exp()s. */
const kernels = new Map<string, readonly Float64Array[]>();

/** kernel[i][j]: the share of point j's weight that smoothing gives point i (each row sums to 1). */
function smoothingKernel(grid: readonly number[]): readonly Float64Array[] {
  const key = grid.join(",");
  const known = kernels.get(key);
  if (known) return known;
  const h = SHAPED_PRIOR_SMOOTHING * (grid[grid.length - 1] - grid[0]);
  const kernel = grid.map((t) => {
    const row = grid.map((u) => Math.exp(-((u - t) ** 2) / (2 * h * h)));
    const sum = row.reduce((a, b) => a + b, 0);
    return Float64Array.from(row, (x) => x / sum);
  });
  if (kernels.size >= 16) kernels.clear(); // a handful of scales in use; never a leak
  kernels.set(key, kernel);
  return kernel;
}

/**
 * Of normals with means from -1/2 to 3/2 of the scale and standard deviations from 1/20 to the whole
 * scale, each held to [0, maxScore], the one under which the scores are most likely. A mean past the
 * top puts most grades near full marks, as exam answers often are.
 */
function normalPrior(likelihoods: readonly number[][], grid: readonly number[], maxScore: number): number[] {
  let best = grid.map(() => 1);
  let bestLog = -Infinity;
  for (let mi = 0; mi <= 20; mi++) {
    const mean = maxScore * (-0.5 + mi / 10);
    for (const sdShare of [0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.6, 1]) {
      const sd = sdShare * maxScore;
      const weights = grid.map((t) => Math.exp(-((t - mean) ** 2) / (2 * sd * sd)));
      const total = weights.reduce((a, b) => a + b, 0);
      if (!(total > 0)) continue;
      let log = 0;
      for (const l of likelihoods) {
        let dot = 0;
        for (let i = 0; i < l.length; i++) dot += l[i] * weights[i];
        log += Math.log(Math.max(1e-300, dot / total));
      }
      if (log > bestLog) {
        bestLog = log;
        best = weights;
      }
    }
  }
  return best;
}

/**
 * The likelihood of an answer's score at each point of the grid: N(score; m(t), se^2), 1 everywhere
 * without a standard error. `read`: what the service reads of a belief (./reading), where the
 * judgments are expected scores; without it, the written scores' clamped mean.
 */
function likelihoodOf(
  s: ReviewSubject,
  grid: readonly number[],
  maxScore: number,
  positionBias: number,
  read: ((b: number) => number) | null,
): number[] {
  if (!Number.isFinite(s.se)) return grid.map(() => 1);
  const sd = Math.max(s.se, 1e-9);
  const meanAt = (t: number) => (read ? meanReading(t, s.sigma, read) : clampedMean(t, s.sigma, maxScore));
  // a side the answer was never shown on adds 0 x its mean: not computed (a third of the work, the same sum)
  const side = (share: number, t: number) => (share === 0 ? 0 : share * meanAt(t));
  return grid.map((t) => {
    const m = side(s.shown.first, t + positionBias / 2) + side(s.shown.second, t - positionBias / 2) + side(s.shown.alone, t);
    return Math.exp(-((s.score - m) ** 2) / (2 * sd * sd)) / sd;
  });
}

/** Per answer id: the probability that its grade is wrong, in [0, 1]. */
export function wrongProbabilities(subjects: readonly ReviewSubject[], options: ReviewModelOptions): Map<string, number> {
  const { maxScore, positionBias, gradeBoundaries = [] } = options;
  const tolerance = options.tolerance ?? defaultTolerance(maxScore);
  if (!(maxScore > 0)) throw new RangeError(`maxScore must be positive, got ${maxScore}`);
  const grid = Array.from({ length: GRID }, (_, i) => (maxScore * i) / (GRID - 1));
  const { judgeSpread, step = 0.5 } = options;
  const read = judgeSpread !== undefined && judgeSpread > 0 ? readingTable(judgeSpread, maxScore, step) : null;
  const likelihoods = subjects.map((s) => likelihoodOf(s, grid, maxScore, positionBias, read));
  const informative = likelihoods.filter((_, i) => Number.isFinite(subjects[i].se));
  const prior = priorOf(informative, grid, maxScore);
  const out = new Map<string, number>();
  for (const [k, s] of subjects.entries()) {
    const wrongAt = (t: number) =>
      gradeBoundaries.length > 0 ? band(t, gradeBoundaries) !== band(s.score, gradeBoundaries) : Math.abs(t - s.score) > tolerance;
    let total = 0;
    let wrong = 0;
    for (const [i, t] of grid.entries()) {
      const w = prior[i] * likelihoods[k][i];
      total += w;
      if (wrongAt(t)) wrong += w;
    }
    out.set(s.id, total > 0 ? wrong / total : 1);
  }
  return out;
}

/** Half a point on the exam scales, a tenth of the scale on others (10 of 100 for translation). */
export function defaultTolerance(maxScore: number): number {
  return maxScore > 20 ? maxScore / 10 : 0.5;
}

export interface FlagOptions {
  /** Flag this share of the answers, the most likely wrong: ceil(share x answers). */
  share: number;
  /** Flag also every answer whose probability is above it. */
  threshold?: number;
}

/**
 * The flagged answers: the ceil(share x n) most likely wrong (equal probabilities in the order given,
 * so the same evaluation always flags the same answers), and every one above the threshold.
 */
export function flagged(probabilities: ReadonlyMap<string, number>, { share, threshold }: FlagOptions): Set<string> {
  if (!(share > 0 && share <= 1)) throw new RangeError(`share must be in (0, 1], got ${share}`);
  const ids = [...probabilities.keys()];
  const order = ids.map((id, i) => ({ id, i, p: probabilities.get(id)! })).sort((x, y) => y.p - x.p || x.i - y.i);
  const out = new Set(order.slice(0, Math.ceil(share * ids.length - 1e-9)).map((x) => x.id));
  if (threshold !== undefined) for (const x of order) if (x.p > threshold) out.add(x.id);
  return out;
}
