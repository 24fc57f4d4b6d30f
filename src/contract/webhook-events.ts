import { z } from "zod";
import { FINAL_FROM } from "./names.ts";
import { batch } from "./batch-response.ts";
import { releasedAnswer } from "./evaluation-response.ts";
import { usage } from "./judge-figures.ts";
import { iso } from "./response-parts.ts";

/** The payload of each webhook event (`data` of the Standard Webhooks envelope). */
export const webhookEvents = {
  "evaluation.completed": z.looseObject({
    id: z.string(),
    status: z.string(),
    champion: z.string().nullable(),
    answers: z.array(
      z.looseObject({
        id: z.string(),
        score: z.number().nullable(),
        rank: z.number().int(),
        /** The round it lost in; null for the champion and for methods without rounds. */
        eliminatedInRound: z.number().int().nullable().optional(),
        /** The grade as it stands at completion (the judge's, or a batch's calibration), on the scale's step. */
        finalScore: z.number().nullable(),
        finalFrom: z.enum(FINAL_FROM).nullable(),
      }),
    ),
    usage,
    completedAt: iso,
  }),
  "evaluation.failed": z.looseObject({ id: z.string(), status: z.string(), error: z.string().optional(), completedAt: iso }),
  "batch.completed": batch,
  /** Answers of an evaluation (not a collection's) released to their students, with their final grades. */
  "evaluation.released": z.looseObject({
    id: z.string(),
    status: z.literal("completed"),
    maxScore: z.number(),
    answers: z.array(releasedAnswer),
    releasedAt: iso,
  }),
  /** Answers of a collection released to their students: `id` is the collection's, `evaluation` the evaluation's. */
  "collection.released": z.looseObject({
    id: z.string(),
    status: z.literal("completed"),
    evaluation: z.string(),
    maxScore: z.number(),
    answers: z.array(releasedAnswer),
    releasedAt: iso,
  }),
};

export type WebhookEventType = keyof typeof webhookEvents;

export type WebhookPayload<T extends WebhookEventType> = z.output<(typeof webhookEvents)[T]>;
