import { z } from "zod";
import { COLLECTION_STATUSES, FEEDBACK_MODES, FINAL_FROM, RELEASE_MODES, TEMPLATE_NAMES } from "./names.ts";
import { feedback } from "./answer-response.ts";
import { iso, rubricView } from "./response-parts.ts";

export const collection = z.looseObject({
  id: z.string(),
  status: z.enum(COLLECTION_STATUSES),
  /** The settings it was made with (docs/api.md, "Collections"). */
  question: z.string(),
  reference: z.string().nullable().optional(),
  maxScore: z.number().optional(),
  method: z.string().optional(),
  template: z.enum(TEMPLATE_NAMES).optional(),
  debias: z.boolean().optional(),
  gradeStep: z.number().optional(),
  reviewShare: z.number().optional(),
  reviewThreshold: z.number().optional(),
  rubric: rubricView.optional(),
  release: z.enum(RELEASE_MODES).optional(),
  showRank: z.boolean().optional(),
  feedback: z.enum(FEEDBACK_MODES).optional(),
  closing: z.looseObject({ deadline: iso.nullable(), maxAnswers: z.number().int().nullable() }).optional(),
  allowedOrigins: z.array(z.string()).optional(),
  /** Where its grading's webhook goes (never with credentials); null: none. */
  webhook: z.looseObject({ url: z.string() }).nullable().optional(),
  publicToken: z.string(),
  embed: z.looseObject({ script: z.string(), iframe: z.string() }),
  /** What the form takes: the most characters an answer may have. */
  limits: z.looseObject({ maxAnswerChars: z.number().int() }).optional(),
  answerCount: z.number().int(),
  answers: z.array(
    z.looseObject({
      id: z.string(),
      name: z.string().nullable().optional(),
      text: z.string(),
      submittedAt: iso.optional(),
      /** Once its grading completed: the judge's score and rank, and the final grade. */
      score: z.number().nullable().optional(),
      rank: z.number().int().nullable().optional(),
      finalScore: z.number().nullable().optional(),
      finalFrom: z.enum(FINAL_FROM).nullable().optional(),
      releasedAt: iso.nullable().optional(),
    }),
  ),
  closedAt: iso.nullable().optional(),
  /** What closed it: its deadline, its answer limit, or the teacher. */
  closedBy: z.string().nullable().optional(),
  evaluation: z.looseObject({ id: z.string(), status: z.string() }).nullable(),
  error: z.string().nullable(),
  createdAt: iso.optional(),
});

/** A page of a tenant's collections, newest first: each one's summary. */
export const collectionPage = z.looseObject({
  data: z.array(
    z.looseObject({
      id: z.string(),
      status: z.enum(COLLECTION_STATUSES),
      question: z.string(),
      answerCount: z.number().int(),
      /** The id of the evaluation grading it, once closed (its status: `GET /v1/collections/:id`). */
      evaluation: z.string().nullable(),
      createdAt: iso,
      closedAt: iso.nullable(),
    }),
  ),
  nextCursor: z.string().nullable(),
});

/** A collection as its public form shows it: the question, whether it takes answers, until when, and how long they may be. */
export const publicCollection = z.looseObject({
  question: z.string(),
  maxScore: z.number().optional(),
  open: z.boolean(),
  deadline: iso.nullable().optional(),
  limits: z.looseObject({ maxAnswerChars: z.number().int(), maxNameChars: z.number().int() }).optional(),
});

export const submitted = z.looseObject({ receiptUrl: z.string(), receiptToken: z.string() });

/**
 * A student's receipt. `status`: collecting, grading, "being reviewed" (graded, not yet released),
 * released, not graded or failed. `result` is null until the answer is released: nothing of a grade
 * reaches the student before.
 */
export const receipt = z.looseObject({
  question: z.string(),
  status: z.string(),
  /** The answer as its student sent it. */
  answer: z.looseObject({ text: z.string(), name: z.string().nullable().optional(), submittedAt: iso.optional() }),
  result: z
    .looseObject({
      finalScore: z.number().nullable(),
      maxScore: z.number(),
      /** Only when the collection shows ranks (`showRank`). */
      rank: z.number().int().optional(),
      of: z.number().int().optional(),
      releasedAt: iso,
      /** When the grade changed after its release; null if it has not. */
      updatedAt: iso.nullable(),
      /** The feedback written for this student (the teacher's edit, else the judge's); null when there is none. */
      feedback: feedback.nullable(),
    })
    .nullable(),
});

export type CollectionPage = z.output<typeof collectionPage>;

export type Collection = z.output<typeof collection>;

export type PublicCollection = z.output<typeof publicCollection>;

export type Submitted = z.output<typeof submitted>;

export type Receipt = z.output<typeof receipt>;
