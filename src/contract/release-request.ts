import { z } from "zod";
import { answerId } from "./identifier.ts";
import { limits } from "./limits.ts";

/**
 * Which answers to release (POST …/release) or to withdraw (DELETE …/release): the ids named, or every
 * answer of the evaluation when `answers` is left out. An id that is not in the evaluation is refused.
 */
export const releaseBody = z.strictObject({
  answers: z
    .array(answerId(limits.maxAnswerIdLength))
    .min(1, "name at least one answer, or leave `answers` out for all of them")
    .max(limits.maxAnswers, `takes at most ${limits.maxAnswers} answers`)
    .optional(),
});
export type ReleaseRequest = z.input<typeof releaseBody>;
