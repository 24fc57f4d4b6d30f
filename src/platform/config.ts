import { runningLimit } from "../gate/admission";
import type { JudgeConfig } from "../judge/client";
import { type JudgePool, readPool } from "../judge/pool";
import { defaultGradingRetry, type GradingRetry } from "../collections/grading-retry";
import type { ReadBudget } from "../limits/read-budget";
import { defaultKeyCheckMs } from "../limits/stream-leases";

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
  /** Cloudflare's rule: outbound connections of one invocation waiting for their response headers. */
  waitingForHeaders: 6,
  webhookTimeoutMs: 15_000,
  submitLimit: 20,
  submitWindowSeconds: 600,
  /** Full reads of a running evaluation per API key: 1 MB a second, bursts of 4 MB (src/limits/read-budget.ts). */
  liveReadBytesPerSecond: 1_000_000,
  liveReadBurstBytes: 4_000_000,
  /** jose's own default: one refetch of a platform's JWKS per 30 s, whatever kids launches name. */
  ltiJwksCooldownMs: 30_000,
  /** LTI logins a minute from one network (one client address): a school behind one address starts many at once. */
  ltiLoginsPerMinute: 300,
  /** How long an instructor's launch waits for the course's roster before its page opens without it. */
  ltiRosterWaitMs: 5_000,
} as const;

/**
 * When a failed webhook delivery is tried again (the rule itself is src/webhooks/schedule.ts): backoff
 * from `baseMs` doubling up to `capMs`, until `windowMs` has passed since the first attempt.
 */
export interface RetryPolicy {
  baseMs: number;
  capMs: number;
  windowMs: number;
}

/** 30 s, 1 min, 2 min, ... then every 1-2 h, for 26 h: "at least a day", as Standard Webhooks asks. */
export const defaultRetryPolicy: RetryPolicy = { baseMs: 30_000, capMs: 2 * 3_600_000, windowMs: 26 * 3_600_000 };

/** Every setting the service reads, parsed once, in one place (the variables are in wrangler.toml). */
export interface ServiceConfig {
  /** How each judge request is made; where it goes is the pool's. */
  judge: Omit<JudgeConfig, "model" | "baseUrl" | "apiKey">;
  /** The judge servers (JUDGE_ENDPOINTS, or JUDGE_BASE_URL as a pool of one); null when none is configured. */
  pool: JudgePool | null;
  /** Why JUDGE_ENDPOINTS (or JUDGE_BASE_URL) was refused, when it was: evaluations are refused with it. */
  poolError: string | null;
  /** The same with the values that explain it, for the operator's log only (never in a response). */
  poolErrorDetail: string | null;
  /** How many times one call is asked again when its reply cannot be parsed. */
  parseAttempts: number;
  /** How soon a tournament whose object died mid-way is picked up again. */
  watchdogMs: number;
  /** The cap on requests open at the judge, shared by all evaluations (the JudgeGate): the pool's capacity. */
  maxConcurrency: number;
  /** The cap on judge calls in flight from one tournament Durable Object (default: the endpoint's cap). */
  maxInFlight: number;
  /** Requests of one object waiting for their response headers at once, as Cloudflare allows (0: no limit). */
  waitingForHeaders: number;
  /** Evaluations running at once on the judge pool; the rest wait in the JudgeGate's queue. */
  maxRunning: number;
  /** JUDGE_PRIORITY=true: requests carry vLLM's `priority` (interactive 0, questions of a batch 1). */
  judgePriority: boolean;
  /** The default of an evaluation's `judge.structuredOutputs` (JUDGE_STRUCTURED_OUTPUTS=true). */
  structuredOutputs: boolean;
  /** How often an open event stream looks its key up again, ending when it is revoked (STREAM_KEY_CHECK_MS). */
  streamKeyCheckMs: number;
  /** Requests per minute per API key when the key has no limit of its own; 0: none. */
  rateLimitPerMinute: number;
  /** What each API key may read of one running evaluation (LIVE_READ_BYTES_PER_S "0": no budget). */
  liveReadBudget: ReadBudget | null;
  /** Local development: http webhooks to this machine are allowed too. */
  allowInsecureWebhooks: boolean;
  webhookRetry: RetryPolicy;
  webhookTimeoutMs: number;
  /** Answers one client may submit to one collection per window. */
  collectionSubmit: { limit: number; windowMs: number };
  /** How a closed collection keeps trying to start its grading, and for how long. */
  collectionGrading: GradingRetry;
  /** Local workerd only: let a finished tournament's object go this long after it ends (0: never). */
  retireAfterMs: number;
  /** The first part of a run that reads the judge's words as if watched (durable-objects/tournament.ts). */
  liveGraceMs: number;
  /** LTI: the least time between two refetches of a platform's JWKS for a key it does not list. */
  ltiJwksCooldownMs: number;
  /** LTI logins a minute from one client address; each writes a row, and the route needs no key. */
  ltiLoginsPerMinute: number;
  ltiRosterWaitMs: number;
  adminToken: string | undefined;
}

export function readConfig(env: Env): ServiceConfig {
  const endpointCap = Math.floor(positive(env.JUDGE_MAX_CONCURRENCY, defaults.maxConcurrency));
  const read = readPool(
    {
      JUDGE_ENDPOINTS: env.JUDGE_ENDPOINTS,
      JUDGE_BASE_URL: env.JUDGE_BASE_URL,
      JUDGE_MODEL: env.JUDGE_MODEL,
      JUDGE_API_KEY: env.JUDGE_API_KEY,
      maxConcurrency: endpointCap,
    },
    env as unknown as Record<string, unknown>,
  );
  const pool = read.pool ?? null;
  // the pool's capacity is what admission and an object's own cap count against
  const maxConcurrency = pool?.capacity ?? endpointCap;
  return {
    pool,
    poolError: read.error ?? null,
    poolErrorDetail: read.detail ?? null,
    judge: {
      timeoutMs: positive(env.JUDGE_TIMEOUT_MS, defaults.timeoutMs),
      deadlineMs: positive(env.JUDGE_DEADLINE_MS, defaults.deadlineMs),
      retryBaseMs: positive(env.JUDGE_RETRY_BASE_MS, defaults.retryBaseMs),
      retryCapMs: positive(env.JUDGE_RETRY_CAP_MS, defaults.retryCapMs),
      maxTokens: positive(env.JUDGE_MAX_TOKENS, defaults.maxTokens),
      stream: env.JUDGE_STREAM !== "false",
      headersTimeoutMs: positive(env.JUDGE_HEADERS_TIMEOUT_MS, 0) || undefined,
      stallTimeoutMs: positive(env.JUDGE_STALL_TIMEOUT_MS, 0) || undefined,
    },
    parseAttempts: positive(env.JUDGE_PARSE_ATTEMPTS, defaults.parseAttempts),
    watchdogMs: positive(env.TOURNAMENT_WATCHDOG_MS, defaults.watchdogMs),
    maxConcurrency,
    // streamed calls stop waiting for headers at once, so the object's own cap is no longer the
    // platform's six: by default it is the endpoint's, and the six apply to headers (WAITING_FOR_HEADERS)
    maxInFlight: Math.floor(positive(env.JUDGE_MAX_IN_FLIGHT, maxConcurrency)),
    waitingForHeaders: env.WAITING_FOR_HEADERS === "0" ? 0 : Math.floor(positive(env.WAITING_FOR_HEADERS, defaults.waitingForHeaders)),
    // unset or not a positive number: derived from the concurrency, like every setting's default
    maxRunning: runningLimit(maxConcurrency, positive(env.JUDGE_MAX_RUNNING, 0) || undefined),
    structuredOutputs: env.JUDGE_STRUCTURED_OUTPUTS === "true",
    judgePriority: env.JUDGE_PRIORITY === "true",
    rateLimitPerMinute: positive(env.RATE_LIMIT_PER_MINUTE, 0),
    streamKeyCheckMs: positive(env.STREAM_KEY_CHECK_MS, defaultKeyCheckMs),
    liveReadBudget:
      env.LIVE_READ_BYTES_PER_S === "0"
        ? null
        : {
            bytesPerSecond: positive(env.LIVE_READ_BYTES_PER_S, defaults.liveReadBytesPerSecond),
            burstBytes: positive(env.LIVE_READ_BURST_BYTES, defaults.liveReadBurstBytes),
          },
    allowInsecureWebhooks: env.ALLOW_INSECURE_WEBHOOKS === "true",
    webhookRetry: {
      baseMs: positive(env.WEBHOOK_RETRY_BASE_MS, defaultRetryPolicy.baseMs),
      capMs: positive(env.WEBHOOK_RETRY_CAP_MS, defaultRetryPolicy.capMs),
      windowMs: positive(env.WEBHOOK_RETRY_WINDOW_MS, defaultRetryPolicy.windowMs),
    },
    webhookTimeoutMs: positive(env.WEBHOOK_TIMEOUT_MS, defaults.webhookTimeoutMs),
    collectionSubmit: {
      limit: positive(env.COLLECTION_SUBMIT_LIMIT, defaults.submitLimit),
      windowMs: positive(env.COLLECTION_SUBMIT_WINDOW_S, defaults.submitWindowSeconds) * 1000,
    },
    collectionGrading: { ...defaultGradingRetry, deadlineMs: positive(env.COLLECTION_GRADING_DEADLINE_MS, defaultGradingRetry.deadlineMs) },
    retireAfterMs: positive(env.TOURNAMENT_RETIRE_MS, 0),
    liveGraceMs: nonNegative(env.TOURNAMENT_LIVE_GRACE_MS, 5_000),
    ltiJwksCooldownMs: positive(env.LTI_JWKS_COOLDOWN_MS, defaults.ltiJwksCooldownMs),
    ltiLoginsPerMinute: positive(env.LTI_LOGINS_PER_MINUTE, defaults.ltiLoginsPerMinute),
    ltiRosterWaitMs: positive(env.LTI_ROSTER_WAIT_MS, defaults.ltiRosterWaitMs),
    adminToken: env.ADMIN_TOKEN || undefined,
  };
}

/** A number of 0 or more, or the fallback when the variable is unset, empty or not such a number. */
function nonNegative(value: string | undefined, fallback: number): number {
  return numberOr(value, fallback, (n) => n >= 0);
}

/** A positive number, or the fallback when the variable is unset, empty or not a positive number. */
function positive(value: string | undefined, fallback: number): number {
  return numberOr(value, fallback, (n) => n > 0);
}

/** The variable as a finite number that `accepts`, or the fallback when it is unset, empty or not one. */
function numberOr(value: string | undefined, fallback: number, accepts: (n: number) => boolean): number {
  const n = Number(value);
  return value !== undefined && value !== "" && Number.isFinite(n) && accepts(n) ? n : fallback;
}
