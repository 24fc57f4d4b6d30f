import type { OpenCall } from "../core/types";
import type { EvaluationInput } from "../model/evaluation";
import { judgeRequest, promptShape, promptTokenSplit, readExpected, readReply, wantsLogprobs } from "./ask";
import { callSeed } from "./call-seed";
import { combineVotes } from "../core/panel";
import { MatchJudges } from "../core/match-judges";
import type { PanelVote, PanelVoteRecord } from "../core/types";
import { completeWithRetry, type JudgeConfig, JudgeError, type JudgeRoute, JudgeSkipped, type JudgeTarget } from "./client";

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
  /** A panel's judge asked (the model name asked); absent without a panel, and in "all" (see `votes`). */
  judge?: string | null;
  /** A panel in "all": each judge's answer (averaged into `scores`) or why it gave none; absent otherwise. */
  votes?: PanelVoteRecord[] | null;
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
  around: <T>(attempt: (target: JudgeTarget | null) => Promise<T>, avoid?: string, route?: JudgeRoute) => Promise<T>;
  /** The judge is a pool of several endpoints: a retry goes elsewhere at once (see completeWithRetry). */
  pooled?: boolean;
  /** vLLM's `priority` for the request (lower first; servers started with --scheduling-policy priority). */
  priority?: number;
  /** The fetch the attempt is sent with (the object's, under the platform's rule on connections). */
  fetch?: (input: string, init: RequestInit) => Promise<Response>;
  /** Streamed: the judge's words so far, for live viewers. */
  onText?: (textSoFar: string) => void;
  /** Streamed: whether a viewer watches the words now (see completeWithRetry). */
  watched?: () => boolean;
  /** A transport fault that will be retried. */
  onRetry: (err: JudgeError) => void;
  /** A reply that could not be parsed: it still cost its tokens. */
  onParseFailure: (tokens: CallTokens) => void;
  /**
   * A panel in "cycle": the judge each match is held to (the run's one MatchJudges), and what to do
   * when a match moves to the next judge (its calls the judge it left answered are to be asked again).
   * Without it, each call is held to its match's judge on its own, and moves alone.
   */
  cycle?: { judges: MatchJudges; onMove: (match: number) => void };
}

/**
 * One call of a match, played to a score: sent to the judge (retried on transport faults by
 * `completeWithRetry`), asked again while its reply cannot be parsed. The tokens of the answered
 * attempt come back with the result, for the caller to store with it. With a panel (src/core/panel.ts):
 * in "cycle", to the match's judge (see playCycle); in "all", to every judge at once, their scores averaged.
 */
export async function playCall(
  input: EvaluationInput,
  pool: JudgeConfig,
  call: OpenCall,
  hooks: PlayHooks,
): Promise<{ result: JudgedCall; tokens: CallTokens }> {
  const panel = input.judge.panel;
  if (!panel) return playOne(input, pool, call, hooks);
  if (input.judge.panelMode === "all") return playAll(input, pool, call, hooks, panel);
  return playCycle(input, pool, call, hooks, panel);
}

/**
 * "cycle": the call to its match's judge only. While that judge is down and another of the panel is
 * up, the gate skips it (JudgeSkipped) and the whole match moves to the next judge in turn
 * (MatchJudges), the caller told so that the match's calls the judge it left answered are asked again:
 * both orders of a match are one judge's. With every judge down, the call waits and fails at its
 * match's judge as a plain judge's does. An answer can still come from a judge the match has since
 * left (a call in flight when a sibling moved it): the caller records only its judge's (`records`).
 */
async function playCycle(
  input: EvaluationInput,
  pool: JudgeConfig,
  call: OpenCall,
  hooks: PlayHooks,
  panel: readonly string[],
): Promise<{ result: JudgedCall; tokens: CallTokens }> {
  // a caller without the run's MatchJudges plays this one call alone: it moves on its own
  const judges = hooks.cycle?.judges ?? new MatchJudges(panel);
  for (;;) {
    const judge = judges.judgeOf(call.match);
    try {
      return await playOne(input, pool, call, hooks, panelJudge(panel, judge));
    } catch (err) {
      if (!(err instanceof JudgeSkipped)) throw err;
      if (hooks.signal.aborted) throw new MatchFailure("cancelled");
      if (judges.move(call.match, judge)) hooks.cycle?.onMove(call.match);
    }
  }
}

/** A call asked of one judge of the panel only, skipped (not waited for) while it is down and another is up. */
function panelJudge(panel: readonly string[], judge: string): JudgeRoute {
  return { models: [judge], skipIfDown: panel.filter((m) => m !== judge) };
}

/**
 * "all": the call to every judge of the panel at once. A judge that is down while another is up is
 * not waited for (the gate skips it), and one whose call fails for good is left out: the result names
 * both, and its scores average the judges that answered. With no judge answering, the call fails.
 */
async function playAll(
  input: EvaluationInput,
  pool: JudgeConfig,
  call: OpenCall,
  hooks: PlayHooks,
  panel: readonly string[],
): Promise<{ result: JudgedCall; tokens: CallTokens }> {
  const played = await Promise.all(
    panel.map(async (judge) => {
      try {
        return await playOne(input, pool, call, hooks, panelJudge(panel, judge));
      } catch (err) {
        if (hooks.signal.aborted) throw new MatchFailure("cancelled");
        const absent = err instanceof JudgeSkipped ? "down" : err instanceof Error ? err.message : String(err);
        return { judge, absent };
      }
    }),
  );
  const votes: PanelVoteRecord[] = played.map((p, i) => {
    if ("absent" in p) return p;
    const r = p.result;
    const vote: PanelVote = {
      judge: panel[i],
      scores: r.scores,
      expected: r.expected,
      unheld: r.unheld,
      spread: r.spread,
      ...(r.parseRetried ? { parseRetried: true } : {}),
      endpoint: r.endpoint,
      model: r.model ?? null,
      revision: r.revision ?? null,
      seed: r.seed ?? null,
      promptTokens: r.promptTokens,
      completionTokens: r.completionTokens,
    };
    return vote;
  });
  const answers = played.flatMap((p) => ("absent" in p ? [] : [p]));
  if (answers.length === 0)
    throw new MatchFailure(
      `${describeCall(call)}: no judge of the panel answered (${played.map((p, i) => `${panel[i]}: ${"absent" in p ? p.absent : ""}`).join("; ")})`,
    );
  const combined = combineVotes(answers.map((a) => a.result));
  const sum = (pick: (t: CallTokens) => number) => answers.reduce((s, a) => s + pick(a.tokens), 0);
  const result: JudgedCall = {
    match: call.match,
    call: call.call,
    ...combined,
    endpoint: null,
    model: null,
    revision: null,
    seed: null,
    votes,
    // each judge's words under its name, and why a judge gave none: one text, so an erasure empties them all
    raw: played.map((p, i) => `[${panel[i]}] ${"absent" in p ? `no answer: ${p.absent}` : p.result.raw}`).join("\n\n"),
    promptTokens: answers.reduce((s, a) => s + a.result.promptTokens, 0),
    completionTokens: answers.reduce((s, a) => s + a.result.completionTokens, 0),
  };
  return {
    result,
    tokens: {
      promptTokens: sum((t) => t.promptTokens),
      sharedPrefixTokens: sum((t) => t.sharedPrefixTokens),
      completionTokens: sum((t) => t.completionTokens),
    },
  };
}

/** One call to one judge (or, routed, to the first of `route`'s judges the gate finds up). */
async function playOne(
  input: EvaluationInput,
  judge: JudgeConfig,
  call: OpenCall,
  hooks: PlayHooks,
  route?: JudgeRoute,
): Promise<{ result: JudgedCall; tokens: CallTokens }> {
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
      watched: hooks.watched,
      onRetry: hooks.onRetry,
      pooled: hooks.pooled,
      ...(route ? { route } : {}),
    }).catch((err: JudgeError) => {
      if (err instanceof JudgeSkipped) throw err;
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
        ...(route ? { judge: completion.asked } : {}),
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
