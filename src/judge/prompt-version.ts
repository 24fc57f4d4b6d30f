// The version of every prompt the judge is sent, so a result says which wording graded it and a rerun
// after a wording change can be told from one before it. Bump a version with any change to the text
// its prompts render (test/unit/judge/prompt-versions.test.ts records a hash of each per version, and
// fails when the text changes under an unchanged version).
import type { Template } from "./templates";

/** The paper's pairwise and pointwise prompts of each template (./templates, ./prompts). */
export const TEMPLATE_VERSIONS: Readonly<Record<Template, string>> = { exam: "1", "exam-de": "1", translation: "1" };
/** The rubric prompt (./rubric): pointwise judging against named criteria. */
export const RUBRIC_PROMPT_VERSION = "1";
/** The feedback prompt (./feedback-prompt): the student's feedback after the tournament. */
export const FEEDBACK_PROMPT_VERSION = "1";

/**
 * The version of the prompts one evaluation sends, as its result reports it: the template's, and the
 * rubric's and feedback's where the evaluation uses them, e.g. `exam@1+rubric@1`.
 */
export function promptVersion(template: Template, uses: { rubric?: boolean; feedback?: boolean } = {}): string {
  const parts = [`${template}@${TEMPLATE_VERSIONS[template]}`];
  if (uses.rubric) parts.push(`rubric@${RUBRIC_PROMPT_VERSION}`);
  if (uses.feedback) parts.push(`feedback@${FEEDBACK_PROMPT_VERSION}`);
  return parts.join("+");
}
