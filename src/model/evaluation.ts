import type { Pairing } from "../core/method";
import type { ByeRule, Debias, ExtraPlacement, TieBreak } from "../core/types";
import type { MethodName } from "../core/methods";
import type { PanelMode, Template } from "../contract/names";

/** An evaluation's life: queued at its judge's gate, running, then ended one of three ways. */
import { STATUSES, type Status } from "../contract/names";
export { STATUSES, type Status };
export type EndStatus = Exclude<Status, "queued" | "running">;
/** The statuses an evaluation ends with; D1 has them before its object has finished. */
export const ENDED: ReadonlySet<string> = new Set<EndStatus>(["completed", "failed", "cancelled"]);

/** What the Durable Object is given to run: the validated request plus what the Worker decided. */
export interface EvaluationInput {
  id: string;
  tenant: string;
  question: string;
  reference: string | null;
  maxScore: number;
  /** The step final grades are rounded to; absent where an evaluation predates it (the template's default then). */
  gradeStep?: number;
  template: Template;
  method: MethodName;
  /** true: both orders; false: one; "adaptive": the other order only when the judge is unsure (knockout). */
  debias: Debias;
  pairing: Pairing;
  /** Bracket pairing: who may get the bye; absent: "no-repeat", as evaluations stored before the field were played. */
  byes?: ByeRule;
  /** The knockout's rule for a match nothing split; absent: "position", as evaluations stored before the field were played. */
  tieBreak?: TieBreak;
  /** Where the knockout's extra calls go; absent: "neighbours", as evaluations stored before the field were played. */
  extraPlacement?: ExtraPlacement;
  seed: number;
  /**
   * `structuredOutputs`: ask for JSON in the prompt's schema. `scoreFrom`: where the deciding scores come
   * from (evaluations stored before the field have "text", as they were played).
   */
  judge: {
    model: string | null;
    temperature: number;
    structuredOutputs: boolean;
    scoreFrom: ScoreFrom;
    /** The `max_tokens` every call sends, fixed when the evaluation is made (JUDGE_MAX_TOKENS then); absent before it was kept. */
    maxTokens?: number;
    /** A panel of two or more judges (models) (src/core/panel.ts); absent: one judge. */
    panel?: string[];
    /** How the panel shares the calls: each match to the next judge in turn, or every call to every judge; absent: "cycle". */
    panelMode?: PanelMode;
  };
  /** The version of the prompts it is judged with (src/judge/prompt-version.ts); absent before it was kept. */
  promptVersion?: string;
  /** Scores where a grade changes: an answer whose interval crosses one asks for review. */
  gradeBoundaries?: number[];
  /** Knockout: judge calls to spend after it on the least certain answers. */
  extraCalls?: number;
  /** The share of answers flagged for review, the most likely wrong; absent (stored before it): 0.15. */
  reviewShare?: number;
  /** Flag also every answer whose grade is wrong with a probability above it; null or absent: none. */
  reviewThreshold?: number | null;
  /** Where to POST the signed outcome; null or absent: no webhook. */
  webhookUrl?: string | null;
  answers: { id: string; text: string; examinee?: string }[];
  /** "judge": one feedback call per answer after the tournament; absent (stored before it): "none". */
  feedback?: FeedbackMode;
  /** Pairwise methods: the result also carries each answer's length-controlled score (src/core/length-control.ts). */
  lengthControl?: boolean;
  /** Pointwise judging against named criteria (method "individual" only); null without one. */
  rubric: Rubric | null;
  /** The batch this evaluation belongs to, if it was created by one. */
  batchId?: string | null;
  batchIndex?: number | null;
  createdAt: number;
}

/**
 * "text": the written scores decide; "logprobs": the expected scores from the judge's token
 * probabilities decide, and a reply without them is asked again; "auto": the expected scores where the
 * endpoint gives probabilities, the written ones where it does not.
 */
import { SCORE_SOURCES, type ScoreFrom } from "../contract/names";
import type { FeedbackMode } from "../contract/names";
export type { FeedbackMode };

/** The feedback the judge wrote for one answer's student, or why it could not (after its retries). */
export interface JudgeFeedback {
  answerId: string;
  text: string | null;
  error: string | null;
  at: number;
}
export { SCORE_SOURCES, type ScoreFrom };

export interface Criterion {
  name: string;
  description?: string;
  /** The top of this criterion's scale; defaults to the evaluation's maxScore. */
  maxScore: number;
}

export interface Rubric {
  criteria: Criterion[];
}

export interface Usage {
  judgeCalls: number;
  promptTokens: number;
  completionTokens: number;
  retries: number;
  parseFailures: number;
  /** Of promptTokens, those in the prefix all of the evaluation's calls share (instructions, question,
   * reference): what a prefix cache (vLLM's) can serve instead of computing again. */
  sharedPrefixTokens: number;
  /** sharedPrefixTokens / promptTokens, to 3 decimals. */
  sharedPrefixShare: number;
  /** Of judgeCalls, those spent on extra matches after the knockout (`extraCalls`). */
  extraCalls: number;
  /** Calls adaptive debiasing did not send, against judging every match in both orders. */
  callsSaved: number;
  /** Feedback calls answered (one per answer with `feedback: "judge"`); apart from judgeCalls. Their tokens are in promptTokens and completionTokens. */
  feedbackCalls: number;
}

// The outcome's views are the core's: every method builds them (src/core/outcome.ts).
export type { AnswerView, CallView, MatchView, Outcome } from "../core/outcome";
