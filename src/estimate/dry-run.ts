import { readConfig } from "../platform/config";
import { database } from "../db/database";
import { evaluations } from "../db/schema";
import type { EvaluationInput } from "../model/evaluation";
import { judgeRequest } from "../judge/ask";
import { judgeGateStub } from "../platform/stubs";
import { and, desc, eq } from "drizzle-orm";
import { callPlan, secondsFor, shownSeconds } from "./plan";

/** Stated assumptions, used where nothing was measured yet. */
export const ASSUMED = {
  /** A judge call's time on a busy GPU server with a 70B model: a short explanation and two scores. */
  secondsPerCall: 2,
  /** The paper's prompts ask for a brief explanation, then the scores. */
  completionTokensPerCall: 150,
  /** English text; a tokenizer's count where the endpoint has one. */
  charsPerToken: 4,
};

export interface Estimate {
  /** The tournaments' calls, as usage counts judgeCalls. */
  judgeCalls: number;
  /** Feedback calls (one per answer with `feedback: "judge"`); tokens and seconds count them too. */
  feedbackCalls: number;
  /**
   * The requests the judges are sent: the tournament's calls times the panel's size where a panel
   * judges in "all" (every call to every judge), and the feedback calls. Tokens and seconds count these.
   */
  judgeRequests: number;
  promptTokens: number;
  completionTokens: number;
  seconds: number;
  /** Where each figure comes from: measured here, or the stated assumption. */
  basis: {
    promptTokens: "tokenizer" | "assumed";
    completionTokens: "recent" | "assumed";
    seconds: "measured" | "assumed";
    secondsPerCall: number;
    charsPerToken: number;
    completionTokensPerCall: number;
  };
}

/**
 * `?dryRun=true`: what grading these evaluations would take, nothing created. Tokens through the
 * endpoint's `/tokenize` (vLLM has it) on one of the prompts, else 4 characters a token; completion
 * tokens from the tenant's recent evaluations; seconds from the pace the JudgeGate has measured (the
 * median time a call held its permit lately), all calls spread over the endpoint's cap.
 */
export async function estimate(env: Env, tenant: string, inputs: EvaluationInput[]): Promise<Estimate> {
  const config = readConfig(env);
  const plans = inputs.map(callPlan);
  const judgeCalls = plans.reduce((s, p) => s + p.judgeCalls, 0);
  const feedbackCalls = plans.reduce((s, p) => s + p.feedbackCalls, 0);
  const allCalls = plans.reduce((s, p) => s + p.judgeCalls * p.requestsPerCall, 0) + feedbackCalls;
  const promptChars = plans.reduce((s, p) => s + p.promptChars, 0);
  const [charsPerToken, recent, pace] = await Promise.all([
    tokenizerRatio(env, tenant, inputs[0]),
    recentCompletionTokens(env, tenant),
    judgeGateStub(env)
      .pace()
      .catch(() => null),
  ]);
  const secondsPerCall = pace?.secondsPerCall ?? ASSUMED.secondsPerCall;
  const perEvaluation = Math.min(config.maxConcurrency, config.maxInFlight);
  const longest = Math.max(
    0,
    ...plans.map((p) => secondsFor(p.judgeCalls * p.requestsPerCall + p.feedbackCalls, p.sequentialRounds, secondsPerCall, perEvaluation)),
  );
  const seconds = Math.max(longest, secondsFor(allCalls, 1, secondsPerCall, config.maxConcurrency));
  const completionPerCall = recent ?? ASSUMED.completionTokensPerCall;
  return {
    judgeCalls,
    feedbackCalls,
    judgeRequests: allCalls,
    promptTokens: Math.round(promptChars / (charsPerToken ?? ASSUMED.charsPerToken)),
    completionTokens: Math.round(allCalls * completionPerCall),
    seconds: shownSeconds(seconds),
    basis: {
      promptTokens: charsPerToken ? "tokenizer" : "assumed",
      completionTokens: recent ? "recent" : "assumed",
      seconds: pace?.secondsPerCall ? "measured" : "assumed",
      secondsPerCall: Math.round(secondsPerCall * 1000) / 1000,
      charsPerToken: Math.round((charsPerToken ?? ASSUMED.charsPerToken) * 100) / 100,
      completionTokensPerCall: Math.round(completionPerCall),
    },
  };
}

/**
 * Characters per token of the judge's tokenizer on one real prompt, or null when it has no /tokenize
 * or none can be asked now. The call is a judge request like any other: it holds one of the gate's
 * permits (so it counts under the pool's cap), taken only when one is free at once, and a tenant has
 * at most a few open; otherwise the estimate uses its assumed ratio rather than wait behind grading.
 */
async function tokenizerRatio(env: Env, tenant: string, input: EvaluationInput | undefined): Promise<number | null> {
  const pool = readConfig(env).pool;
  if (!input || !pool || input.answers.length < 2) return null;
  const gate = judgeGateStub(env, pool.key);
  const permit = await gate.estimatePermit(tenant).catch(() => null);
  if (!permit) return null;
  try {
    // every endpoint of the pool serves the same model, so any one's tokenizer is the pool's
    const judge = pool.endpoints.find((e) => e.url === permit.endpoint) ?? pool.endpoints[0];
    const order = input.method === "individual" ? [input.answers[0].id] : [input.answers[0].id, input.answers[1].id];
    const prompt = judgeRequest(input, { match: 0, call: 0, round: 1, order })
      .messages.map((m) => m.content)
      .join("\n");
    // vLLM serves /tokenize beside /v1, at the server's root
    const root = judge.url.replace(/\/v1$/, "");
    const response = await fetch(`${root}/tokenize`, {
      method: "POST",
      headers: { "content-type": "application/json", ...(judge.apiKey ? { authorization: `Bearer ${judge.apiKey}` } : {}) },
      body: JSON.stringify({ model: input.judge.model ?? judge.model, prompt }),
      signal: AbortSignal.timeout(2_000),
    });
    if (!response.ok) return null;
    const count = ((await response.json()) as { count?: number }).count;
    return typeof count === "number" && count > 0 ? prompt.length / count : null;
  } catch {
    return null;
  } finally {
    await gate.release({ lease: permit.lease, outcome: "none" }).catch(() => undefined);
  }
}

/** Completion tokens per judge call over the tenant's last completed evaluations, or null with none. */
async function recentCompletionTokens(env: Env, tenant: string): Promise<number | null> {
  const rows = await database(env.DB)
    .select({ calls: evaluations.judgeCalls, feedbackCalls: evaluations.feedbackCalls, tokens: evaluations.completionTokens })
    .from(evaluations)
    .where(and(eq(evaluations.tenant, tenant), eq(evaluations.status, "completed")))
    .orderBy(desc(evaluations.createdAt))
    .limit(50);
  // completion tokens count the feedback calls' too
  const calls = rows.reduce((s, r) => s + r.calls + r.feedbackCalls, 0);
  const tokens = rows.reduce((s, r) => s + r.tokens, 0);
  return calls > 0 && tokens > 0 ? tokens / calls : null;
}
