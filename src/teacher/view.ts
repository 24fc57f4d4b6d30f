import { type Agreement, agreement, type Scale } from "../metrics/agreement";
import { calibrate, fitCalibration, outsideCalibration } from "./calibration";
import { finalGrade } from "./final-grade";

/** An answer as the result shows it, before the teacher's part is added. */
interface ScoredAnswer {
  id: string;
  score: number | null;
  review: null | { flagged?: boolean; probability?: number; reasons: string[] };
}

export interface TeacherInputs {
  /** The teacher's current grade per answer id of this evaluation. */
  grades: ReadonlyMap<string, number>;
  /** The (judge score, grade) pairs the calibration is fitted on: this evaluation's, or its batch's pool. */
  fitOn: readonly { judge: number; teacher: number }[];
  /** "evaluation" or "batch": where `fitOn` comes from. */
  scope: "evaluation" | "batch";
  scale: Scale;
  /** The step final grades are rounded to. */
  gradeStep: number;
}

/**
 * The teacher's part of a result: each answer's `teacherScore` and `calibrated` score (with the review
 * reason `outside-calibration` where its judge score lies outside what the graded answers span), its
 * `finalScore` and `finalFrom` (src/teacher/final-grade.ts), the evaluation's `agreement` over its
 * graded answers, and its `calibration`. Pure.
 */
export function withTeacher<A extends ScoredAnswer>(answers: readonly A[], inputs: TeacherInputs) {
  const fit = fitCalibration(inputs.fitOn, { bounds: [0, inputs.scale.maxScore] });
  const pairs = answers.flatMap((a) => {
    const teacher = inputs.grades.get(a.id);
    return teacher !== undefined && a.score !== null ? [{ judge: a.score, teacher }] : [];
  });
  const out = answers.map((a) => {
    const outside = fit !== null && a.score !== null && outsideCalibration(fit, a.score);
    const reasons = [...(a.review?.reasons ?? []), ...(outside ? ["outside-calibration"] : [])];
    const teacherScore = inputs.grades.get(a.id) ?? null;
    const calibrated = fit !== null && a.score !== null ? calibrate(fit, a.score) : null;
    const final = finalGrade({ teacherScore, calibrated, score: a.score }, { maxScore: inputs.scale.maxScore, step: inputs.gradeStep });
    // the review's probability and flag stay as the confidence gave them
    const review = a.review ? { ...a.review, reasons } : reasons.length ? { reasons } : null;
    return { ...a, teacherScore, calibrated, ...final, review };
  });
  const agreed: Agreement | null = agreement(pairs, inputs.scale);
  return {
    answers: out,
    agreement: agreed,
    calibration: fit
      ? {
          n: fit.n,
          method: fit.method,
          range: fit.range,
          scope: inputs.scope,
          intercept: fit.intercept,
          slope: fit.slope,
          reach: fit.reach,
        }
      : null,
  };
}
