import { backoffDelay } from "./backoff";
import type { TokenLogprob } from "./expected";
import { CompletionStream } from "./stream";
import type { ChatMessage } from "./prompts";
import { bodyReader } from "./body-pieces";

/** Where the judge is and how to treat it. Knows the OpenAI wire format and vLLM, nothing of tournaments. */
export interface JudgeConfig {
  /** e.g. http://127.0.0.1:8000/v1 */
  baseUrl: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
  /**
   * How long a call keeps being retried after it first failed: a judge that is down for minutes leaves
   * the call waiting (with backoff) rather than failed; past this the call fails with a clear error.
   */
  deadlineMs: number;
  retryBaseMs: number;
  retryCapMs: number;
  maxTokens: number;
  /**
   * Ask for the reply as a stream (`stream: true`): vLLM sends the headers at once, while the request
   * still waits for a GPU slot, so it stops counting against Cloudflare's six connections waiting for
   * headers. Absent or false: one JSON reply (JUDGE_STREAM=false, for endpoints that cannot stream).
   */
  stream?: boolean;
  /** Time to the response headers (default `timeoutMs`). */
  headersTimeoutMs?: number;
  /** Streamed: the longest silence between two chunks before the generation counts as stalled (default `timeoutMs`). */
  stallTimeoutMs?: number;
}

export interface CompletionRequest {
  messages: ChatMessage[];
  temperature: number;
  /** A JSON schema for structured outputs, where the endpoint supports them. */
  jsonSchema?: { name: string; schema: object };
  /** Ask for the token probabilities, with this many alternatives per token (OpenAI allows up to 20). */
  logprobs?: { top: number };
  /** vLLM's scheduling priority (lower first), sent only when JUDGE_PRIORITY=true. */
  priority?: number;
  /** The sampling seed (./call-seed): the same request with the same seed samples the same reply. */
  seed?: number;
}

export interface Completion {
  text: string;
  /** `choices[0].logprobs.content` when asked for and given, else null. */
  logprobs: TokenLogprob[] | null;
  promptTokens: number;
  completionTokens: number;
  /** The model the judge says answered (the reply's `model`); null when it did not say. */
  model: string | null;
  /**
   * The model's revision as the endpoint reports it: OpenAI's `system_fingerprint` (the backend's
   * configuration). vLLM sends none, and then this is null: the model's name is all that is known.
   */
  revision: string | null;
}

/**
 * Where one attempt is sent: an endpoint of the judge pool, chosen when its permit is granted, and the
 * model asked there when the gate chose it (a panel's judge: see `JudgeRoute`).
 */
export interface JudgeTarget {
  url: string;
  apiKey?: string;
  model?: string;
}

/**
 * The models a call may be asked of, first preferred (a panel: issue 30), and, in "all", the panel's
 * other judges: while one of them is up, a judge that is down is skipped (JudgeSkipped) rather than
 * waited for.
 */
export interface JudgeRoute {
  models: readonly string[];
  skipIfDown?: readonly string[];
}

/**
 * The least a read of a streamed reply waits for (./body-pieces) while a viewer may watch: about ten of
 * a judge's events without token probabilities, so a live viewer still sees the words come a few at a
 * time (4 KB halved the CPU at 150 tokens, but a short reply then came to a viewer whole, at its end).
 */
export const STREAM_READ_BYTES = 1024;

/**
 * The same with token probabilities asked for: a real judge's event then carries 20 alternatives, about
 * 1.5 KB, so this is about five tokens (1 KB would wake the isolate for every one).
 */
export const LOGPROBS_READ_BYTES = 8 * 1024;

/**
 * The least a read waits for while no one watches the judge's words: a reasoning judge's whole reply
 * in a few reads (about 1.5 KB a token with 20 alternatives each). A viewer who comes mid-call gets the
 * words in small reads again from the next read on (the Tournament object counts the first seconds of
 * a run as watched, for the page that posted it: TOURNAMENT_LIVE_GRACE_MS).
 */
export const QUIET_READ_BYTES = 32 * 1024;

/** A failed call; `retryable` says whether the same request may succeed later. */
export class JudgeError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = "JudgeError";
  }
}

/** The call's judge is down while another judge of its panel is up: the call is not sent, and not retried. */
export class JudgeSkipped extends JudgeError {
  constructor(readonly model: string) {
    super(`the judge ${model} is down`, false);
    this.name = "JudgeSkipped";
  }
}

/**
 * Whether a failed attempt says its endpoint is unwell (connection refused or broken, timeouts and
 * stalls, 5xx, a broken body): what opens its circuit. A 429 is a busy server, a 4xx a bad request,
 * a cancellation is ours: none of these says anything of the endpoint's health.
 */
export function isEndpointFault(err: unknown): boolean {
  return err instanceof JudgeError && err.retryable && err.status !== 429;
}

/**
 * One chat completion, abandoned after `timeoutMs`. It settles only once its connection is gone (its
 * reply read to the end, or the request aborted and closed), so a permit held around it goes back only
 * when the judge no longer counts the request as open.
 */
export async function complete(
  config: JudgeConfig,
  request: CompletionRequest,
  signal?: AbortSignal,
  fetcher: (input: string, init: RequestInit) => Promise<Response> = fetch,
  onText?: (textSoFar: string) => void,
  watched?: () => boolean,
): Promise<Completion> {
  const body: Record<string, unknown> = {
    model: config.model,
    messages: request.messages,
    temperature: request.temperature,
    max_tokens: config.maxTokens,
  };
  if (request.jsonSchema) body.response_format = { type: "json_schema", json_schema: request.jsonSchema };
  if (request.logprobs) {
    body.logprobs = true;
    body.top_logprobs = request.logprobs.top;
  }
  if (request.priority !== undefined) body.priority = request.priority;
  if (request.seed !== undefined) body.seed = request.seed;
  if (config.stream) {
    body.stream = true;
    body.stream_options = { include_usage: true };
  }
  const timeout = AbortSignal.timeout(config.timeoutMs);
  // our own clocks (headers, stalls) abort through this one, so the error can say which ran out
  const watch = new AbortController();
  let stalled = "";
  const giveUp = (why: string) => {
    stalled = why;
    watch.abort();
  };
  const headersMs = config.headersTimeoutMs ?? config.timeoutMs;
  let clock: ReturnType<typeof setTimeout> | undefined =
    headersMs < config.timeoutMs ? setTimeout(() => giveUp(`judge sent no response headers within ${headersMs} ms`), headersMs) : undefined;
  const signals = [timeout, watch.signal, ...(signal ? [signal] : [])];
  const failure = (err: unknown, what: string) => {
    if (signal?.aborted) return new JudgeError("judge call cancelled", false);
    if (timeout.aborted) return new JudgeError(`judge did not answer within ${config.timeoutMs} ms`, true);
    if (stalled) return new JudgeError(stalled, true);
    return new JudgeError(`${what}: ${(err as Error).message}`, true);
  };
  let response: Response;
  try {
    response = await fetcher(`${trimSlash(config.baseUrl)}/chat/completions`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal: AbortSignal.any(signals),
    });
  } catch (err) {
    clearTimeout(clock);
    await connectionClosed();
    throw failure(err, "judge unreachable");
  }
  clearTimeout(clock);
  if (config.stream && response.ok && /^text\/event-stream/i.test(response.headers.get("content-type") ?? "")) {
    const stream = new CompletionStream();
    const stallMs = config.stallTimeoutMs ?? config.timeoutMs;
    // One clock per call, not one per chunk: a part only notes when it came, and the clock, when it
    // rings, gives up if the silence has lasted stallMs or sleeps until it would have. Clearing and
    // setting a timer for each of a reasoning judge's hundreds of chunks was a tenth of the service's CPU.
    let lastPart = 0;
    const watchSilence = (ms: number) => {
      clock = setTimeout(() => {
        const quiet = Date.now() - lastPart;
        if (quiet >= stallMs) giveUp(`judge stalled: no part of its reply for ${stallMs} ms`);
        else watchSilence(stallMs - quiet);
      }, ms);
    };
    try {
      // read and decoded here rather than through pipeThrough(TextDecoderStream): a connection that
      // breaks mid-reply would also reject the pipe's own promise, which no one can await. In pieces
      // of STREAM_READ_BYTES or more (LOGPROBS_READ_BYTES with token probabilities; QUIET_READ_BYTES
      // while `watched` says no one reads the words), unless a stall clock shorter than the call's time
      // is set: a slow judge's silence is then told only piece by piece, so each is read as it comes
      const viewed = request.logprobs ? LOGPROBS_READ_BYTES : STREAM_READ_BYTES;
      const readBytes = watched ? () => (watched() ? viewed : QUIET_READ_BYTES) : viewed;
      const reader = bodyReader(response.body!, stallMs < config.timeoutMs ? 1 : readBytes);
      const decoder = new TextDecoder();
      // the wait for the first part is the wait for a GPU slot (vLLM sends the headers before it has
      // one): the call's whole time bounds it; a stall is silence once the judge has begun
      for (;;) {
        const value = await reader.next();
        if (value === null) break;
        if (lastPart === 0) watchSilence(stallMs);
        lastPart = Date.now();
        stream.push(decoder.decode(value, { stream: true }));
        onText?.(stream.textSoFar);
      }
      const rest = decoder.decode();
      if (rest) stream.push(rest);
    } catch (err) {
      await connectionClosed();
      throw failure(err, "judge reply broke off");
    } finally {
      clearTimeout(clock);
    }
    // the result first: its token probabilities are parsed there, and a malformed one is an error too
    const streamed = stream.result();
    if (stream.error) throw new JudgeError(`judge failed mid-reply: ${stream.error}`, true, response.status);
    // a stream cut before its last chunk is a connection that broke, not a reply: asked again
    if (!streamed.finished) throw new JudgeError("judge reply broke off: the stream ended before its last chunk", true, response.status);
    return {
      text: streamed.text,
      logprobs: request.logprobs ? streamed.logprobs : null,
      promptTokens: streamed.promptTokens,
      completionTokens: streamed.completionTokens,
      model: streamed.model,
      revision: streamed.revision,
    };
  }
  let text: string;
  try {
    text = await response.text();
  } catch (err) {
    // the body can time out or drop after the headers arrived
    await connectionClosed();
    throw new JudgeError(`judge reply broke off: ${(err as Error).message}`, true, response.status);
  }
  if (!response.ok) {
    // vLLM: 5xx when the engine fails, 4xx for a request it will never accept (bad model, bad body)
    const retryable = response.status >= 500 || response.status === 429 || response.status === 408;
    throw new JudgeError(`judge answered ${response.status}: ${text.slice(0, 300)}`, retryable, response.status);
  }
  let json: {
    choices?: { message?: { content?: string | null }; logprobs?: { content?: TokenLogprob[] | null } | null }[];
    usage?: { prompt_tokens?: number; completion_tokens?: number };
    model?: unknown;
    system_fingerprint?: unknown;
  };
  try {
    json = JSON.parse(text);
  } catch {
    // a proxy or a dying server can answer 200 with a broken body; the same request may well succeed
    throw new JudgeError(`judge answered with malformed JSON: ${text.slice(0, 200)}`, true, response.status);
  }
  const content = json.choices?.[0]?.message?.content;
  if (typeof content !== "string") throw new JudgeError("judge reply has no message content", true, response.status);
  const logprobs = json.choices?.[0]?.logprobs?.content;
  return {
    text: content,
    logprobs: request.logprobs && Array.isArray(logprobs) ? logprobs : null,
    promptTokens: json.usage?.prompt_tokens ?? 0,
    completionTokens: json.usage?.completion_tokens ?? 0,
    model: typeof json.model === "string" && json.model ? json.model : null,
    revision: typeof json.system_fingerprint === "string" && json.system_fingerprint ? json.system_fingerprint : null,
  };
}

/**
 * `complete`, retried on connection errors, timeouts and 5xx with capped exponential backoff and full
 * jitter until `deadlineMs` has passed since the call first failed; other 4xx are final at once. The
 * deadline counts from the first failure, not from the call's start, so a call that waited long in the
 * judge's queue and then timed out still gets its full window of retries. `onRetry` is told of each
 * retry so the caller can count it. `now` and `sleep` are injectable for tests of the loop itself.
 */
export async function completeWithRetry(
  config: JudgeConfig,
  request: CompletionRequest,
  options: {
    signal?: AbortSignal;
    onRetry?: (error: JudgeError, attempt: number) => void;
    /**
     * Wraps each attempt (not the backoff between them): where the caller holds a permit to call the
     * judge, and picks the endpoint it goes to (null: `config`'s own). `avoid` is the endpoint the last
     * attempt failed on, for a retry to go elsewhere when it can.
     */
    around?: <T>(attempt: (target: JudgeTarget | null) => Promise<T>, avoid?: string, route?: JudgeRoute) => Promise<T>;
    /** The models the call may be asked of (a panel), for `around` to route by. */
    route?: JudgeRoute;
    /** The fetch to send with: the caller's, under the platform's rule on connections (./connections). */
    fetch?: (input: string, init: RequestInit) => Promise<Response>;
    /** Streamed: the reply's text so far, as it is generated. */
    onText?: (textSoFar: string) => void;
    /** Streamed: whether anyone watches the words now; while no one does, the reply is read in larger pieces. */
    watched?: () => boolean;
    /**
     * The judge is a pool of several endpoints: a call that fails at an endpoint it has not failed at
     * before is sent again at once (`around` sends it elsewhere), since the wait is for that server to
     * recover and the others need no such wait; a second failure at one endpoint backs off as usual.
     */
    pooled?: boolean;
    now?: () => number;
    sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  } = {},
): Promise<Completion & { endpoint: string | null; asked: string }> {
  const around = options.around ?? ((attempt) => attempt(null));
  const now = options.now ?? Date.now;
  const pause = options.sleep ?? sleep;
  let firstFailure: number | null = null;
  let sentTo: string | undefined;
  const failedAt = new Set<string>();
  for (let attempt = 1; ; attempt++) {
    const avoid = sentTo;
    try {
      return await around(
        async (target) => {
          sentTo = target?.url;
          const to = target ? { ...config, baseUrl: target.url, apiKey: target.apiKey, model: target.model ?? config.model } : config;
          const completion = await complete(to, request, options.signal, options.fetch, options.onText, options.watched);
          return { ...completion, endpoint: target?.url ?? null, asked: to.model };
        },
        avoid,
        options.route,
      );
    } catch (err) {
      if (err instanceof JudgeSkipped) throw err;
      const error = err instanceof JudgeError ? err : new JudgeError(String(err), true);
      const plural = `${attempt} attempt${attempt > 1 ? "s" : ""}`;
      if (!error.retryable) throw new JudgeError(`${error.message} (after ${plural})`, false, error.status);
      firstFailure ??= now();
      const elsewhere = options.pooled === true && sentTo !== undefined && !failedAt.has(sentTo);
      if (sentTo !== undefined) failedAt.add(sentTo);
      const delay = elsewhere ? 0 : backoffDelay(attempt, config.retryBaseMs, config.retryCapMs);
      const waited = now() - firstFailure;
      if (waited + delay > config.deadlineMs) {
        throw new JudgeError(
          `the judge kept failing for ${Math.round(waited / 1000)} s (${plural}; JUDGE_DEADLINE_MS is ${config.deadlineMs}); last error: ${error.message}`,
          true,
          error.status,
        );
      }
      options.onRetry?.(error, attempt);
      await pause(delay, options.signal);
    }
  }
}

/**
 * An aborted fetch rejects at once, but the runtime closes its connection only when its event loop
 * next runs; until then the judge still has the request open. One timer turn lets the close go out.
 */
function connectionClosed(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new JudgeError("judge call cancelled", false));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(new JudgeError("judge call cancelled", false));
    });
  });
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}
