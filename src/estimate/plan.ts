import { methodCore } from "../core/methods";
import type { EvaluationInput } from "../model/evaluation";
import { judgeRequest } from "../judge/ask";
import { feedbackRequest } from "../judge/feedback-prompt";

/**
 * What grading an evaluation will cost, before it is created (`?dryRun=true`): its judge calls (the
 * method's count; the most it can make with adaptive debiasing), the characters of their prompts (the
 * service's own prompts, every answer counted as often as the method shows it on average), and how
 * many rounds of calls must follow one another. Pure; the shell turns characters into tokens (the
 * endpoint's tokenizer where it has one) and rounds into seconds (the endpoint's measured pace).
 */
export interface CallPlan {
  /** The tournament's calls (as usage counts judgeCalls). */
  judgeCalls: number;
  /** Judge requests per call: the panel's size in "all" (every call to every judge), else 1. */
  requestsPerCall: number;
  /** With `feedback: "judge"`: one per answer, after the tournament; none otherwise. */
  feedbackCalls: number;
  /** Of every call, the feedback calls' included. */
  promptChars: number;
  /** Calls that must wait for earlier ones: the knockout's rounds, 1 for the methods planned at the start. */
  sequentialRounds: number;
}

export function callPlan(input: EvaluationInput): CallPlan {
  const n = input.answers.length;
  const judgeCalls = methodCore(input.method).callCount(n, { debias: input.debias, extraCalls: input.extraCalls ?? 0 });
  // a panel in "all" asks every judge each call: the cost times the panel's size
  const requestsPerCall = input.judge.panel && input.judge.panelMode === "all" ? input.judge.panel.length : 1;
  const pointwise = input.method === "individual";
  const shown = pointwise ? 1 : 2;
  // a call's prompt without its answers' texts: the same for every call of the question
  const blank = input.answers.slice(0, shown).map((a, i) => ({ ...a, id: `blank${i}`, text: "" }));
  const frame = judgeRequest({ ...input, answers: blank }, { match: 0, call: 0, round: 1, order: blank.map((a) => a.id) }).messages.reduce(
    (s, m) => s + m.content.length,
    0,
  );
  const meanText = n ? input.answers.reduce((s, a) => s + a.text.length, 0) / n : 0;
  const feedbackCalls = input.feedback === "judge" ? n : 0;
  // a feedback prompt shows its one answer: its frame once per answer, and every answer's text once
  const feedbackFrame = feedbackCalls
    ? feedbackRequest({ ...input, answers: [{ id: "blank", text: "" }] }, "blank").messages.reduce((s, m) => s + m.content.length, 0)
    : 0;
  const promptChars = Math.round(judgeCalls * requestsPerCall * (frame + shown * meanText) + feedbackCalls * (feedbackFrame + meanText));
  const knockoutRounds = Math.ceil(Math.log2(Math.max(2, n)));
  // a wave of extra matches meets each answer once: floor(N/2) matches of 1 call (2 debiased)
  const perWave = Math.max(1, Math.floor(n / 2) * (input.debias === false ? 1 : 2));
  const extraWaves = input.method === "knockout" ? Math.ceil((input.extraCalls ?? 0) / perWave) : 0;
  // the feedback calls are one more wave, after the tournament's last call
  const rounds = (input.method === "knockout" ? knockoutRounds + extraWaves : 1) + (feedbackCalls ? 1 : 0);
  return { judgeCalls, requestsPerCall, feedbackCalls, promptChars, sequentialRounds: rounds };
}

/**
 * Seconds for `calls` judge calls in `rounds` that follow one another, each taking `secondsPerCall`,
 * with at most `parallel` at once: a round cannot be quicker than one call, and all of them together
 * not quicker than the calls spread over the slots.
 */
export function secondsFor(calls: number, rounds: number, secondsPerCall: number, parallel: number): number {
  return Math.max(rounds, Math.ceil(calls / Math.max(1, parallel))) * secondsPerCall;
}

/**
 * Seconds as an estimate shows them, in tenths, rounded up: a fast judge's few calls take hundredths
 * of a second, and rounding them to the nearest tenth told a user that grading takes no time at all.
 */
export function shownSeconds(seconds: number): number {
  return seconds > 0 ? Math.ceil(seconds * 10 - 1e-9) / 10 : 0;
}
