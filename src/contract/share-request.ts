import { z } from "zod";

/**
 * What a link shows besides the results: each answer's `examinee` (often a student's name or e-mail)
 * only when the owner asks for it. The body may be left out altogether.
 */
export const shareBody = z.strictObject({
  includeExaminee: z.boolean().default(false).describe("show each answer's examinee to whoever holds the link (default false)"),
});
