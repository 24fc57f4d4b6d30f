import { pearson, spearman } from "./correlation";

/** How often the judge and the teacher agree, over the answers the teacher graded. */
export interface Agreement extends PointAgreement {
  /** Share of answers whose two grades are equal once both are rounded to the scale's step. */
  exact: number;
  /** Quadratic weighted kappa over the scale's steps; null where undefined (both sides give one grade throughout, or no scale of grades). */
  qwk: number | null;
}

/** What needs no scale of grades: the correlations and the mean absolute difference. */
export interface PointAgreement {
  n: number;
  /** Null where undefined (one side's grades all equal). */
  pearson: number | null;
  spearman: number | null;
  /** Mean absolute difference, in the pairs' unit (points, or shares of maxScore). */
  mae: number;
}

export interface GradedPair {
  judge: number;
  teacher: number;
}

export interface Scale {
  maxScore: number;
  /** The scale's resolution: 0.5 where half points are given (the exam prompts), 1 for whole points. */
  step: number;
}

/**
 * The most grades a scale may have for a kappa: the finest the service accepts (maxScore 10,000 in half
 * points). Past it the "grades" are a continuum (a batch's shares of maxScore, say), where a kappa, which
 * counts agreement by category, is undefined.
 */
export const MAX_SCALE_LEVELS = 20_001;

/** The correlations and mean absolute difference; null with fewer than 2 graded answers. */
export function pointAgreement(pairs: readonly GradedPair[]): PointAgreement | null {
  const n = pairs.length;
  if (n < 2) return null;
  const judge = pairs.map((p) => p.judge);
  const teacher = pairs.map((p) => p.teacher);
  return {
    n,
    pearson: pearson(judge, teacher),
    spearman: spearman(judge, teacher),
    mae: judge.reduce((s, x, i) => s + Math.abs(x - teacher[i]), 0) / n,
  };
}

/** Agreement of the judge's scores with the teacher's grades; null with fewer than 2 graded answers. */
export function agreement(pairs: readonly GradedPair[], scale: Scale): Agreement | null {
  const points = pointAgreement(pairs);
  if (!points) return null;
  const a = pairs.map((p) => level(p.judge, scale));
  const b = pairs.map((p) => level(p.teacher, scale));
  return {
    ...points,
    exact: a.filter((x, i) => x === b[i]).length / points.n,
    qwk: levels(scale) === null ? null : quadraticWeightedKappa(a, b),
  };
}

/** The number of grades the scale has (0, step, 2 step, ... up to maxScore), or null past MAX_SCALE_LEVELS. */
export function levels(scale: Scale): number | null {
  const k = Math.round(scale.maxScore / scale.step) + 1;
  return Number.isSafeInteger(k) && k >= 1 && k <= MAX_SCALE_LEVELS ? k : null;
}

/** A score as the index of the nearest grade on the scale (a half rounds up, as a teacher would). */
export function level(score: number, scale: Scale): number {
  const top = Math.max(0, Math.round(scale.maxScore / scale.step));
  return Math.min(top, Math.max(0, Math.floor(score / scale.step + 0.5 + 1e-9)));
}

/**
 * Cohen's kappa with quadratic weights (Fleiss and Cohen 1973): 1 - sum(w O) / sum(w E), w_ij = (i - j)^2,
 * O the observed table of the two raters' levels, E the table their marginals would give by chance.
 * Null when E has no weight off the diagonal (both raters use a single level): agreement by chance is then
 * total and kappa is undefined; null too for levels that are not whole numbers from 0.
 *
 * No table is built: with quadratic weights sum(w E) = sum_i sum_j (a_i - b_j)^2 / n, which is
 * sum (a - mean a)^2 + sum (b - mean b)^2 + n (mean a - mean b)^2, so the work is O(n) whatever the
 * number of levels (a table of k^2 cells is what froze the service when k came from a 1e-9 step), and
 * centred sums keep it accurate where raw sums of squares of a large batch would lose digits. The weights'
 * usual 1 / (k - 1)^2 cancels in the ratio, so k is not needed either.
 */
export function quadraticWeightedKappa(a: readonly number[], b: readonly number[]): number | null {
  const n = a.length;
  if (n === 0 || b.length !== n) return null;
  const isLevel = (x: number) => Number.isSafeInteger(x) && x >= 0;
  if (!a.every(isLevel) || !b.every(isLevel)) return null;
  const meanA = a.reduce((s, x) => s + x, 0) / n;
  const meanB = b.reduce((s, y) => s + y, 0) / n;
  let observed = 0;
  let expected = n * (meanA - meanB) ** 2;
  for (let i = 0; i < n; i++) {
    observed += (a[i] - b[i]) ** 2;
    expected += (a[i] - meanA) ** 2 + (b[i] - meanB) ** 2;
  }
  if (expected === 0) return null;
  return 1 - observed / expected;
}
