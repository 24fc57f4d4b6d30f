import type { FinalFrom } from "../contract/names";

/** What an answer's final grade is made from. */
export interface GradeSources {
  /** The teacher's grade: it decides when there is one. */
  teacherScore: number | null;
  /** The judge's score on the teacher's scale, when the evaluation is calibrated. */
  calibrated: number | null;
  /** The judge's own score (null if the answer never got one). */
  score: number | null;
}

export interface GradeScale {
  maxScore: number;
  /** The step grades are rounded to (src/contract/grade-step.ts). */
  step: number;
}

export interface FinalGrade {
  finalScore: number | null;
  finalFrom: FinalFrom | null;
}

/**
 * The grade a student is given: the teacher's when there is one, else the calibrated score, else the
 * judge's; rounded to the scale's step and kept on 0..maxScore. Every grade is rounded, the teacher's
 * too, so a receipt, an export and a webhook all show a grade of the scale. Pure.
 */
export function finalGrade(a: GradeSources, scale: GradeScale): FinalGrade {
  const [value, from]: [number | null, FinalFrom | null] =
    a.teacherScore !== null
      ? [a.teacherScore, "teacher"]
      : a.calibrated !== null
        ? [a.calibrated, "calibrated"]
        : a.score !== null
          ? [a.score, "judge"]
          : [null, null];
  return { finalScore: value === null ? null : roundToStep(value, scale), finalFrom: from };
}

/**
 * `value` to the nearest grade of the scale, halves up (2.25 on a step of 0.5 is 2.5), on 0..maxScore.
 * The grades are the step's multiples and maxScore itself: full marks stay full marks on a step that
 * does not divide the scale (9.8 on a step of 3 is 10, not 9). The quotient is nudged before flooring
 * and halves are compared with a margin: 0.35 / 0.1 is 3.4999999999999996 in binary, and a half must
 * not fall down for that.
 */
export function roundToStep(value: number, { maxScore, step }: GradeScale): number {
  if (value >= maxScore) return maxScore;
  if (value <= 0) return 0;
  const lower = clean(Math.floor(value / step + 1e-9) * step);
  const upper = Math.min(maxScore, clean(lower + step));
  return value - lower + 1e-9 < upper - value ? lower : upper;
}

/** Binary noise off a multiple of a decimal step (3 * 0.1 is 0.30000000000000004). */
function clean(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}
