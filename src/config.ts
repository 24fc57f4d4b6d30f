import type { JudgeConfig } from "./judge/client";
import { runningLimit } from "./gate/admission";

/** Defaults that match the paper (temperature 0.1) and a GPU server that may be slow under load. */
export const defaults = {
  temperature: 0.1,
  timeoutMs: 120_000,
  // a judge down for minutes is waited for; after half an hour of failures in a row a call gives up
  deadlineMs: 30 * 60_000,
  retryBaseMs: 1_000,
  retryCapMs: 60_000,
  maxTokens: 1_024,
  // a reply that cannot be parsed is asked again; 5 keeps a 10%-garbage judge from failing a call
  // (0.1^5 = 1e-5 per call) while a judge that never answers in format fails soon
  parseAttempts: 5,
  watchdogMs: 30_000,
  /** Requests in flight to one judge endpoint, across every evaluation (issue 4). */
  maxConcurrency: 16,
  /** Requests in flight from one tournament: Cloudflare's 6 simultaneous connections per invocation. */
  maxInFlight: 6,
} as const;

export interface ServiceConfig {
  judge: Omit<JudgeConfig, "model"> & { model?: string };
  /** How many times one call is asked again when its reply cannot be parsed. */
  parseAttempts: number;
  /** How soon a tournament whose object died mid-way is picked up again. */
  watchdogMs: number;
  /** The cap on requests open at the judge endpoint, shared by all evaluations (the JudgeGate). */
  maxConcurrency: number;
  /** The cap on requests open from one tournament Durable Object. */
  maxInFlight: number;
  /** Evaluations running at once per judge endpoint; the rest wait in the JudgeGate's queue. */
  maxRunning: number;
  /** The default of an evaluation's `judge.structuredOutputs` (JUDGE_STRUCTURED_OUTPUTS=true). */
  structuredOutputs: boolean;
}

export function readConfig(env: Env): ServiceConfig {
  const maxConcurrency = Math.floor(positive(env.JUDGE_MAX_CONCURRENCY, defaults.maxConcurrency));
  return {
    judge: {
      baseUrl: env.JUDGE_BASE_URL ?? "",
      model: env.JUDGE_MODEL || undefined,
      apiKey: env.JUDGE_API_KEY || undefined,
      timeoutMs: positive(env.JUDGE_TIMEOUT_MS, defaults.timeoutMs),
      deadlineMs: positive(env.JUDGE_DEADLINE_MS, defaults.deadlineMs),
      retryBaseMs: positive(env.JUDGE_RETRY_BASE_MS, defaults.retryBaseMs),
      retryCapMs: positive(env.JUDGE_RETRY_CAP_MS, defaults.retryCapMs),
      maxTokens: positive(env.JUDGE_MAX_TOKENS, defaults.maxTokens),
    },
    parseAttempts: positive(env.JUDGE_PARSE_ATTEMPTS, defaults.parseAttempts),
    watchdogMs: positive(env.TOURNAMENT_WATCHDOG_MS, defaults.watchdogMs),
    maxConcurrency,
    maxInFlight: Math.floor(positive(env.JUDGE_MAX_IN_FLIGHT, defaults.maxInFlight)),
    // unset or not a positive number: derived from the concurrency, like every setting's default
    maxRunning: runningLimit(maxConcurrency, positive(env.JUDGE_MAX_RUNNING, 0) || undefined),
    structuredOutputs: env.JUDGE_STRUCTURED_OUTPUTS === "true",
  };
}

function positive(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isFinite(n) && n > 0 ? n : fallback;
}
