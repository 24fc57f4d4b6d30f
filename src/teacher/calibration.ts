import { median } from "../metrics/median";

/**
 * Grades on the teacher's scale: a map from the judge's scores to the teacher's grades, fitted on the
 * answers the teacher graded. Which map depends on how many grades there are (`calibrationMethod`):
 * a few grades can tell how far the judge's scale sits from the teacher's, but not its shape, and a
 * shape fitted to them fits their noise (the calibration bench, docs/benchmarks.md). Every map is
 * monotone: the judge's order is what the tournament measures well; its scale is what differs.
 * Pure; the shell decides which graded answers a fit is made from.
 */

/**
 * - `identity`: the judge's score as it is;
 * - `shift`: the judge's score plus the mean of (grade - judge score) over the graded answers, drawn
 *   towards 0 as far as their spread leaves it unsure (`shrunkShift`);
 * - `median`: the judge's score plus the median of (grade - judge score), drawn towards 0 as far as
 *   the differences' median absolute deviation leaves it unsure (`shrunkMedian`): the shift that makes
 *   the absolute error smallest, and one a single far-off grade cannot drag;
 * - `linear`: a least-squares line of the grades on the judge's scores, its slope held >= 0;
 * - `isotonic`: pool-adjacent-violators, interpolated between the graded scores and flat beyond them;
 * - `blend`: the line with its slope drawn towards the shift's 1 (the line weighing n / (n + BLEND_PRIOR)),
 *   through the judge scores' mean shifted as `shift` does: the slope a few grades cannot tell is the
 *   judge's until enough grades tell it.
 *
 * Chosen by `calibrationMethod` (not asked for by name), `shift` and `median` fade away from the graded
 * answers' judge scores over `REACH_SHARE` of the scale: a grade says how far off the judge is near
 * the score it gave that answer.
 */
export type CalibrationMethod = "identity" | "shift" | "median" | "linear" | "isotonic" | "blend";

export const CALIBRATION_METHODS: readonly CalibrationMethod[] = ["identity", "shift", "median", "linear", "isotonic", "blend"];

export interface Calibration {
  /** The graded answers behind the fit. */
  n: number;
  method: CalibrationMethod;
  /** The judge scores the graded answers span: the map is only measured inside it. */
  range: [number, number];
  /** The map is weight * isotonic(x) + (1 - weight) * (intercept + slope * x), held to `bounds`. */
  intercept: number;
  slope: number;
  /** Knots of the isotonic part (judge score, grade), increasing in both; empty when weight is 0. */
  knots: [number, number][];
  weight: number;
  /** The teacher's scale, when known: no calibrated grade leaves it. */
  bounds: [number, number] | null;
  /**
   * The chosen shift's reach on the judge's scale: a judge score `d` from the nearest graded answer's
   * judge score gets the shift times exp(-(d / reach)^2). 0 (every fixed map, the blend): the whole
   * shift everywhere.
   */
  reach: number;
  /** The graded answers' judge scores, in increasing order: where the shift is measured. */
  anchors: number[];
}

/** A graded answer: the judge's score and the teacher's grade. */
export interface GradedPoint {
  judge: number;
  teacher: number;
}

/** At least this many graded answers before a fit is made. */
export const MIN_CALIBRATION_GRADES = 2;

/** How many grades the blend's line weighs as much as the shift against. */
export const BLEND_PRIOR = 20;

/** From this many grades on, the median shift: below it a median is one or two grades' word. */
export const MEDIAN_FROM = 4;

/** From this many grades on (a batch's pool), the blend: enough grades to measure the slope. */
export const BLEND_FROM = 40;

/**
 * The chosen shift's reach, as a share of the teacher's scale. A grade tells how far off the judge
 * is near the score it gave that answer: on the bench, WMT zh-en's judge under-scores only the
 * flawless translations, and two grades of those, applied to every answer, made the rest worse than
 * raw. Faded beyond about this distance from the nearest graded answer, the shift beats the whole
 * one at every k on both datasets (docs/benchmarks.md, the calibration bench); as grades cover the
 * scale, every answer is near one and the shift is whole again.
 */
export const REACH_SHARE = 0.15;

/**
 * The map for these graded answers, chosen on the calibration bench (judge-sim, Mohler and WMT zh-en,
 * two noise settings, k random grades per question; docs/benchmarks.md): the shift below MEDIAN_FROM
 * grades (drawn in further when they disagree in direction: `DISAGREEING_SHARE`), the median shift
 * from it, the blend from BLEND_FROM (a batch's pool of grades, enough to measure the slope).
 */
export function calibrationMethod(points: readonly GradedPoint[]): CalibrationMethod {
  const n = points.length;
  if (n < MIN_CALIBRATION_GRADES) return "identity";
  if (n < MEDIAN_FROM) return "shift";
  return n < BLEND_FROM ? "median" : "blend";
}

/**
 * With 2 or 3 grades on both sides of the judge's scores, this share of the shift is applied: grades
 * that disagree in direction say more about those answers than about the judge's scale, and on the
 * bench the whole shift fitted to them made the other answers' grades worse (WMT zh-en with noise of
 * each answer's own), while no shift at all gave up most of what agreeing grades gain (Mohler).
 */
export const DISAGREEING_SHARE = 0.25;

export interface FitOptions {
  /** A fixed map instead of the one `calibrationMethod` chooses. */
  method?: CalibrationMethod;
  /** The teacher's scale [lo, hi]. */
  bounds?: [number, number];
}

/** The calibration the graded answers give, or null with fewer than MIN_CALIBRATION_GRADES. */
export function fitCalibration(points: readonly GradedPoint[], options: FitOptions = {}): Calibration | null {
  if (points.length < MIN_CALIBRATION_GRADES) return null;
  const method = options.method ?? calibrationMethod(points);
  const judges = points.map((p) => p.judge);
  const base = {
    n: points.length,
    method,
    range: [Math.min(...judges), Math.max(...judges)] as [number, number],
    bounds: options.bounds ?? null,
    reach: 0,
    anchors: [...judges].sort((a, b) => a - b),
  };
  const differences = points.map((p) => p.teacher - p.judge);
  const agree = differences.every((d) => d > 0) || differences.every((d) => d < 0);
  // the chosen map's caution; a shift asked for by name is the plain one
  const caution = options.method === undefined && points.length < MEDIAN_FROM && !agree ? DISAGREEING_SHARE : 1;
  const shift = shrunkShift(differences);
  // the chosen shift fades away from the graded answers; a map asked for by name is the plain one
  const reach = options.method === undefined && options.bounds ? REACH_SHARE * (options.bounds[1] - options.bounds[0]) : 0;
  switch (method) {
    case "identity":
      return { ...base, intercept: 0, slope: 1, knots: [], weight: 0 };
    case "shift":
      return { ...base, intercept: caution * shift, slope: 1, knots: [], weight: 0, reach };
    case "median":
      return { ...base, intercept: shrunkMedian(differences), slope: 1, knots: [], weight: 0, reach };
    case "linear":
      return { ...base, ...monotoneLine(points), knots: [], weight: 0 };
    case "isotonic":
      return { ...base, intercept: 0, slope: 0, knots: isotonicKnots(points), weight: 1 };
    case "blend": {
      // the line's slope drawn towards 1 (the shift) as the line is drawn through the grades' means
      const line = monotoneLine(points);
      const w = points.length / (points.length + BLEND_PRIOR);
      const slope = w * line.slope + (1 - w);
      const mx = mean(judges);
      return { ...base, intercept: mx + shift - slope * mx, slope, knots: [], weight: 0 };
    }
  }
}

/** The teacher's grade the fit gives a judge score. */
export function calibrate(fit: Calibration, judge: number): number {
  const line = fit.intercept * fade(fit, judge) + fit.slope * judge;
  const y = fit.weight === 0 ? line : fit.weight * interpolate(fit.knots, judge) + (1 - fit.weight) * line;
  return fit.bounds ? Math.min(fit.bounds[1], Math.max(fit.bounds[0], y)) : y;
}

/** The share of the shift a judge score gets: 1 at a graded answer's judge score, less away from them. */
export function fade(fit: Calibration, judge: number): number {
  if (!(fit.reach > 0)) return 1;
  const distance = Math.min(...fit.anchors.map((x) => Math.abs(x - judge)));
  return Math.exp(-((distance / fit.reach) ** 2));
}

/** Whether a judge score lies outside what the graded answers span, where the map is extrapolated. */
export function outsideCalibration(fit: Calibration, judge: number): boolean {
  return judge < fit.range[0] || judge > fit.range[1];
}

/**
 * The mean difference, drawn towards 0 as far as the differences' own spread makes it unsure:
 * d * d^2 / (d^2 + s^2 / n), s^2 their sample variance. A shift the grades cannot tell from their noise
 * is not applied in full.
 */
function shrunkShift(differences: readonly number[]): number {
  const d = mean(differences);
  const n = differences.length;
  const s2 = differences.reduce((s, x) => s + (x - d) ** 2, 0) / (n - 1);
  return d * d + s2 / n > 0 ? (d * d * d) / (d * d + s2 / n) : 0;
}

/**
 * The median difference, drawn towards 0 as `shrunkShift` draws the mean, with the spread measured by
 * the median absolute deviation (times 1.4826, a standard deviation's worth for normal differences):
 * m * m^2 / (m^2 + v), v = (pi / 2) * mad^2 / n, the median's own sampling variance (for normal
 * differences it is pi / 2 times the mean's). Differences that all agree give the median whole.
 */
function shrunkMedian(differences: readonly number[]): number {
  const m = median(differences);
  const mad = 1.4826 * median(differences.map((d) => Math.abs(d - m)));
  const v = ((Math.PI / 2) * mad * mad) / differences.length;
  return m * m + v > 0 ? (m * m * m) / (m * m + v) : 0;
}

/** Least squares of the grades on the judge scores; a slope below 0 (or no spread of judge scores) becomes the shift. */
function monotoneLine(points: readonly GradedPoint[]): { intercept: number; slope: number } {
  const mx = mean(points.map((p) => p.judge));
  const my = mean(points.map((p) => p.teacher));
  let sxx = 0;
  let sxy = 0;
  for (const p of points) {
    sxx += (p.judge - mx) ** 2;
    sxy += (p.judge - mx) * (p.teacher - my);
  }
  if (!(sxx > 0) || sxy <= 0) return { intercept: my - mx, slope: 1 };
  const slope = sxy / sxx;
  return { intercept: my - slope * mx, slope };
}

/** Pool-adjacent-violators: equal judge scores map to one grade (their mean), then violators are pooled. */
function isotonicKnots(points: readonly GradedPoint[]): [number, number][] {
  const sorted = [...points].sort((p, q) => p.judge - q.judge || p.teacher - q.teacher);
  const blocks: { x: number; sum: number; weight: number }[] = [];
  for (const p of sorted) {
    const last = blocks.at(-1);
    if (last && last.x === p.judge) {
      last.sum += p.teacher;
      last.weight++;
    } else blocks.push({ x: p.judge, sum: p.teacher, weight: 1 });
  }
  const pools: { xs: number[]; sum: number; weight: number }[] = [];
  for (const b of blocks) {
    pools.push({ xs: [b.x], sum: b.sum, weight: b.weight });
    while (pools.length > 1) {
      const [prev, last] = [pools[pools.length - 2], pools[pools.length - 1]];
      if (prev.sum / prev.weight <= last.sum / last.weight) break;
      pools.splice(pools.length - 2, 2, { xs: [...prev.xs, ...last.xs], sum: prev.sum + last.sum, weight: prev.weight + last.weight });
    }
  }
  const knots: [number, number][] = [];
  for (const pool of pools) for (const x of pool.xs) knots.push([x, pool.sum / pool.weight]);
  return knots;
}

/** Linear between knots, the end grades outside them. */
function interpolate(knots: readonly [number, number][], x: number): number {
  if (x <= knots[0][0]) return knots[0][1];
  const last = knots[knots.length - 1];
  if (x >= last[0]) return last[1];
  let i = 1;
  while (knots[i][0] < x) i++;
  const [[x0, y0], [x1, y1]] = [knots[i - 1], knots[i]];
  return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0);
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;
