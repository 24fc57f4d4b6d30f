import { z } from "zod";
import { FINAL_FROM, STATUSES } from "./names.ts";
import { match } from "./answer-response.ts";
import { iso } from "./response-parts.ts";

export const shareCreated = z.looseObject({ url: z.string(), token: z.string() });

export const revoked = z.looseObject({ revoked: z.number().int() });

/**
 * An answer as a share link shows it: the judge's score and the grade its student is given. Never the
 * feedback: that is written for its own student, and a link is read by whoever holds it.
 */
export const sharedAnswer = z.looseObject({
  id: z.string(),
  score: z.number().nullable(),
  /** Its match scores, one per match, and the round it lost in (null for the champion), as on `GET /v1/evaluations/:id`. */
  scores: z.array(z.number()).optional(),
  eliminatedInRound: z.number().int().nullable().optional(),
  rank: z.number().int(),
  /** As on `GET /v1/evaluations/:id`: the teacher's grade, else the calibrated score, else the judge's, on `gradeStep`. */
  finalScore: z.number().nullable(),
  finalFrom: z.enum(FINAL_FROM).nullable(),
  text: z.string().optional(),
  /** Only on a link made with `includeExaminee: true`. */
  examinee: z.string().optional(),
});

/** An evaluation as a share link shows it: its answers and matches, without the judge servers that answered. */
export const shared = z.looseObject({
  question: z.string(),
  reference: z.string().nullable().optional(),
  maxScore: z.number().optional(),
  method: z.string().optional(),
  status: z.enum(STATUSES).optional(),
  champion: z.string().nullable().optional(),
  answers: z.array(sharedAnswer),
  matches: z.array(match).optional(),
  completedAt: iso.optional(),
});

export type SharedEvaluation = z.output<typeof shared>;
