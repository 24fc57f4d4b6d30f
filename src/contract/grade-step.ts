// The step a final grade is rounded to: part of the wire contract because a request may choose it and
// the defaults must be the same for the API, batches and collections.

/** The finest step a scale of `maxScore` takes: 1,000 steps are more than any grade needs. */
export const MAX_GRADE_STEPS = 1_000;

/**
 * The step of a template when the request names none: half points for exams, whole points for the
 * paper's 0..100 translation scale. A scale smaller than that step (maxScore 0.2, say) is rounded to
 * a tenth of itself, so the step never swallows the scale.
 */
export function defaultGradeStep(template: string, maxScore: number): number {
  const step = template === "translation" ? 1 : 0.5;
  return step <= maxScore ? step : maxScore / 10;
}

/** Why `step` cannot round grades on 0..maxScore, or null. */
export function gradeStepProblem(step: number, maxScore: number): string | null {
  if (!(step > 0) || !Number.isFinite(step)) return "must be greater than 0";
  if (step > maxScore) return `must be at most maxScore (${maxScore})`;
  if (step < maxScore / MAX_GRADE_STEPS) return `must be at least maxScore / ${MAX_GRADE_STEPS} (${maxScore / MAX_GRADE_STEPS})`;
  return null;
}
