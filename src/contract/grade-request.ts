import { z } from "zod";
import { maxGradeNoteChars } from "./limits.ts";

/** A teacher's grade of one answer (PUT …/answers/:answerId/grade); the route checks it against the evaluation's maxScore. */
export const gradeBody = z.strictObject({
  score: z.number().finite(),
  note: z.string().max(maxGradeNoteChars, `must be at most ${maxGradeNoteChars} characters`).optional(),
});
export type GradeRequest = z.input<typeof gradeBody>;

/** The longest feedback a teacher writes: several paragraphs, still a student's feedback. */
export const maxFeedbackChars = 5_000;

/** A teacher's feedback for one answer's student (PUT …/answers/:answerId/feedback): shown as text, never markup. */
export const feedbackBody = z.strictObject({
  text: z.string().trim().min(1, "must not be empty").max(maxFeedbackChars, `must be at most ${maxFeedbackChars} characters`),
});
export type FeedbackRequest = z.input<typeof feedbackBody>;
