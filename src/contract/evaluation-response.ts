import { z } from "zod";
import {
  EXTRA_PLACEMENTS,
  FEEDBACK_MODES,
  FEEDBACK_SOURCES,
  FINAL_FROM,
  PAIRINGS,
  SCORE_SOURCES,
  STATUSES,
  TEMPLATE_NAMES,
  TIE_BREAKS,
} from "./names.ts";
import { REVIEW_RULES } from "./review-rule.ts";
import { answer, feedback, match } from "./answer-response.ts";
import { agreement, judgeDiagnostics, reproducibility, rerunReport, usage } from "./judge-figures.ts";
import { iso, rubricView } from "./response-parts.ts";

export const accepted = z.looseObject({ id: z.string(), status: z.literal("queued") });

/** POST …/rerun: the new evaluation, queued, and the one it replays. */
export const rerunAccepted = accepted.extend({ rerunOf: z.string() });

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

export type Accepted = z.output<typeof accepted>;

export type RerunAccepted = z.output<typeof rerunAccepted>;

export type Estimate = z.output<typeof estimate>;

export type Evaluation = z.output<typeof evaluation>;

export type EvaluationPage = z.output<typeof evaluationPage>;

export type Cancelled = z.output<typeof cancelled>;

export type Grade = z.output<typeof grade>;

export type GradeHistory = z.output<typeof gradeHistory>;

export type FeedbackEdited = z.output<typeof feedbackEdited>;

export type FeedbackHistory = z.output<typeof feedbackHistory>;

export type ReleasedAnswer = z.output<typeof releasedAnswer>;

export type ReleaseState = z.output<typeof releaseState>;
