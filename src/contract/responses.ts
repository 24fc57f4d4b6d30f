import { z } from "zod";

import {
  AUDIT_VERBS,
  COLLECTION_STATUSES,
  EXTRA_PLACEMENTS,
  FEEDBACK_MODES,
  FEEDBACK_SOURCES,
  FINAL_FROM,
  KEY_SCOPES,
  PAIRINGS,
  RATING_SYSTEMS,
  RELEASE_MODES,
  SCORE_SOURCES,
  STATUSES,
  TEMPLATE_NAMES,
  TIE_BREAKS,
  TIE_KINDS,
} from "./names.ts";
import { limits } from "./limits.ts";
import { REVIEW_RULES } from "./review-rule.ts";

// What the routes answer: the API's description and the client's types. Objects are open (more fields
// may come), and each lists what a client can rely on; the request schemas are in the *-request files.

const iso = z.string().describe("ISO 8601 date-time");

export const keyCreated = z.looseObject({
  key: z.string(),
  /** The key's id: what `DELETE /v1/keys/:id` revokes and what audit lines name as `who`. */
  id: z.string(),
  tenant: z.string(),
  scopes: z.array(z.enum(KEY_SCOPES)),
  collectionId: z.string().nullable(),
  expiresAt: iso.nullable(),
  webhookSecret: z.string().optional(),
});
export const keyRevoked = z.looseObject({ id: z.string(), revokedAt: iso });
/** A key as its tenant sees it in the list: never the key itself (only its hash is kept). */
export const keyListed = z.looseObject({
  id: z.string(),
  scopes: z.array(z.enum(KEY_SCOPES)),
  collectionId: z.string().nullable(),
  expiresAt: iso.nullable(),
  rateLimitPerMinute: z.number().int().nullable(),
  createdAt: iso,
  revokedAt: iso.nullable(),
});
export const keyList = z.looseObject({ keys: z.array(keyListed) });
export const secretRotated = z.looseObject({ webhookSecret: z.string(), previousValidUntil: iso });
export const accepted = z.looseObject({ id: z.string(), status: z.literal("queued") });
/** POST …/rerun: the new evaluation, queued, and the one it replays. */
export const rerunAccepted = accepted.extend({ rerunOf: z.string() });
export const batchAccepted = z.looseObject({ id: z.string(), status: z.literal("running"), total: z.number().int() });

export const estimate = z.looseObject({
  judgeCalls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  seconds: z.number(),
  /** Feedback calls (one per answer with `feedback: "judge"`), beside judgeCalls (the tournament's, as usage counts them); tokens and seconds count both. */
  feedbackCalls: z.number().int().optional(),
  /**
   * The requests the judges are sent: judgeCalls times the panel's size with `judge.panelMode: "all"`
   * (every call to every judge), plus feedbackCalls; tokens and seconds count these.
   */
  judgeRequests: z.number().int().optional(),
  /** Extra calls asked for, and those the answers can use (what the judge calls count and the run spends at most). */
  extraCalls: z.looseObject({ requested: z.number().int(), usable: z.number().int() }),
  basis: z.looseObject({
    promptTokens: z.enum(["tokenizer", "assumed"]),
    completionTokens: z.enum(["recent", "assumed"]),
    seconds: z.enum(["measured", "assumed"]),
    secondsPerCall: z.number(),
    /** Characters a prompt token holds: the endpoint's tokenizer's on one of the prompts, else the assumed 4. */
    charsPerToken: z.number().optional(),
    /** Completion tokens a call takes: over the tenant's last 50 completed evaluations, else the assumed 150. */
    completionTokensPerCall: z.number().optional(),
  }),
});

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
export const usage = z.looseObject({
  judgeCalls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  retries: z.number().int(),
  parseFailures: z.number().int(),
  /** Feedback calls answered (one per answer with `feedback: "judge"`); not in judgeCalls, which are the tournament's. */
  feedbackCalls: z.number().int().optional(),
  /** The prompt tokens that are the prefix all of the question's calls share (what a prefix cache reuses), and their share. */
  sharedPrefixTokens: z.number().int().optional(),
  sharedPrefixShare: z.number().optional(),
  /** Calls spent on extra matches (in judgeCalls), and the calls adaptive debiasing did not send. */
  extraCalls: z.number().int().optional(),
  callsSaved: z.number().int().optional(),
});
export const agreement = z
  .looseObject({
    n: z.number().int(),
    pearson: z.number().nullable(),
    spearman: z.number().nullable(),
    mae: z.number(),
    exact: z.number(),
    qwk: z.number().nullable(),
  })
  .nullable();

/** A share of the judge's calls or matches: `count` of `of`, with its 95% Wilson interval; null share and interval when `of` is 0. */
const diagnosticShare = z.looseObject({
  share: z.number().nullable(),
  interval: z.tuple([z.number(), z.number()]).nullable(),
  count: z.number().int(),
  of: z.number().int(),
  /** The published figure to read it against (FastChat's judge study, AlpacaEval). */
  anchor: z.looseObject({ value: z.number(), source: z.string() }).optional(),
});
/**
 * The judge's biases, from the calls and matches recorded (docs/grading.md, "Judging the judge").
 * `firstPositionWins`: of the calls of matches judged in both orders that chose a winner, those won by
 * the answer shown first. `ordersDisagree`: of those matches, the ones whose two calls chose different
 * winners. `longerWins`: of the matches decided by the scores whose answers differ in length by
 * `lengthRatio` or more (in characters), those the longer answer won. `parseRetried`: of all calls, those
 * asked again. `ties`: of the pairwise matches played (extra ones aside), those whose written scores
 * tied; `byPosition` of them decided by position. `warnings`: the figures far from fair, and why.
 */
export const judgeDiagnostics = z.looseObject({
  firstPositionWins: diagnosticShare,
  ordersDisagree: diagnosticShare,
  longerWins: diagnosticShare.extend({ lengthRatio: z.number() }),
  parseRetried: diagnosticShare,
  ties: diagnosticShare.extend({ byPosition: z.number().int() }),
  warnings: z.array(z.looseObject({ figure: z.string(), message: z.string() })),
});

/**
 * What a rerun needs to ask the same, and what can still differ: the sampling seed of every call is
 * derived from `seed` by `seedPolicy` (each call also reports the one it sent); `sampling` is what
 * every call sends (`topP` null: not sent, the endpoint's default; `maxTokens` null: not recorded, an
 * evaluation made before it was kept); `promptVersion` names the prompts' wording; `models` and
 * `revisions` are those the judge's replies named (filled in once the evaluation has ended; empty
 * for calls recorded before they were kept; `revisions` only where the endpoint reports one, OpenAI's `system_fingerprint`).
 */
export const reproducibility = z.looseObject({
  seed: z.number().int(),
  seedPolicy: z.string(),
  sampling: z.looseObject({ temperature: z.number(), topP: z.number().nullable(), maxTokens: z.number().int().nullable() }),
  promptVersion: z.string().nullable(),
  models: z.array(z.string()),
  revisions: z.array(z.string()),
});

/**
 * On an evaluation made by POST …/rerun: the evaluation it replays (`of`), and once both have
 * completed, how many matches it has (`matches`) and how many of them came out differently from the
 * original's match of the same index (`differing`: other answers met, another winner or other
 * scores); both null until then.
 */
export const rerunReport = z.looseObject({
  of: z.string(),
  matches: z.number().int().nullable(),
  differing: z.number().int().nullable(),
});

/** A rubric as an evaluation or a collection was made with it (its criteria, as the request gave them). */
const rubricView = z.looseObject({
  criteria: z.array(z.looseObject({ name: z.string(), description: z.string().optional(), maxScore: z.number().optional() })),
});

export const evaluation = z.looseObject({
  id: z.string(),
  status: z.enum(STATUSES),
  method: z.string(),
  /** The settings it was made with (docs/api.md, "POST /v1/evaluations"); absent or null where the service sets none. */
  question: z.string().optional(),
  reference: z.string().nullable().optional(),
  debias: z.union([z.boolean(), z.literal("adaptive")]).optional(),
  pairing: z.enum(PAIRINGS).optional(),
  /** A bracket's rule for who sits a round out (docs/grading.md); absent on evaluations made before it. */
  byes: z.enum(["paper", "no-repeat"]).optional(),
  /** How a match nothing split is decided; absent on evaluations made before it, which use "position". */
  tieBreak: z.enum(TIE_BREAKS).optional(),
  judge: z
    .looseObject({
      model: z.string().nullable(),
      scoreFrom: z.enum(SCORE_SOURCES),
      panel: z.array(z.string()).optional(),
      panelMode: z.string().optional(),
    })
    .optional(),
  gradeBoundaries: z.array(z.number()).optional(),
  extraCalls: z.number().int().optional(),
  /** Where the extra calls go; absent on evaluations made before it, which use "neighbours". */
  extraPlacement: z.enum(EXTRA_PLACEMENTS).optional(),
  template: z.enum(TEMPLATE_NAMES).optional(),
  maxScore: z.number().optional(),
  gradeStep: z.number().optional(),
  seed: z.number().int().optional(),
  rubric: rubricView.optional(),
  feedback: z.enum(FEEDBACK_MODES).optional(),
  batchId: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  createdAt: iso.optional(),
  completedAt: iso.optional(),
  champion: z.string().nullable(),
  answers: z.array(answer),
  matches: z.array(match),
  /**
   * How the answers' `review.flagged` were picked: "share", the ceil(share x answers) most likely
   * wrong; "share-or-threshold", those and every answer above `threshold`. `flagged`: how many are.
   * Absent while the evaluation is queued.
   */
  review: z
    .looseObject({ rule: z.enum(REVIEW_RULES), share: z.number(), threshold: z.number().nullable(), flagged: z.number().int() })
    .optional(),
  usage,
  agreement,
  judgeDiagnostics,
  reproducibility,
  rerun: rerunReport.optional(),
  /**
   * With `judge.panel`: how the panel shared the calls ("cycle": each match to the next judge in turn;
   * "all": every call to every judge, averaged) and, per judge, the matches it played (or answered a
   * call of), the answers it scored, its Pearson and mean absolute difference against the panel's
   * scores (Pearson null under three answers), in "all" the calls it gave no answer to (`absent`), and
   * its own `judgeDiagnostics` from the matches as it alone judged them. Filled in once the evaluation has ended.
   */
  panel: z
    .looseObject({
      mode: z.string(),
      judges: z.array(
        z.looseObject({
          model: z.string(),
          matches: z.number().int(),
          answers: z.number().int(),
          pearson: z.number().nullable(),
          meanAbsDiff: z.number().nullable(),
          absent: z.number().int().optional(),
          judgeDiagnostics,
        }),
      ),
    })
    .optional(),
  /**
   * With `lengthControl: true`: the judge's length preference fitted on the evaluation's matches.
   * `coefficient`: log-odds for an answer per unit of its length term tanh(ln(length / medianLength));
   * `points`: the same in score points; `medianLength`: the question's median answer length in
   * characters; `fitted: false` with a `reason` (fewer than 8 decided matches), the raw scores then.
   */
  lengthControl: z
    .looseObject({
      coefficient: z.number(),
      points: z.number(),
      fitted: z.boolean(),
      reason: z.string().optional(),
      medianLength: z.number().optional(),
    })
    .optional(),
  calibration: z
    .looseObject({
      n: z.number().int(),
      /** The map the grades were fitted with, chosen by how many there are (src/teacher/calibration.ts). */
      method: z.enum(["identity", "shift", "median", "linear", "isotonic", "blend"]),
      range: z.tuple([z.number(), z.number()]),
      /**
       * The map: intercept + slope x judge score, the intercept (a shift) faded by exp(-(d / reach)^2)
       * at a distance d from the nearest graded answer's judge score when `reach` > 0.
       */
      intercept: z.number(),
      slope: z.number(),
      reach: z.number(),
    })
    .nullable(),
  error: z.string().optional(),
});

/** An answer's final grade and its release, as a release, a withdrawal and their webhooks give it. */
export const releasedAnswer = z.looseObject({
  id: z.string(),
  finalScore: z.number().nullable(),
  finalFrom: z.enum(FINAL_FROM).nullable(),
  releasedAt: iso.nullable(),
});
/** What POST and DELETE …/release answer: the answers asked about, as they stand now. */
export const releaseState = z.looseObject({
  id: z.string(),
  maxScore: z.number(),
  answers: z.array(releasedAnswer),
  /** How many of the evaluation's answers are released, of how many. */
  released: z.number().int(),
  of: z.number().int(),
});

/**
 * One line of the audit trail: who did what to which resource, when. Ids only: never an answer's text,
 * a feedback's text, a grade's score or note, or a student's name.
 */
export const auditLine = z.looseObject({
  id: z.string(),
  at: iso,
  /** The API key's id, or "admin" for the service's admin token. */
  who: z.string(),
  what: z.enum(AUDIT_VERBS),
  evaluationId: z.string().nullable(),
  answerId: z.string().nullable(),
  collectionId: z.string().nullable(),
  /** The key a `key.create` or `key.revoke` is about. */
  keyId: z.string().nullable(),
  /** A key's scopes and expiry (`key.create`), how many things an action touched: never a text. */
  detail: z
    .looseObject({
      scopes: z.array(z.enum(KEY_SCOPES)).optional(),
      expiresAt: iso.nullable().optional(),
      count: z.number().int().optional(),
      /** The batch a `batch.erase` is about. */
      batchId: z.string().optional(),
      /** The tenant's retention from a `settings.change` on (null: none). */
      retentionDays: z.number().int().nullable().optional(),
      /** The LTI platform an `lti-platform.*` line is about, and the fields a change touched. */
      ltiPlatformId: z.string().optional(),
      fields: z.array(z.string()).optional(),
    })
    .nullable(),
});
export const auditPage = z.looseObject({ data: z.array(auditLine), nextCursor: z.string().nullable() });

export const page = z.looseObject({ data: z.array(z.looseObject({ id: z.string() })), nextCursor: z.string().nullable() });
/** A page of a tenant's evaluations, newest first: each one's summary (the whole result is `GET /v1/evaluations/:id`). */
export const evaluationPage = z.looseObject({
  data: z.array(
    z.looseObject({
      id: z.string(),
      status: z.enum(STATUSES),
      method: z.string(),
      champion: z.string().nullable(),
      createdAt: iso,
      completedAt: iso.nullable().optional(),
    }),
  ),
  nextCursor: z.string().nullable(),
});
export const cancelled = z.looseObject({ id: z.string(), status: z.string() });
export const deliveries = z.looseObject({ data: z.array(z.looseObject({})) });
export const shareCreated = z.looseObject({ url: z.string(), token: z.string() });
export const revoked = z.looseObject({ revoked: z.number().int() });
export const grade = z.looseObject({
  answerId: z.string(),
  teacherScore: z.number().nullable(),
  note: z.string().nullable(),
  gradedAt: iso,
});
export const gradeHistory = z.looseObject({
  answerId: z.string(),
  data: z.array(
    z.looseObject({
      action: z.enum(["graded", "withdrawn"]),
      teacherScore: z.number().nullable(),
      note: z.string().nullable(),
      gradedAt: iso,
    }),
  ),
});
export const feedbackEdited = z.looseObject({ answerId: z.string(), feedback });
export const feedbackHistory = z.looseObject({
  answerId: z.string(),
  data: z.array(z.looseObject({ text: z.string(), from: z.enum(FEEDBACK_SOURCES), editedAt: iso })),
});
export const batch = z.looseObject({
  id: z.string(),
  status: z.string(),
  /** Questions ended of all; `failed` and `cancelled` of them ended so. */
  progress: z.looseObject({
    done: z.number().int(),
    total: z.number().int(),
    failed: z.number().int().optional(),
    cancelled: z.number().int().optional(),
  }),
  evaluations: z.array(z.string()),
  /** Once ended, where answers carry an `examinee`: each examinee's total score over the questions it answered, best first. */
  examLevel: z.array(z.looseObject({ examinee: z.string(), total: z.number(), questionsAnswered: z.number().int() })).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  createdAt: iso.optional(),
  agreement: agreement.optional(),
  /** The judge's biases over the batch's ended questions, pooled (as on an evaluation). */
  judgeDiagnostics: judgeDiagnostics.optional(),
});
const interval = z.looseObject({ low: z.number(), high: z.number() });
/** One player's rating in one system: `ci` and `rankCi` are the bootstrap's intervals (null without it). */
const playerRating = z.looseObject({
  player: z.string(),
  /** Elo: rating; Bradley-Terry: on Elo's scale; Glicko-2: rating; TrueSkill: mu. */
  rating: z.number(),
  /** 1 = best; ties share a rank. */
  rank: z.number().int(),
  ci: interval.nullable(),
  rankCi: interval.nullable(),
  /** Glicko-2's rating deviation and volatility. */
  rd: z.number().optional(),
  volatility: z.number().optional(),
  /** TrueSkill's sigma. */
  sigma: z.number().optional(),
  /** Bradley-Terry's strength (geometric mean 1). */
  strength: z.number().optional(),
});
const majority = z.looseObject({ winner: z.string(), loser: z.string(), games: z.number().int(), winnerScore: z.number() });
/**
 * Elo, Bradley-Terry, Glicko-2 and TrueSkill over the games (docs/api.md, "Ratings"), with the
 * head-to-head majorities' transitivity and whether each system's ranking agrees with them.
 */
export const ratings = z.looseObject({
  /** On a batch's ratings: the batch. */
  batchId: z.string().optional(),
  games: z.number().int(),
  players: z.array(z.string()),
  systems: z.partialRecord(
    z.enum(RATING_SYSTEMS),
    z.looseObject({
      system: z.enum(RATING_SYSTEMS),
      /** Best first. */
      players: z.array(playerRating),
      /** Bradley-Terry: "mle", or "map" where no maximum likelihood estimate exists (an unbeaten or winless group). */
      estimate: z.enum(["mle", "map"]).optional(),
    }),
  ),
  transitivity: z.looseObject({
    players: z.number().int(),
    pairs: z.looseObject({ decided: z.number().int(), tied: z.number().int(), unplayed: z.number().int() }),
    triples: z.looseObject({
      total: z.number().int(),
      decided: z.number().int(),
      transitive: z.number().int(),
      intransitive: z.number().int(),
    }),
    transitiveShare: z.number().nullable(),
    /** Up to 100 cycles [A, B, C]: A beats B, B beats C, C beats A. */
    cycles: z.array(z.tuple([z.string(), z.string(), z.string()])),
    linearOrder: z.boolean(),
    agreement: z.partialRecord(
      z.enum(RATING_SYSTEMS),
      z.looseObject({
        decidedPairs: z.number().int(),
        agreeing: z.number().int(),
        share: z.number().nullable(),
        agrees: z.boolean(),
        disagreements: z.array(majority),
      }),
    ),
  }),
  bootstrap: z.looseObject({ samples: z.number().int(), confidence: z.number(), seed: z.number().int() }).nullable(),
});
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
export const judges = z.object({
  model: z.string().nullable(),
  /** The models the pool's configuration names (several: a call goes to an endpoint of its model); empty when none is named. */
  models: z.array(z.string()).optional(),
  capacity: z.number().int(),
  inFlight: z.number().int(),
  waiting: z.number().int(),
  admission: z.object({ limit: z.number().int(), running: z.number().int(), queued: z.number().int() }),
  endpoints: z.array(
    z.object({
      url: z.string(),
      model: z.string().nullable(),
      /** Every model it is configured to serve, where configured. */
      models: z.array(z.string()).optional(),
      cap: z.number().int(),
      weight: z.number(),
      inFlight: z.number().int(),
      served: z.number().int(),
      failed: z.number().int(),
      latencyMs: z.object({ p50: z.number(), p95: z.number(), calls: z.number().int() }).nullable(),
      circuit: z.object({
        state: z.enum(["closed", "open", "probing", "out"]),
        failuresInARow: z.number().int(),
        openedAt: z.string().nullable(),
        nextProbeAt: z.string().nullable(),
        reason: z.string().nullable(),
      }),
    }),
  ),
});
/** What the API validates against (src/contract/limits.ts): every limit a number. */
export const meta = z.looseObject({
  methods: z.array(z.string()),
  templates: z.array(z.string()),
  limits: z.looseObject(Object.fromEntries(Object.keys(limits).map((name) => [name, z.number()]))),
});
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

export type KeyCreated = z.output<typeof keyCreated>;
export type KeyRevoked = z.output<typeof keyRevoked>;
export type KeyList = z.output<typeof keyList>;
export type AuditLine = z.output<typeof auditLine>;
export type AuditPage = z.output<typeof auditPage>;
export type Accepted = z.output<typeof accepted>;
export type RerunAccepted = z.output<typeof rerunAccepted>;
export type BatchAccepted = z.output<typeof batchAccepted>;
export type Estimate = z.output<typeof estimate>;
export type CallView = z.output<typeof call>;
export type MatchView = z.output<typeof match>;
export type AnswerView = z.output<typeof answer>;
export type Usage = z.output<typeof usage>;
export type Evaluation = z.output<typeof evaluation>;
export type JudgeDiagnosticsView = z.output<typeof judgeDiagnostics>;
export type Page = z.output<typeof page>;
export type EvaluationPage = z.output<typeof evaluationPage>;
export type CollectionPage = z.output<typeof collectionPage>;
export type Cancelled = z.output<typeof cancelled>;
export type Grade = z.output<typeof grade>;
export type GradeHistory = z.output<typeof gradeHistory>;
export type Feedback = z.output<typeof feedback>;
export type FeedbackEdited = z.output<typeof feedbackEdited>;
export type FeedbackHistory = z.output<typeof feedbackHistory>;
export type Batch = z.output<typeof batch>;
export type Ratings = z.output<typeof ratings>;
export type SharedEvaluation = z.output<typeof shared>;
export type JudgesView = z.output<typeof judges>;
export type EndpointView = JudgesView["endpoints"][number];
export type Meta = z.output<typeof meta>;
export type Collection = z.output<typeof collection>;
export type PublicCollection = z.output<typeof publicCollection>;
export type Submitted = z.output<typeof submitted>;
export type Receipt = z.output<typeof receipt>;
export type ReleasedAnswer = z.output<typeof releasedAnswer>;
export type ReleaseState = z.output<typeof releaseState>;
export type WebhookEventType = keyof typeof webhookEvents;
export type WebhookPayload<T extends WebhookEventType> = z.output<(typeof webhookEvents)[T]>;

/** A registered LTI 1.3 platform (POST/GET/PATCH /v1/lti/platforms). */
export const ltiPlatform = z.looseObject({
  id: z.string(),
  issuer: z.string(),
  clientId: z.string(),
  deploymentIds: z.array(z.string()),
  authLoginUrl: z.string(),
  accessTokenUrl: z.string(),
  jwksUrl: z.string(),
  createdAt: iso,
  updatedAt: iso,
});
export const ltiPlatformList = z.looseObject({ data: z.array(ltiPlatform) });
export const ltiPlatformDeleted = z.looseObject({ id: z.string(), deleted: z.literal(true) });
/** The tool's public keys (GET /lti/jwks): RSA public parameters only, each with its kid. */
export const ltiJwks = z.looseObject({
  keys: z.array(z.looseObject({ kty: z.literal("RSA"), kid: z.string(), n: z.string(), e: z.string(), alg: z.string(), use: z.string() })),
});
export type LtiPlatform = z.output<typeof ltiPlatform>;
export type LtiPlatformList = z.output<typeof ltiPlatformList>;
export type LtiPlatformDeleted = z.output<typeof ltiPlatformDeleted>;
export type LtiJwks = z.output<typeof ltiJwks>;
