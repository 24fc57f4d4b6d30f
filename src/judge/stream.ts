import type { TokenLogprob } from "./expected";

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

export class CompletionStream {
  private buffer = "";
  private text = "";
  private logprobs: TokenLogprob[] | null = null;
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
      logprobs: this.logprobs,
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
    try {
      chunk = JSON.parse(data);
    } catch {
      this.error ??= `malformed chunk: ${data.slice(0, 120)}`;
      return;
    }
    if (chunk.error) {
      this.error ??= typeof chunk.error === "string" ? chunk.error : (chunk.error.message ?? "error event");
      return;
    }
    if (typeof chunk.model === "string" && chunk.model) this.model = chunk.model;
    if (typeof chunk.system_fingerprint === "string" && chunk.system_fingerprint) this.revision = chunk.system_fingerprint;
    const choice = chunk.choices?.[0];
    if (choice) {
      if (typeof choice.delta?.content === "string") this.text += choice.delta.content;
      const tokens = choice.logprobs?.content;
      // appended in place: copying the list at every chunk made a reply of n tokens cost n² / 2 copies
      if (Array.isArray(tokens)) {
        this.logprobs ??= [];
        for (const t of tokens) this.logprobs.push(t);
      }
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    if (chunk.usage) {
      this.promptTokens = chunk.usage.prompt_tokens ?? this.promptTokens;
      this.completionTokens = chunk.usage.completion_tokens ?? this.completionTokens;
    }
  }
}
