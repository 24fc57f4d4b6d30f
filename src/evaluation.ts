import { standings } from "./core/standings";
import type { KnockoutState } from "./core/types";
import type { Pairing } from "./core/method";
import type { MethodName } from "./core/methods";
import type { Template } from "./judge/prompts";

/** An evaluation's life: queued at its judge's gate, running, then ended one of three ways. */
export const STATUSES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export type Status = (typeof STATUSES)[number];
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
  template: Template;
  method: MethodName;
  debias: boolean;
  pairing: Pairing;
  seed: number;
  /** `structuredOutputs`: ask for JSON in the prompt's schema. */
  judge: { model: string | null; temperature: number; structuredOutputs: boolean };
  /** Where to POST the signed outcome; null or absent: no webhook. */
  webhookUrl?: string | null;
  answers: { id: string; text: string; examinee?: string }[];
  /** Pointwise judging against named criteria (method "individual" only); null without one. */
  rubric: Rubric | null;
  /** The batch this evaluation belongs to, if it was created by one. */
  batchId?: string | null;
  batchIndex?: number | null;
  createdAt: number;
}

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
}

export interface CallView {
  order: string[];
  scores: number[];
  raw: string;
}

/**
 * A match of the result. Pairwise methods: two answers, `winner` null while undecided, or on a draw
 * once both scores are set (methods without elimination do not break ties). Individual judging: one
 * "match" per answer with `b` and `scoreB` null and `winner` null.
 */
export interface MatchView {
  round: number;
  a: string;
  b: string | null;
  scoreA: number | null;
  scoreB: number | null;
  winner: string | null;
  calls: CallView[];
}

export interface AnswerView {
  id: string;
  score: number | null;
  scores: number[];
  eliminatedInRound: number | null;
  rank: number;
  /** Who wrote the answer, when the request named it. */
  examinee?: string;
  /** Round-robin: the Bradley-Terry strength (geometric mean 1 over the question's answers). */
  strength?: number;
  /** Rubric judging: the judge's score per criterion, by criterion name. */
  criteria?: Record<string, number>;
}

/** Everything an evaluation has produced so far; the same shape whether read from the DO or from D1. */
export interface Outcome {
  champion: string | null;
  answers: AnswerView[];
  matches: MatchView[];
}

/** The outcome of a knockout so far; `raws` holds the judge's text per call, keyed "match.call". */
export function knockoutOutcome(state: KnockoutState, raws: ReadonlyMap<string, string>): Outcome {
  return {
    champion: state.champion,
    answers: standings(state),
    matches: state.matches.map((m) => ({
      round: m.round,
      a: m.a,
      b: m.b,
      scoreA: m.scoreA,
      scoreB: m.scoreB,
      winner: m.winner,
      calls: m.calls.flatMap((c, i) => (c.scores ? [{ order: [...c.order], scores: [...c.scores], raw: raws.get(`${m.index}.${i}`) ?? "" }] : [])),
    })),
  };
}
