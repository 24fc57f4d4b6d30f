import { z } from "zod";

// What the grade passback (LTI Assignment and Grade Services) and the course roster (Names and Role
// Provisioning) routes answer: GET /v1/collections/:id/lti-scores and GET /v1/collections/:id/lti-roster.

const iso = z.string().describe("ISO 8601 date-time");

/** Where a score stands: waiting to be posted (or retried), taken by the platform, refused for good, or replaced by a newer one before it went. */
export const LTI_SCORE_STATES = ["queued", "posted", "failed", "superseded"] as const;
export type LtiScoreState = (typeof LTI_SCORE_STATES)[number];

/**
 * Whether this collection's grades go to a gradebook: `on`; `off` (not placed in a course by LTI);
 * `no-line-item` (the launches named no gradebook column); `no-score-scope` (the platform did not grant
 * the score scope to this tool).
 */
export const LTI_PASSBACK_STATES = ["on", "off", "no-line-item", "no-score-scope"] as const;

export const ltiScoreVersion = z.looseObject({
  /** 1, 2, ...: a new version each time the grade, its feedback or its release changes. */
  version: z.number().int(),
  state: z.enum(LTI_SCORE_STATES),
  gradingProgress: z.enum(["FullyGraded", "PendingManual", "Pending"]),
  scoreGiven: z.number().nullable(),
  scoreMaximum: z.number().nullable(),
  /** The score's own timestamp, as posted. */
  timestamp: iso,
  nextAttemptAt: iso.nullable(),
  /** Every attempt to post it: the platform's status, or why there was none, and its words on a refusal. */
  attempts: z.array(z.looseObject({ n: z.number().int(), at: iso, status: z.number().int().nullable(), error: z.string().nullable() })),
});

export const ltiScores = z.looseObject({
  collectionId: z.string(),
  passback: z.enum(LTI_PASSBACK_STATES),
  lineItemUrl: z.string().nullable(),
  /** How many learners' latest scores are in each state. */
  counts: z.looseObject({ queued: z.number().int(), posted: z.number().int(), failed: z.number().int() }),
  /** One entry per learner who answered, oldest first. */
  data: z.array(
    z.looseObject({
      /** The platform's id of the learner (LTI `sub`): the score's `userId`. */
      userId: z.string(),
      name: z.string().nullable(),
      answerId: z.string(),
      /** The latest version's state; `not-sent` while there is nothing to post (the grade is not released). */
      state: z.enum([...LTI_SCORE_STATES, "not-sent"]),
      /** Every version queued, oldest first. */
      versions: z.array(ltiScoreVersion),
    }),
  ),
});

/** POST /v1/collections/:id/lti-scores/retry: how many failed scores were queued again. */
export const ltiScoresRetried = z.looseObject({ collectionId: z.string(), requeued: z.number().int() });

export const ltiRoster = z.looseObject({
  collectionId: z.string(),
  /** The course's active learners, in the platform's order, with whether each has answered. */
  data: z.array(z.looseObject({ userId: z.string(), name: z.string().nullable(), answered: z.boolean(), answerId: z.string().nullable() })),
  answered: z.number().int(),
  notAnswered: z.number().int(),
});

export type LtiScores = z.output<typeof ltiScores>;
export type LtiScoreVersion = z.output<typeof ltiScoreVersion>;
export type LtiRoster = z.output<typeof ltiRoster>;
