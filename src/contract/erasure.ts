import { z } from "zod";

/**
 * What is left of an erased evaluation, batch or collection, and what its erase route answers (the
 * same 200 every time): its id, when it was erased and the id of the API key that erased it. Every
 * other route answers 410 for it, with this in the problem's `erased`.
 */
export const erased = z.object({
  id: z.string(),
  status: z.literal("erased"),
  erasedAt: z.string().describe("ISO 8601"),
  by: z.string().describe("the id of the API key that asked for the erasure"),
});
export type Erased = z.infer<typeof erased>;

/**
 * A learner known by their LMS launches: the platform's `sub` (its stable id of the user), in one of the
 * tenant's platforms (`platformId`, `ltip_…`) or, left out, in any of them.
 */
export const ltiUser = z.strictObject({
  platformId: z.string().min(1, "must not be empty").max(100).optional(),
  sub: z.string().min(1, "must not be empty").max(255, "must be at most 255 characters (LTI's limit for sub)"),
});

/** One person to erase across the tenant's data (POST /v1/subjects/erase): by examinee, by answer id, or as an LTI learner. */
export const subjectEraseBody = z
  .strictObject({
    examinee: z.string().min(1, "must not be empty").max(200).optional(),
    answerId: z.string().min(1, "must not be empty").max(200).optional(),
    ltiUser: ltiUser.optional(),
  })
  .refine((b) => [b.examinee, b.answerId, b.ltiUser].filter((x) => x !== undefined).length === 1, {
    message: "name exactly one of `examinee`, `answerId` and `ltiUser`",
    path: ["examinee"],
  });
export type SubjectEraseRequest = z.input<typeof subjectEraseBody>;

/** What a subject's erasure touched: each evaluation and collection, with the answers removed from it. */
export const subjectErased = z.object({
  evaluations: z.array(z.object({ id: z.string(), answers: z.array(z.string()) })),
  collections: z.array(z.object({ id: z.string(), answers: z.array(z.string()) })),
  recomputed: z.literal(false).describe("the ranks, scores and ratings of the answers that remain are not recomputed"),
  note: z.string(),
});
export type SubjectErased = z.infer<typeof subjectErased>;
