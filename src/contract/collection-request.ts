import { z } from "zod";
import { retentionDays } from "./tenant-settings-request.ts";
import { gradeStep, methods, rubric, templates, tooManyAnswersFor, webhook } from "./evaluation-request.ts";
import { defaultGradeStep, gradeStepProblem } from "./grade-step.ts";
import { collectionLimits, limits } from "./limits.ts";
import { FEEDBACK_MODES, RELEASE_MODES } from "./names.ts";
import { reviewShare, reviewThreshold } from "./review-rule.ts";

export { collectionLimits };

/** An origin exactly as a browser sends it: scheme, host and port, no path. */
const origin = z.string().refine((s) => {
  try {
    const u = new URL(s);
    return (u.protocol === "https:" || u.protocol === "http:") && u.origin === s;
  } catch {
    return false;
  }
}, "must be an origin like https://example.com (scheme, host, optional port; no path or trailing slash)");

export const collectionBody = z
  .strictObject({
    question: z.string().trim().min(1, "must not be empty").max(limits.maxQuestionChars),
    reference: z.string().max(limits.maxQuestionChars).optional(),
    maxScore: z.number().gt(0, "must be greater than 0").max(limits.maxScore).optional(),
    gradeStep: gradeStep().optional(),
    // which answers the review page flags, as an evaluation takes them (default: the 15% most likely wrong)
    reviewShare: reviewShare().optional(),
    reviewThreshold: reviewThreshold().optional(),
    method: z.enum(methods).default("knockout"),
    // criteria the judge scores each answer on, as an evaluation takes them (method "individual" only)
    rubric: rubric.optional(),
    template: z.enum(templates).default("exam"),
    debias: z.boolean().default(true),
    // students read their feedback on the receipt: a collection asks for it unless told not to
    feedback: z.enum(FEEDBACK_MODES).default("judge"),
    closing: z
      .strictObject({
        deadline: z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time, e.g. 2026-12-01T12:00:00Z" }).optional(),
        maxAnswers: z
          .number()
          .int()
          .min(limits.minAnswers, `must be at least ${limits.minAnswers}`)
          .max(limits.maxAnswers, `must be at most ${limits.maxAnswers}`)
          .optional(),
      })
      .default({}),
    allowedOrigins: z.array(origin).min(1, "name at least one origin that may embed the form").max(collectionLimits.maxOrigins),
    webhook: webhook.optional(),
    // erased (with its answers and their grading) this many days after creation; default the tenant's
    retentionDays: retentionDays().optional(),
    // "manual": a receipt shows nothing of the grade until the teacher releases the answer
    release: z.enum(RELEASE_MODES).default("manual"),
    // a released receipt shows the answer's rank among the others only when the teacher wants it
    showRank: z.boolean().default(false),
  })
  .superRefine((b, ctx) => {
    const reason = b.closing.deadline ? deadlineProblem(Date.parse(b.closing.deadline), Date.now()) : null;
    if (reason) ctx.addIssue({ code: "custom", path: ["closing", "deadline"], message: reason });
    // the closing evaluation takes every answer in: a rule its method cannot grade would fail at close,
    // with the students' work in and never graded
    const tooMany = b.closing.maxAnswers === undefined ? null : tooManyAnswersFor(b.method, b.closing.maxAnswers);
    if (tooMany) ctx.addIssue({ code: "custom", path: ["closing", "maxAnswers"], message: tooMany });
    // the closing evaluation would refuse it, after the students' work is in: refused here, in the same words
    if (b.rubric && b.method !== "individual")
      ctx.addIssue({
        code: "custom",
        path: ["rubric"],
        message: `a rubric is for pointwise judging: use it with method "individual", not "${b.method}"`,
      });
    const top = b.maxScore ?? (b.template === "translation" ? 100 : 10);
    // a step of 0 or less is the field schema's refusal already
    const stepProblem = b.gradeStep === undefined || b.gradeStep <= 0 ? null : gradeStepProblem(b.gradeStep, top);
    if (stepProblem) ctx.addIssue({ code: "custom", path: ["gradeStep"], message: stepProblem });
  })
  .transform((b) => {
    const maxScore = b.maxScore ?? (b.template === "translation" ? 100 : 10);
    return { ...b, maxScore, gradeStep: b.gradeStep ?? defaultGradeStep(b.template, maxScore) };
  });

/** Why a closing deadline (unix ms) is refused at `now`, or null. */
export function deadlineProblem(deadline: number, now: number): string | null {
  if (deadline <= now) return "must be in the future";
  // the Collection's alarm is set at the deadline, and the runtime takes no date after 2189
  if (deadline > now + collectionLimits.maxDeadlineDays * 86_400_000)
    return `must be at most ${collectionLimits.maxDeadlineDays} days ahead`;
  return null;
}

export type CollectionBody = z.output<typeof collectionBody>;
export type CollectionRequest = z.input<typeof collectionBody>;

export const submissionBody = z.strictObject({
  text: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(collectionLimits.maxSubmissionChars, `must be at most ${collectionLimits.maxSubmissionChars} characters`),
  name: z.string().trim().max(collectionLimits.maxNameChars, `must be at most ${collectionLimits.maxNameChars} characters`).optional(),
});
export type SubmissionRequest = z.input<typeof submissionBody>;
