import { standings } from "./core/standings";
import type { KnockoutState } from "./core/types";
import type { Pairing } from "./core/method";
import type { MethodName } from "./core/methods";
import type { Template } from "./judge/prompts";

export type Status = "queued" | "running" | "completed" | "failed";

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
  /** Absent in evaluations stored before the field existed: they were paired per round. */
  pairing?: Pairing;
  seed: number;
  judge: { model: string | null; temperature: number };
  answers: { id: string; text: string }[];
  createdAt: number;
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

export interface MatchView {
  round: number;
  a: string;
  b: string;
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
