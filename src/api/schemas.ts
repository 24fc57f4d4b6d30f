import { z } from "zod";
import { fieldName, type FieldError } from "./problem";

export const limits = {
  minAnswers: 2,
  maxAnswers: 256,
  maxAnswerIdLength: 200,
  maxAnswerChars: 20_000,
  maxQuestionChars: 20_000,
  maxScore: 10_000,
} as const;

export const templates = ["exam", "exam-de", "translation"] as const;
export const methods = ["knockout"] as const;
export const pairings = ["bracket", "round"] as const;

const answer = z.strictObject({
  id: z.string().min(1, "must not be empty").max(limits.maxAnswerIdLength),
  // an empty answer is a real exam answer (it earns 0), so it is allowed
  text: z.string().max(limits.maxAnswerChars, `must be at most ${limits.maxAnswerChars} characters`),
});

export const evaluationBody = z
  .strictObject({
    question: z.string().trim().min(1, "must not be empty").max(limits.maxQuestionChars),
    reference: z.string().max(limits.maxQuestionChars).optional(),
    maxScore: z.number().gt(0, "must be greater than 0").max(limits.maxScore).optional(),
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
    debias: z.boolean().default(true),
    // bracket: a match starts as soon as its two feeders end; round: the paper's re-pairing per round
    pairing: z.enum(pairings).default("bracket"),
    template: z.enum(templates).default("exam"),
    seed: z.number().int().min(0).max(2 ** 31 - 1).optional(),
    judge: z
      .strictObject({
        model: z.string().min(1).max(200).optional(),
        temperature: z.number().min(0).max(2).optional(),
      })
      .optional(),
    webhook: z.strictObject({ url: z.url() }).optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  // the translation prompts of the paper grade on 0..100; exams default to 10 points
  .transform((body) => ({ ...body, maxScore: body.maxScore ?? (body.template === "translation" ? 100 : 10) }));

export type EvaluationBody = z.output<typeof evaluationBody>;

export const keyBody = z.strictObject({
  tenant: z
    .string()
    .min(1, "must not be empty")
    .max(100)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, '.', '_' and '-' only"),
});

/** zod's issues as field errors; an unknown key is named as its own field. */
export function fieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ field: fieldName([...issue.path, key]), reason: "unknown field" }));
    }
    return [{ field: fieldName(issue.path), reason: issue.message }];
  });
}
