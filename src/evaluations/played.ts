import { knockoutUsage } from "../core/extra";
import { methodCore } from "../core/methods";
import type { CallDetail, KnockoutState } from "../core/types";
import type { EvaluationInput, Outcome, Status, Usage } from "../model/evaluation";
import { firstState, unplayedOutcome } from "./first-state";
import type { JudgedCall } from "../judge/play";
import { type LiveView, liveView } from "../live/view";

/**
 * An evaluation as played so far, from what its Durable Object stores: the input, the recorded judge
 * results and the cost counters. Pure: the object reads its storage and passes it in, so a result can
 * never disagree with the state built on it, and a restarted object shows what the old one did.
 */

export type Counter = "retries" | "parseFailures" | "promptTokens" | "completionTokens" | "sharedPrefixTokens";
export type Counters = Record<Counter, number>;

/** What a recorded result tells the core beside its written scores; a replay passes the same. */
export function detailOf(r: JudgedCall): CallDetail {
  return {
    expected: r.expected,
    spread: r.spread,
    unheld: r.unheld,
    parseRetried: r.parseRetried,
    endpoint: r.endpoint,
    model: r.model,
    revision: r.revision,
    seed: r.seed,
    judge: r.judge ?? null,
    votes: r.votes ?? null,
  };
}

/**
 * The method's state rebuilt from the recorded results (in any order: the same tournament). Null when
 * the input cannot start a tournament (see firstState).
 */
export function replay(input: EvaluationInput, results: readonly JudgedCall[]): unknown {
  const first = firstState(input);
  if (!first.ok) return null;
  const method = methodCore(input.method);
  let state = first.state;
  for (const r of results) state = method.record(state, r.match, r.call, r.scores, detailOf(r));
  return state;
}

/** The outcome of a played state, with the judge's words of each call and each answer's text and examinee. */
export function outcomeOf(input: EvaluationInput, state: unknown, results: readonly JudgedCall[]): Outcome {
  if (state === null) return unplayedOutcome(input);
  const outcome = methodCore(input.method).outcome(state, new Map(results.map((r) => [`${r.match}.${r.call}`, r.raw])));
  // what only the input knows: each answer's text and who wrote it
  const posted = new Map(input.answers.map((a) => [a.id, a]));
  return {
    ...outcome,
    answers: outcome.answers.map((a) => {
      const p = posted.get(a.id);
      return { ...a, ...(p?.examinee ? { examinee: p.examinee } : {}), text: p?.text ?? "" };
    }),
  };
}

/**
 * `judgeCalls` is the number of recorded results: calls that produced a score, not requests sent.
 * Extra calls and those adaptive debiasing saved are the knockout's, read from its state.
 */
export function usageSoFar(counters: Counters, judgeCalls: number, input?: EvaluationInput, state?: unknown, feedbackCalls = 0): Usage {
  const knockout = input?.method === "knockout" && state ? knockoutUsage(state as KnockoutState) : null;
  return {
    judgeCalls,
    promptTokens: counters.promptTokens,
    completionTokens: counters.completionTokens,
    retries: counters.retries,
    parseFailures: counters.parseFailures,
    sharedPrefixTokens: counters.sharedPrefixTokens,
    sharedPrefixShare: shareOf(counters.sharedPrefixTokens, counters.promptTokens),
    extraCalls: knockout?.extraCalls ?? 0,
    callsSaved: knockout?.callsSaved ?? 0,
    feedbackCalls,
  };
}

/** The bracket as viewers see it: carries no judge texts, so the outcome is built without them. */
export function viewOf(
  input: EvaluationInput,
  status: { status: Status; error: string | null },
  state: unknown,
  usage: Usage,
  feedbackDone = 0,
): LiveView {
  const core = methodCore(input.method);
  const outcome = state === null ? unplayedOutcome(input) : core.outcome(state, new Map());
  const total = state === null ? 0 : core.callCount(input.answers.length, { debias: input.debias, extraCalls: input.extraCalls });
  const head = {
    id: input.id,
    method: input.method,
    answerCount: input.answers.length,
    answerIds: input.answers.map((a) => a.id),
    maxScore: input.maxScore,
    status: status.status,
    error: status.error,
  };
  const view = liveView(head, outcome, usage, total);
  // the feedback phase after the tournament: its calls ended (written or failed), of one per answer
  return input.feedback === "judge" ? { ...view, feedback: { done: feedbackDone, total: input.answers.length } } : view;
}

function shareOf(part: number, whole: number): number {
  return whole > 0 ? Math.round((1000 * part) / whole) / 1000 : 0;
}
