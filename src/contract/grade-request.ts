import { z } from "zod";
import { maxGradeNoteChars } from "./limits.ts";

/** A teacher's grade of one answer (PUT …/answers/:answerId/grade); the route checks it against the evaluation's maxScore. */
export const gradeBody = z.strictObject({
  score: z.number().finite(),
  note: z.string().max(maxGradeNoteChars, `must be at most ${maxGradeNoteChars} characters`).optional(),
});
export type GradeRequest = z.input<typeof gradeBody>;
