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
