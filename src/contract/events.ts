import { z } from "zod";
import { COLLECTION_STATUSES, STATUSES } from "./names.ts";

// The server-sent events of the two streams: `GET /v1/evaluations/:id/events` (an evaluation's bracket
// as it is played) and `GET /v1/collections/:id/events` (a collection's answers as they arrive). Each
// event's `data` is one line of JSON of the schema under its name.

/** A match as the live bracket shows it: scores and winner, without the judge's texts (those come at the end). */
export const liveMatch = z.object({
  index: z.number().int(),
  round: z.number().int(),
  a: z.string(),
  /** null for a pointwise judgment (method individual): one answer, one score. */
  b: z.string().nullable(),
  scoreA: z.number().nullable(),
  scoreB: z.number().nullable(),
  winner: z.string().nullable(),
  /** How many of the match's judge calls have a result. */
  callsDone: z.number().int(),
  /** Played after the knockout with the evaluation's extra calls: it decides nothing. */
  extra: z.literal(true).optional(),
});
export type LiveMatch = z.output<typeof liveMatch>;

/** The judge's usage so far, every figure the service counts. */
export const liveUsage = z.object({
  judgeCalls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  retries: z.number().int(),
  parseFailures: z.number().int(),
  /** Of promptTokens, those in the prefix all of the evaluation's calls share (what a prefix cache can serve). */
  sharedPrefixTokens: z.number().int(),
  /** sharedPrefixTokens / promptTokens, to 3 decimals. */
  sharedPrefixShare: z.number(),
  /** Of judgeCalls, those spent on extra matches after the knockout (`extraCalls`). */
  extraCalls: z.number().int(),
  /** Calls adaptive debiasing did not send, against judging every match in both orders. */
  callsSaved: z.number().int(),
  /** Feedback calls answered (with `feedback: "judge"`), apart from judgeCalls. */
  feedbackCalls: z.number().int().optional(),
});

/** What a viewer of a running evaluation is sent: first in full (`snapshot`), then only the matches that changed (`progress`). */
export const liveView = z.object({
  id: z.string(),
  status: z.enum(STATUSES),
  error: z.string().nullable(),
  method: z.string(),
  answerCount: z.number().int(),
  /** In the snapshot only: the bracket shows who sits out a round (a bye) from it. */
  answerIds: z.array(z.string()).optional(),
  maxScore: z.number(),
  champion: z.string().nullable(),
  /** Judge calls with a recorded result, of those the method makes in all for these answers. */
  progress: z.object({ done: z.number().int(), total: z.number().int() }),
  /** With `feedback: "judge"`: the feedback calls ended (written or failed), of one per answer, after the tournament. */
  feedback: z.object({ done: z.number().int(), total: z.number().int() }).optional(),
  usage: liveUsage,
  matches: z.array(liveMatch),
});
export type LiveView = z.output<typeof liveView>;

/** The events of an evaluation's stream, by name. */
export const evaluationEvents = {
  snapshot: liveView,
  /** The view without `answerIds`; `matches` holds only those that changed (upserts by `index`). */
  progress: liveView.omit({ answerIds: true }),
  /** The judge's words so far of one call, streamed while it answers. */
  "match-text": z.object({ match: z.number().int(), call: z.number().int(), text: z.string() }),
  /**
   * One answer's feedback for its student, as the judge wrote it (plain text: show it as text, never
   * markup), or null with `error` when its call failed. Sent as each arrives, and after the snapshot
   * for those already written.
   */
  feedback: z.object({
    answerId: z.string(),
    feedback: z.object({ text: z.string(), from: z.enum(["judge", "teacher"]), editedAt: z.string() }).nullable(),
    error: z.string().optional(),
  }),
  /** The last event: the evaluation has ended and the stream closes. */
  end: z.object({ status: z.enum(STATUSES), error: z.string().nullable() }),
};
export type EvaluationEvent = {
  [K in keyof typeof evaluationEvents]: [event: K, data: z.output<(typeof evaluationEvents)[K]>];
}[keyof typeof evaluationEvents];

/** An answer as a collection's owner sees it arrive. */
export const arrivedAnswer = z.object({ id: z.string(), name: z.string().nullable(), text: z.string(), submittedAt: z.string() });
export type ArrivedAnswer = z.output<typeof arrivedAnswer>;

/** The events of a collection's stream, by name. */
export const collectionEvents = {
  snapshot: z.object({ status: z.enum(COLLECTION_STATUSES), answerCount: z.number().int(), answers: z.array(arrivedAnswer) }),
  answer: z.object({ answerCount: z.number().int(), answer: arrivedAnswer }),
  /** A learner who answered through their LMS (LTI) replaced their answer: the same id, its new text. */
  changed: z.object({ answerCount: z.number().int(), answer: arrivedAnswer }),
  /** What closed it: its deadline, its answer limit, or its owner. */
  closed: z.object({ closedBy: z.string() }),
  /** Its evaluation has started: that evaluation's own stream follows the grading. The stream ends. */
  graded: z.object({ evaluation: z.string() }),
  /** It cannot be graded, and why. The stream ends. */
  failed: z.object({ error: z.string().nullable() }),
  /** No such collection (any more). */
  end: z.object({ status: z.literal("unknown") }),
};
export type CollectionEvent = {
  [K in keyof typeof collectionEvents]: [event: K, data: z.output<(typeof collectionEvents)[K]>];
}[keyof typeof collectionEvents];
