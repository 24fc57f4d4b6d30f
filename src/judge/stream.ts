import { spellsText, type TokenLogprob } from "./expected";

/**
 * A streamed chat completion read as it arrives: vLLM's and OpenAI's server-sent `chat.completion.chunk`
 * events, each `data: {json}` (the reply's text and, when asked, its tokens' logprobs, in pieces), an
 * optional last chunk with `usage` (`stream_options.include_usage`), then `data: [DONE]`. Pure: the
 * client feeds it text as it is decoded (a chunk may end anywhere, inside a line or an event) and asks
 * for the completion at the end.
 */
export interface StreamedCompletion {
  text: string;
  /** Every chunk's `choices[0].logprobs.content`, in order; null when no chunk carried any. */
  logprobs: TokenLogprob[] | null;
  promptTokens: number;
  completionTokens: number;
  /** `[DONE]` came, or a chunk with a finish_reason: a stream cut before that is not a reply. */
  finished: boolean;
  /** The chunks' `model` and `system_fingerprint` (the last one given); null when none said. */
  model: string | null;
  revision: string | null;
}

/**
 * One chunk's token probabilities: parsed (`tokens`), or, where the chunk could be split without parsing
 * them, its text and their JSON as sent (`raw`), parsed at the end only where they can matter.
 */
type ChunkLogprobs = { tokens: TokenLogprob[] } | { content: string; raw: string; data: string };

/** Where a chunk's `logprobs` value starts, and what can follow it: the finish reason, or the choice's end. */
const LOGPROBS_FIELD = ',"logprobs":';
const LOGPROBS_KEY = `${LOGPROBS_FIELD}{"content":[`;
const THEN_FINISH = ',"finish_reason":';
const THEN_CHOICE_END = "}}]";

export class CompletionStream {
  private buffer = "";
  private text = "";
  private logprobs: ChunkLogprobs[] | null = null;
  private promptTokens = 0;
  private completionTokens = 0;
  private finishReason: string | null = null;
  private done = false;
  private model: string | null = null;
  private revision: string | null = null;
  /** Set when the endpoint sent an error event in the stream (vLLM does when generation fails mid-way). */
  error: string | null = null;

  /** Takes the next piece of the decoded body. */
  push(piece: string): void {
    // a reasoning judge sends hundreds of events a call: the buffer is cut once per piece, not per event
    this.buffer += piece.includes("\r") ? piece.replace(/\r\n?/g, "\n") : piece;
    let from = 0;
    for (let cut = this.buffer.indexOf("\n\n"); cut >= 0; cut = this.buffer.indexOf("\n\n", from)) {
      this.event(this.buffer.slice(from, cut));
      from = cut + 2;
    }
    if (from > 0) this.buffer = this.buffer.slice(from);
  }

  /** How many characters of reply have come so far (for a viewer of the judge's words). */
  get textSoFar(): string {
    return this.text;
  }

  result(): StreamedCompletion {
    // a last event without its blank line still counts: some servers end the body right after [DONE]
    if (this.buffer.trim()) {
      this.event(this.buffer);
      this.buffer = "";
    }
    return {
      text: this.text,
      logprobs: this.logprobs && this.tokens(this.logprobs),
      promptTokens: this.promptTokens,
      completionTokens: this.completionTokens,
      finished: this.done || this.finishReason !== null,
      model: this.model,
      revision: this.revision,
    };
  }

  private event(block: string): void {
    // the usual event is one `data: ` line; only others are taken apart line by line
    const data =
      block.startsWith("data: ") && !block.includes("\n")
        ? block.slice(6)
        : block
            .split("\n")
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).replace(/^ /, ""))
            .join("\n");
    if (!data) return; // a comment (": keep-alive") or an event without data
    if (data.trim() === "[DONE]") {
      this.done = true;
      return;
    }
    let chunk: {
      choices?: {
        delta?: { content?: string | null };
        logprobs?: { content?: TokenLogprob[] | null } | null;
        finish_reason?: string | null;
      }[];
      usage?: { prompt_tokens?: number; completion_tokens?: number } | null;
      error?: { message?: string } | string;
      model?: unknown;
      system_fingerprint?: unknown;
    };
    let split = splitLogprobs(data);
    try {
      chunk = JSON.parse(split ? split.rest : data);
    } catch {
      try {
        // a cut that left no JSON was a shape the cut misread: the chunk whole, as it was sent
        if (!split) throw new Error("malformed");
        split = null;
        chunk = JSON.parse(data);
      } catch {
        this.error ??= `malformed chunk: ${data.slice(0, 120)}`;
        return;
      }
    }
    if (chunk.error) {
      this.error ??= typeof chunk.error === "string" ? chunk.error : (chunk.error.message ?? "error event");
      return;
    }
    if (typeof chunk.model === "string" && chunk.model) this.model = chunk.model;
    if (typeof chunk.system_fingerprint === "string" && chunk.system_fingerprint) this.revision = chunk.system_fingerprint;
    const choice = chunk.choices?.[0];
    if (choice) {
      const content = typeof choice.delta?.content === "string" ? choice.delta.content : "";
      this.text += content;
      const tokens = choice.logprobs?.content;
      const kept: ChunkLogprobs | null = split ? { content, raw: split.raw, data } : Array.isArray(tokens) ? { tokens } : null;
      if (kept) {
        this.logprobs ??= [];
        this.logprobs.push(kept);
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    if (chunk.usage) {
      this.promptTokens = chunk.usage.prompt_tokens ?? this.promptTokens;
      this.completionTokens = chunk.usage.completion_tokens ?? this.completionTokens;
    }
  }

  /**
   * The reply's token probabilities, as `expectedScores` reads them. Only a token that writes a digit
   * can be read as a score (src/judge/expected.ts reads the tokens over a score's integer digits), so
   * only the chunks whose text, or one of whose tokens, has a digit have their probabilities parsed;
   * every other chunk stands as one token that is its text. When a parsed chunk's tokens do not spell
   * its text, the offsets of the tokens after it could differ from the judge's: every chunk is parsed
   * then, as sent. A reasoning judge sends a chunk a token, each with 20 alternatives, so this leaves
   * most of a reply's bytes unparsed (issue 29); a chunk's probabilities that are never parsed are never
   * checked either, and a malformed one goes unnoticed where it could not have changed a score.
   */
  private tokens(chunks: readonly ChunkLogprobs[]): TokenLogprob[] | null {
    const out: TokenLogprob[] = [];
    for (const chunk of chunks) {
      if ("tokens" in chunk) {
        for (const t of chunk.tokens) out.push(t);
        continue;
      }
      if (!/[0-9]/.test(chunk.content) && !writesDigit(chunk.raw)) {
        if (chunk.content) out.push({ token: chunk.content, logprob: 0, top_logprobs: [] });
        continue;
      }
      const parsed = parsedTokens(chunk);
      if (!parsed || !spellsText(chunk.content, parsed)) return this.allTokens(chunks);
      for (const t of parsed) out.push(t);
    }
    return out;
  }

  /** Every chunk's token probabilities parsed; null when one cannot be, and the call says why. */
  private allTokens(chunks: readonly ChunkLogprobs[]): TokenLogprob[] | null {
    const out: TokenLogprob[] = [];
    for (const chunk of chunks) {
      const tokens = "tokens" in chunk ? chunk.tokens : parsedTokens(chunk);
      if (!tokens) {
        this.error ??= `malformed token probabilities in a chunk: ${"raw" in chunk ? chunk.raw.slice(0, 120) : ""}`;
        return null;
      }
      for (const t of tokens) out.push(t);
    }
    return out;
  }
}

/**
 * A chunk's data cut into its `logprobs` value and the rest, without parsing either: the value runs from
 * its key to the finish reason that follows it (vLLM's and OpenAI's order), or to the choice's end (the
 * value last in the choice, as judge-sim sends it); null when neither follows it, and the chunk is
 * parsed whole. A JSON string cannot hold an unescaped quote, so the keys found are keys, never text
 * inside a string. Should a server put another field between them, the cut is wrong but nothing is
 * lost: a rest that does not parse has the chunk parsed whole, and a value that does not parse is read
 * from the whole chunk (`parsedTokens`).
 */
export function splitLogprobs(data: string): { rest: string; raw: string } | null {
  const start = data.indexOf(LOGPROBS_KEY);
  if (start < 0) return null;
  const finish = data.lastIndexOf(THEN_FINISH);
  const choiceEnd = data.lastIndexOf(THEN_CHOICE_END);
  const end = finish > start ? finish : choiceEnd > start ? choiceEnd + 1 : -1;
  if (end < 0) return null;
  return { rest: data.slice(0, start) + data.slice(end), raw: data.slice(start + LOGPROBS_FIELD.length, end) };
}

/**
 * Whether any token in a chunk's raw probabilities (written or an alternative) has a digit: such a
 * chunk is parsed even when its text has none, so a judge that sends a token's probabilities with
 * another chunk's text is read as it was sent (its tokens then do not spell the text: every chunk is parsed).
 */
export function writesDigit(raw: string): boolean {
  return TOKEN_WITH_DIGIT.test(raw);
}

/** A `"token"` string with a digit in it: escapes stepped over whole (a \\u's hex digits may read as digits: parsed, no harm). */
const TOKEN_WITH_DIGIT = /"token":"(?:[^"\\0-9]|\\.)*[0-9]/;

/** A cut chunk's token probabilities: from its raw value, else from the whole chunk; null when neither has them. */
function parsedTokens(chunk: { raw: string; data: string }): TokenLogprob[] | null {
  for (const read of [() => JSON.parse(chunk.raw), () => JSON.parse(chunk.data)?.choices?.[0]?.logprobs]) {
    try {
      const value = read() as { content?: unknown } | null;
      if (Array.isArray(value?.content)) return value.content as TokenLogprob[];
    } catch {
      // not JSON: the next reading
    }
  }
  return null;
}
