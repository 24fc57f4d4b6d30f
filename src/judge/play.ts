import type { OpenCall } from "../core/types";
import type { EvaluationInput } from "../model/evaluation";
import { judgeRequest, promptShape, promptTokenSplit, readExpected, readReply, wantsLogprobs } from "./ask";
import { callSeed } from "./call-seed";
import { panelJudge } from "../core/panel";
import { completeWithRetry, type JudgeConfig, JudgeError, type JudgeTarget } from "./client";

/** A judge result as recorded: the call it answers, its scores in the call's order, its text and cost. */
export interface JudgedCall {
  match: number;
  call: number;
  scores: number[];
  /** From the judge's token probabilities (null without them); they decide where given. */
  expected: number[] | null;
  spread: number[] | null;
  /** The expected scores before they were held to their cells (null without them, or recorded before they were kept). */
  unheld: number[] | null;
  /** An earlier reply to this call could not be parsed. */
  parseRetried: boolean;
  /** The endpoint of the pool that answered (its base URL); null in results recorded before pools. */
  endpoint: string | null;
  /** The model the judge said answered, and its revision where the endpoint reports one (./client). */
  model?: string | null;
  revision?: string | null;
  /** The sampling seed the answered attempt sent (./call-seed); absent in results recorded before seeds. */
  seed?: number | null;
  raw: string;
  promptTokens: number;
  completionTokens: number;
}

/** Tokens a call cost, split as `usage` reports them. */
export interface CallTokens {
  promptTokens: number;
  sharedPrefixTokens: number;
  completionTokens: number;
}

/** A call that could not be scored; its message names the match, and it fails the evaluation. */
export class MatchFailure extends Error {}

export interface PlayHooks {
  /** Aborted when the evaluation is cancelled: the call is abandoned and no retry is sent. */
  signal: AbortSignal;
  /** How many times a reply that cannot be parsed is asked again. */
  parseAttempts: number;
  /** Runs one HTTP attempt once the caps allow it, on the endpoint of the pool its permit is for (the object's permits). */
  around: <T>(attempt: (target: JudgeTarget | null) => Promise<T>, avoid?: string) => Promise<T>;
  /** The judge is a pool of several endpoints: a retry goes elsewhere at once (see completeWithRetry). */
  pooled?: boolean;
  /** vLLM's `priority` for the request (lower first; servers started with --scheduling-policy priority). */
  priority?: number;
  /** The fetch the attempt is sent with (the object's, under the platform's rule on connections). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Streamed: the judge's words so far, for live viewers. */
  onText?: (textSoFar: string) => void;
  /** A transport fault that will be retried. */
  onRetry: (err: JudgeError) => void;
  /** A reply that could not be parsed: it still cost its tokens. */
  onParseFailure: (tokens: CallTokens) => void;
}

/**
 * One call of a match, played to a score: sent to the judge (retried on transport faults by
 * `completeWithRetry`), asked again while its reply cannot be parsed. The tokens of the answered
 * attempt come back with the result, for the caller to store with it.
 */
export async function playCall(
  input: EvaluationInput,
  pool: JudgeConfig,
  call: OpenCall,
  hooks: PlayHooks,
): Promise<{ result: JudgedCall; tokens: CallTokens }> {
  // a panel: this match's judge, in turn (src/core/panel.ts); the pool's endpoints serve every member
  const judge = input.judge.panel ? { ...pool, model: panelJudge(input.judge.panel, call.match) } : pool;
  const asked = { ...judgeRequest(input, call), ...(hooks.priority !== undefined ? { priority: hooks.priority } : {}) };
  const shape = promptShape(input, call);
  let lastReason = "";
  for (let ask = 1; ask <= hooks.parseAttempts; ask++) {
    const seed = callSeed(input.seed, call.match, call.call, ask);
    const request = { ...asked, seed };
    const completion = await completeWithRetry(judge, request, {
      signal: hooks.signal,
      around: hooks.around,
      fetch: hooks.fetch,
      onText: hooks.onText,
      onRetry: hooks.onRetry,
      pooled: hooks.pooled,
    }).catch((err: JudgeError) => {
      throw new MatchFailure(`${describeCall(call)}: ${err.message}`);
    });
    if (hooks.signal.aborted) throw new MatchFailure("cancelled");
    const split = promptTokenSplit(completion.promptTokens, shape);
    const tokens = {
      promptTokens: split.promptTokens,
      sharedPrefixTokens: split.sharedPrefixTokens,
      completionTokens: completion.completionTokens,
    };
    const parsed = readReply(input, call, completion.text);
    const belief = parsed.ok ? readExpected(input, call, completion.text, completion.logprobs) : null;
    // scoreFrom "logprobs": a reply whose probabilities cannot be read is no verdict, and is asked again
    if (parsed.ok && belief === null && input.judge.scoreFrom === "logprobs" && wantsLogprobs(input)) {
      hooks.onParseFailure(tokens);
      lastReason = completion.logprobs
        ? "the judge's token probabilities do not spell its reply's scores"
        : 'the judge gave no token probabilities (judge.scoreFrom is "logprobs"; use "auto" for an endpoint without them)';
      continue;
    }
    if (parsed.ok) {
      const result: JudgedCall = {
        match: call.match,
        call: call.call,
        scores: parsed.value,
        expected: belief?.expected ?? null,
        spread: belief?.spread ?? null,
        unheld: belief?.unheld ?? null,
        parseRetried: ask > 1,
        endpoint: completion.endpoint,
        model: completion.model,
        revision: completion.revision,
        seed,
        raw: completion.text,
        promptTokens: completion.promptTokens,
        completionTokens: completion.completionTokens,
      };
      return { result, tokens };
    }
    hooks.onParseFailure(tokens);
    lastReason = `${parsed.reason}; reply: ${JSON.stringify(completion.text.slice(0, 200))}`;
  }
  throw new MatchFailure(
    `${describeCall(call)}: the judge's reply could not be parsed after ${hooks.parseAttempts} attempts (${lastReason})`,
  );
}

/** Why a pump stopped, as the evaluation's error says it. */
export function failureMessage(err: unknown): string {
  return err instanceof MatchFailure || err instanceof JudgeError ? err.message : `internal error: ${String(err)}`;
}

export function describeCall(call: OpenCall): string {
  return `match ${call.match + 1} (round ${call.round}, ${call.order.join(" vs ")}, call ${call.call + 1})`;
}
