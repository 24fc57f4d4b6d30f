import { z } from "zod";
import { seed } from "./seed.ts";
import { answerId, identifier } from "./identifier.ts";
import { defaultGradeStep, gradeStepProblem } from "./grade-step.ts";
import { limits } from "./limits.ts";
import { metadata } from "./metadata.ts";
import { retentionDays } from "./tenant-settings-request.ts";
import { DEFAULT_REVIEW_SHARE, reviewShare, reviewThreshold } from "./review-rule.ts";
import {
  FEEDBACK_MODES,
  METHOD_NAMES,
  type MethodName,
  PAIRINGS,
  PANEL_MODES,
  SCORE_SOURCES,
  TEMPLATE_NAMES,
  TIE_BREAKS,
  EXTRA_PLACEMENTS,
} from "./names.ts";

export { limits };

export const templates = TEMPLATE_NAMES;
export const methods = METHOD_NAMES;

/**
 * The most answers one evaluation by `method` grades: round-robin judges every pair, so it takes
 * fewer. Whatever takes answers for an evaluation later (a collection's closing rule) is held to it.
 */
export function maxAnswersFor(method: MethodName): number {
  return method === "round-robin" ? limits.maxRoundRobinAnswers : limits.maxAnswers;
}

/** Why `method` cannot grade `count` answers, or null. */
export function tooManyAnswersFor(method: MethodName, count: number): string | null {
  const max = maxAnswersFor(method);
  if (count <= max) return null;
  return method === "round-robin"
    ? `round-robin takes at most ${max} answers (it judges every pair); use knockout for more`
    : `${method} takes at most ${max} answers`;
}
export const pairings = PAIRINGS;

/**
 * A webhook: a URL of bounded length. Where it may point (https, a public host; plain http to this
 * machine under ALLOW_INSECURE_WEBHOOKS) is the deployment's policy, which a schema cannot see: every
 * route that takes a URL checks it after the schema (src/webhooks/url.ts, `refuseWebhookUrls`).
 */
export const webhook = z.strictObject({
  url: z.string().min(1, "must not be empty").max(limits.maxWebhookUrlChars, `must be at most ${limits.maxWebhookUrlChars} characters`),
});

/** A grade step as a number; whether it suits the scale is checked against maxScore (gradeStepProblem). */
export function gradeStep() {
  return z.number().gt(0, "must be greater than 0").max(limits.maxScore);
}

const answer = z.strictObject({
  // NFC, no control or format characters: ids that look alike are the same id (so a duplicate, below)
  id: answerId(limits.maxAnswerIdLength),
  // an empty answer is a real exam answer (it earns 0), so it is allowed
  text: z.string().max(limits.maxAnswerChars, `must be at most ${limits.maxAnswerChars} characters`),
  /** The student or model that wrote the answer; exam-level scores and model ratings group by it. */
  examinee: identifier(limits.maxExamineeLength).optional(),
});

const criterion = z.strictObject({
  name: z.string().trim().pipe(identifier(100)),
  description: z.string().max(2_000).optional(),
  maxScore: z.number().gt(0, "must be greater than 0").max(limits.maxScore).optional(),
});

export const rubric = z.strictObject({
  criteria: z
    .array(criterion)
    .min(1, "needs at least 1 criterion")
    .max(limits.maxCriteria, `takes at most ${limits.maxCriteria} criteria`)
    .superRefine((list, ctx) => {
      const seen = new Map<string, number>();
      list.forEach((c, i) => {
        const key = c.name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
        if (seen.has(key))
          ctx.addIssue({ code: "custom", path: [i, "name"], message: `duplicate criterion "${c.name}" (also criteria[${seen.get(key)}])` });
        else seen.set(key, i);
      });
    }),
});

/** The fields of an evaluation, before defaults: a batch's `defaults` is a partial of it. */
export const evaluationFields = z.strictObject({
  question: z.string().trim().min(1, "must not be empty").max(limits.maxQuestionChars),
  reference: z.string().max(limits.maxQuestionChars).optional(),
  maxScore: z.number().gt(0, "must be greater than 0").max(limits.maxScore).optional(),
  // the step final grades are rounded to; default 0.5 for exams, 1 for translation (src/contract/grade-step.ts)
  gradeStep: gradeStep().optional(),
  answers: z
    .array(answer)
    .min(limits.minAnswers, `needs at least ${limits.minAnswers} answers`)
    .max(limits.maxAnswers, `takes at most ${limits.maxAnswers} answers`)
    .superRefine((list, ctx) => {
      const seen = new Map<string, number>();
      list.forEach((a, i) => {
        if (seen.has(a.id)) {
          ctx.addIssue({ code: "custom", path: [i, "id"], message: `duplicate id "${a.id}" (also answers[${seen.get(a.id)}])` });
        } else seen.set(a.id, i);
      });
    }),
  method: z.enum(methods).default("knockout"),
  // "adaptive" (knockout): one order, the other only when the judge is unsure of the first
  debias: z.union([z.boolean(), z.literal("adaptive")], { error: 'must be true, false or "adaptive"' }).default(true),
  // bracket: a match starts as soon as its two feeders end; round: the paper's re-pairing per round
  pairing: z.enum(pairings).default("bracket"),
  // knockout: who advances from a match nothing split; default "record" (src/core/tie-break.ts)
  tieBreak: z.enum(TIE_BREAKS).optional(),
  // knockout with extraCalls: where they go; default "widest" (src/core/extra.ts)
  extraPlacement: z.enum(EXTRA_PLACEMENTS).optional(),
  template: z.enum(templates).default("exam"),
  seed: seed.optional(),
  judge: z
    .strictObject({
      model: z.string().min(1).max(200).optional(),
      temperature: z.number().min(0).max(2).optional(),
      // ask for JSON in the pairwise schema (response_format json_schema); default JUDGE_STRUCTURED_OUTPUTS
      structuredOutputs: z.boolean().optional(),
      // where the deciding scores come from: the judge's token probabilities (auto: when it gives them) or its text
      scoreFrom: z.enum(SCORE_SOURCES).optional(),
      // a panel of judges (PoLL): several models the endpoints serve; "cycle" gives each match to the next
      // in turn (default), "all" every call to every judge, averaged
      panel: z.array(z.string().min(1).max(200)).min(1).max(8).optional(),
      panelMode: z.enum(PANEL_MODES).optional(),
    })
    .optional(),
  // scores where a grade changes (e.g. [2.5, 4]): an answer whose interval crosses one asks for review
  gradeBoundaries: z
    .array(z.number().finite())
    .max(limits.maxGradeBoundaries, `takes at most ${limits.maxGradeBoundaries} boundaries`)
    .optional(),
  // knockout: judge calls to spend after it on the least certain answers, 0..4N
  extraCalls: z.number().int("must be an integer").min(0, "must be at least 0").optional(),
  // flag the reviewShare most likely wrong (default 0.15), and every answer above reviewThreshold when set
  reviewShare: reviewShare().optional(),
  reviewThreshold: reviewThreshold().optional(),
  rubric: rubric.optional(),
  // pairwise methods: also read each answer's score with the judge's preference for length taken out
  lengthControl: z.boolean().optional(),
  // "judge": after the tournament, one pointwise call per answer writes feedback for its student
  feedback: z.enum(FEEDBACK_MODES).default("none"),
  webhook: webhook.optional(),
  // erased this many days after creation, whatever the tenant's own retention (PUT /v1/tenant/settings)
  retentionDays: retentionDays().optional(),
  metadata: metadata.optional(),
});

export const evaluationBody = evaluationFields
  .superRefine((body, ctx) => {
    const method = body.method ?? "knockout";
    const panel = body.judge?.panel;
    if (panel) {
      const twice = panel.findIndex((m, i) => panel.indexOf(m) !== i);
      if (twice >= 0) ctx.addIssue({ code: "custom", path: ["judge", "panel", twice], message: `names ${panel[twice]} twice` });
      if (body.judge?.model !== undefined)
        ctx.addIssue({ code: "custom", path: ["judge", "model"], message: "give a model or a panel, not both" });
    } else if (body.judge?.panelMode !== undefined)
      ctx.addIssue({ code: "custom", path: ["judge", "panelMode"], message: "is a panel's: give judge.panel too" });
    if (body.rubric && method !== "individual") {
      ctx.addIssue({
        code: "custom",
        path: ["rubric"],
        message: `a rubric is for pointwise judging: use it with method "individual", not "${method}"`,
      });
    }
    // a rubric's overall and criteria are read from its JSON text: there are no probabilities to require
    if (body.rubric && body.judge?.scoreFrom === "logprobs") {
      ctx.addIssue({
        code: "custom",
        path: ["judge", "scoreFrom"],
        message: 'a rubric is scored from the judge\'s written JSON, never its token probabilities: use "auto" or "text"',
      });
    }
    if (body.debias === "adaptive" && method !== "knockout") {
      ctx.addIssue({ code: "custom", path: ["debias"], message: `adaptive debiasing is the knockout's, not "${method}"'s` });
    }
    if (body.extraCalls !== undefined && body.extraCalls > 0) {
      if (method !== "knockout")
        ctx.addIssue({ code: "custom", path: ["extraCalls"], message: `extra calls are the knockout's, not "${method}"'s` });
      else if (body.extraCalls > 4 * body.answers.length)
        ctx.addIssue({
          code: "custom",
          path: ["extraCalls"],
          message: `must be at most 4N = ${4 * body.answers.length} for ${body.answers.length} answers`,
        });
    }
    if (body.lengthControl && method === "individual") {
      ctx.addIssue({
        code: "custom",
        path: ["lengthControl"],
        message: 'length control fits the judge\'s preferences between two answers: use a pairwise method, not "individual"',
      });
    }
    const top = body.maxScore ?? (body.template === "translation" ? 100 : 10);
    body.gradeBoundaries?.forEach((g, i) => {
      if (g < 0 || g > top)
        ctx.addIssue({ code: "custom", path: ["gradeBoundaries", i], message: `must be a score from 0 to maxScore (${top})` });
    });
    // a step of 0 or less is the field schema's refusal already
    const stepProblem = body.gradeStep === undefined || body.gradeStep <= 0 ? null : gradeStepProblem(body.gradeStep, top);
    if (stepProblem) ctx.addIssue({ code: "custom", path: ["gradeStep"], message: stepProblem });
    const tooMany = tooManyAnswersFor(method, body.answers.length);
    if (tooMany) ctx.addIssue({ code: "custom", path: ["answers"], message: tooMany });
  })
  // the translation prompts of the paper grade on 0..100; exams default to 10 points
  .transform((body) => {
    const maxScore = body.maxScore ?? (body.template === "translation" ? 100 : 10);
    // a criterion without its own scale uses the question's
    const rubric = body.rubric ? { criteria: body.rubric.criteria.map((c) => ({ ...c, maxScore: c.maxScore ?? maxScore })) } : undefined;
    const gradeStep = body.gradeStep ?? defaultGradeStep(body.template, maxScore);
    return { ...body, maxScore, gradeStep, rubric, reviewShare: body.reviewShare ?? DEFAULT_REVIEW_SHARE };
  });

export type EvaluationBody = z.output<typeof evaluationBody>;
export type EvaluationRequest = z.input<typeof evaluationBody>;
