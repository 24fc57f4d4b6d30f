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

// The outcome's views are the core's: every method builds them (src/core/outcome.ts).
export type { AnswerView, CallView, MatchView, Outcome } from "./core/outcome";
