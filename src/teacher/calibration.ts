/**
 * Grades on the teacher's scale: a monotone (isotonic) map from the judge's scores to the teacher's
 * grades, fitted by pool-adjacent-violators on the answers the teacher graded. Monotone, because the
 * judge's order is what the tournament measures well; its scale is what differs from the teacher's.
 * Pure; the shell decides which graded answers a fit is made from.
 */
export interface Calibration {
  /** The graded answers behind the fit. */
  n: number;
  /** The judge scores the graded answers span: the map is only measured inside it. */
  range: [number, number];
  /** Knots of the fitted map (judge score, grade), increasing in both; linear in between, flat outside. */
  knots: [number, number][];
}

/** At least this many graded answers before a fit is made: two points say nothing about the shape. */
export const MIN_CALIBRATION_GRADES = 3;

export function fitCalibration(points: readonly { judge: number; teacher: number }[]): Calibration | null {
  if (points.length < MIN_CALIBRATION_GRADES) return null;
  const sorted = [...points].sort((p, q) => p.judge - q.judge || p.teacher - q.teacher);
  // one block per distinct judge score first (equal scores must map to one grade), then pool violators
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
  return { n: points.length, range: [sorted[0].judge, sorted[sorted.length - 1].judge], knots };
}

/** The teacher's grade the fit gives a judge score: interpolated between knots, the end grades outside them. */
export function calibrate(fit: Calibration, judge: number): number {
  const { knots } = fit;
  if (judge <= knots[0][0]) return knots[0][1];
  const last = knots[knots.length - 1];
  if (judge >= last[0]) return last[1];
  let i = 1;
  while (knots[i][0] < judge) i++;
  const [[x0, y0], [x1, y1]] = [knots[i - 1], knots[i]];
  return y0 + ((y1 - y0) * (judge - x0)) / (x1 - x0);
}

/** Whether a judge score lies outside what the graded answers span, where the map is extrapolated. */
export function outsideCalibration(fit: Calibration, judge: number): boolean {
  return judge < fit.range[0] || judge > fit.range[1];
}
