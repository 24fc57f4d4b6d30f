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

/** One person to erase across the tenant's data (POST /v1/subjects/erase): by examinee, or by answer id. */
export const subjectEraseBody = z
  .strictObject({
    examinee: z.string().min(1, "must not be empty").max(200).optional(),
    answerId: z.string().min(1, "must not be empty").max(200).optional(),
  })
  .refine((b) => (b.examinee === undefined) !== (b.answerId === undefined), {
    message: "name exactly one of `examinee` and `answerId`",
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
