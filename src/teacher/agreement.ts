import { pearson, spearman } from "../metrics/correlation";

/** How often the judge and the teacher agree, over the answers the teacher graded. */
export interface Agreement {
  n: number;
  /** Null where undefined (one side's grades all equal). */
  pearson: number | null;
  spearman: number | null;
  /** Mean absolute difference, in points. */
  mae: number;
  /** Share of answers whose two grades are equal once both are rounded to the scale's step. */
  exact: number;
  /** Quadratic weighted kappa over the scale's steps; null where undefined (both sides give one grade throughout). */
  qwk: number | null;
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

/** Agreement of the judge's scores with the teacher's grades; null with fewer than 2 graded answers. */
export function agreement(pairs: readonly GradedPair[], scale: Scale): Agreement | null {
  const n = pairs.length;
  if (n < 2) return null;
  const judge = pairs.map((p) => p.judge);
  const teacher = pairs.map((p) => p.teacher);
  const a = judge.map((x) => level(x, scale));
  const b = teacher.map((x) => level(x, scale));
  return {
    n,
    pearson: pearson(judge, teacher),
    spearman: spearman(judge, teacher),
    mae: judge.reduce((s, x, i) => s + Math.abs(x - teacher[i]), 0) / n,
    exact: a.filter((x, i) => x === b[i]).length / n,
    qwk: quadraticWeightedKappa(a, b, levels(scale)),
  };
}

/** The number of grades the scale has: 0, step, 2 step, ... up to maxScore. */
export function levels(scale: Scale): number {
  return Math.round(scale.maxScore / scale.step) + 1;
}

/** A score as the index of the nearest grade on the scale (a half rounds up, as a teacher would). */
export function level(score: number, scale: Scale): number {
  return Math.min(levels(scale) - 1, Math.max(0, Math.floor(score / scale.step + 0.5 + 1e-9)));
}

/**
 * Cohen's kappa with quadratic weights (Fleiss and Cohen 1973): 1 - sum(w O) / sum(w E), w_ij = (i - j)^2,
 * O the observed table of the two raters' levels, E the table their marginals would give by chance.
 * Null when E has no weight off the diagonal (both raters use a single level): agreement by chance is then
 * total and kappa is undefined.
 */
export function quadraticWeightedKappa(a: readonly number[], b: readonly number[], k: number): number | null {
  const n = a.length;
  if (n === 0 || b.length !== n) return null;
  const rowTotals = new Array<number>(k).fill(0);
  const colTotals = new Array<number>(k).fill(0);
  let observed = 0;
  for (let i = 0; i < n; i++) {
    rowTotals[a[i]]++;
    colTotals[b[i]]++;
    observed += (a[i] - b[i]) ** 2;
  }
  let expected = 0;
  for (let i = 0; i < k; i++) {
    if (rowTotals[i] === 0) continue;
    for (let j = 0; j < k; j++) expected += ((i - j) ** 2 * rowTotals[i] * colTotals[j]) / n;
  }
  if (expected === 0) return null;
  return 1 - observed / expected;
}
