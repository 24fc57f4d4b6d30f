import { z } from "zod";
import { FEEDBACK_SOURCES, FINAL_FROM, TIE_KINDS } from "./names.ts";
import { iso } from "./response-parts.ts";

export const call = z.looseObject({
  order: z.array(z.string()),
  scores: z.array(z.number()),
  /** The expected scores read from the judge's token probabilities, in the call's order; null without them. */
  expected: z.array(z.number()).nullable(),
  /** The standard deviation of the judge's distribution behind each expected score. */
  spread: z.array(z.number()).nullable().optional(),
  /** The expected scores before they were held to the written scores' rounding cells; they break a tie of held scores. */
  unheld: z.array(z.number()).nullable().optional(),
  /** The reply was asked for again because an earlier one could not be parsed. */
  parseRetried: z.boolean().optional(),
  /** The judge's words (absent with `?exclude=texts`). */
  raw: z.string().optional(),
  /** The judge server that answered (absent from a share link's view). */
  endpoint: z.string().nullable().optional(),
  /** The model the judge said answered (its reply's `model`); absent when it did not say, or before it was recorded. */
  model: z.string().optional(),
  /** The model's revision, where the endpoint reports one (OpenAI's `system_fingerprint`; vLLM sends none). */
  revision: z.string().optional(),
  /** The sampling seed the call sent: derived from the evaluation's seed and the call's place (see `reproducibility`). */
  seed: z.number().int().optional(),
  /**
   * With a panel in "cycle": the judge (model name) the call was asked of. Every call of a match names
   * one judge: the match's own by turn, or the next in turn that the whole match moved to when it was down.
   */
  judge: z.string().optional(),
  /**
   * With a panel in "all": each judge's answer to the call, whose scores (written, expected, unheld)
   * are averaged into the call's, or `absent` saying why a judge gave none ("down": the gate had no
   * endpoint of its model up while another judge's was; else the error its call failed with).
   */
  votes: z
    .array(
      z.union([
        z.looseObject({
          judge: z.string(),
          scores: z.array(z.number()),
          expected: z.array(z.number()).nullable().optional(),
          unheld: z.array(z.number()).nullable().optional(),
          spread: z.array(z.number()).nullable().optional(),
          parseRetried: z.boolean().optional(),
          endpoint: z.string().nullable().optional(),
          model: z.string().nullable().optional(),
          revision: z.string().nullable().optional(),
          seed: z.number().int().nullable().optional(),
          promptTokens: z.number().int().optional(),
          completionTokens: z.number().int().optional(),
        }),
        z.looseObject({ judge: z.string(), absent: z.string() }),
      ]),
    )
    .optional(),
});

/** A match; an extra one (played after the knockout with `extraCalls`, deciding nothing) has round "extra". */
export const match = z.looseObject({
  round: z.union([z.number().int(), z.literal("extra")]),
  a: z.string(),
  /** null for a pointwise judgment (method individual): one answer, one score. */
  b: z.string().nullable(),
  scoreA: z.number().nullable(),
  scoreB: z.number().nullable(),
  winner: z.string().nullable(),
  calls: z.array(call),
  /**
   * How a match its scores could not decide was decided. "expected": the written match scores were
   * equal, the expected scores decided. "expected-unheld": the expected scores were equal too (or
   * equal at a shared cell edge though the written ones differed), the expectations before holding
   * decided. "record": nothing differed, and the answer whose match scores in its earlier rounds
   * average higher advanced. "position": nothing told them apart, the paper's rule did (the second
   * answer advances).
   */
  tie: z.enum(TIE_KINDS).optional(),
  /** Both orders judged, and their calls chose different winners. */
  ordersDisagree: z.boolean().optional(),
});

/** Feedback written for the answer's student: by the judge (plain text, never markup), or as the teacher edited it. */
export const feedback = z.looseObject({
  text: z.string(),
  from: z.enum(FEEDBACK_SOURCES),
  editedAt: iso,
});

export const answer = z.looseObject({
  id: z.string(),
  score: z.number().nullable(),
  scores: z.array(z.number()),
  rank: z.number().int(),
  eliminatedInRound: z.number().int().nullable(),
  judgments: z.number().int().optional(),
  interval: z.tuple([z.number(), z.number()]).nullable().optional(),
  /**
   * Null while the answer has no judgment. `probability`: how likely its grade is wrong (its band with
   * gradeBoundaries, else by more than half a point, a tenth of a 100-point scale); `flagged`: among the
   * reviewShare most likely wrong, or above reviewThreshold; `reasons` explain it and flag nothing alone.
   */
  review: z
    .object({ flagged: z.boolean(), probability: z.number(), reasons: z.array(z.string()) })
    .nullable()
    .optional(),
  teacherScore: z.number().nullable(),
  calibrated: z.number().nullable(),
  /** The grade a student is given: the teacher's, else the calibrated score, else the judge's, on the scale's `gradeStep`. */
  finalScore: z.number().nullable().optional(),
  /** Where `finalScore` came from; null for an answer nobody scored. */
  finalFrom: z.enum(FINAL_FROM).nullable().optional(),
  /** When the answer was released to its student; null until then (or after a withdrawal). */
  releasedAt: iso.nullable().optional(),
  /** Who wrote the answer, when the request named it. */
  examinee: z.string().optional(),
  /** The answer as posted. */
  text: z.string().optional(),
  /** Round-robin: the Bradley-Terry strength (geometric mean 1 over the question's answers). */
  strength: z.number().optional(),
  /** Rubric judging: the judge's score per criterion, by criterion name. */
  criteria: z.record(z.string(), z.number()).optional(),
  /** With `lengthControl: true`: the judge's score (`score`, unchanged) and the score with its preference for length taken out. */
  rawScore: z.number().nullable().optional(),
  controlledScore: z.number().nullable().optional(),
  /** With `feedback: "judge"`: the feedback for the student, null until written or when it could not be. */
  feedback: feedback.nullable().optional(),
  /** Why the judge's feedback call failed (after its retries); the answer is graded all the same. */
  feedbackError: z.string().optional(),
});

export type CallView = z.output<typeof call>;

export type MatchView = z.output<typeof match>;

export type AnswerView = z.output<typeof answer>;

export type Feedback = z.output<typeof feedback>;
