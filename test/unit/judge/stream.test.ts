import { describe, expect, it } from "vitest";
import { expectedScores, type ScoreScale, type TokenLogprob } from "../../../src/judge/expected";
import { CompletionStream, splitLogprobs, writesDigit } from "../../../src/judge/stream";
import { seededRandom } from "../../../src/random/seeded";

const chunk = (content: string, extra: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content }, ...extra }] })}\n\n`;

const body = [
  ": keep-alive\n\n",
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: "assistant", content: "" } }] })}\n\n`,
  chunk("Explanation: fine. Answer 1: ", { logprobs: { content: [{ token: "Explanation", logprob: 0, top_logprobs: [] }] } }),
  chunk("3.5/5 Answer 2: 4/5", { logprobs: { content: [{ token: "3", logprob: -0.1, top_logprobs: [{ token: "3", logprob: -0.1 }] }] } }),
  chunk("", { finish_reason: "stop" }),
  `data: ${JSON.stringify({ choices: [], usage: { prompt_tokens: 120, completion_tokens: 14 } })}\n\n`,
  "data: [DONE]\n\n",
].join("");

describe("a streamed chat completion", () => {
  it("gathers the text, the logprobs in order and the usage, however the body is cut", () => {
    const random = seededRandom(3).next;
    for (let t = 0; t < 200; t++) {
      const stream = new CompletionStream();
      let at = 0;
      while (at < body.length) {
        const next = Math.min(body.length, at + 1 + Math.floor(random() * 40));
        stream.push(body.slice(at, next));
        at = next;
      }
      const r = stream.result();
      expect(r.text).toBe("Explanation: fine. Answer 1: 3.5/5 Answer 2: 4/5");
      expect(r.logprobs?.map((l) => l.token)).toEqual(["Explanation", "3"]);
      expect(r).toMatchObject({ promptTokens: 120, completionTokens: 14, finished: true });
      expect(stream.error).toBeNull();
    }
  });

  it("is not finished when the stream is cut before its end", () => {
    const stream = new CompletionStream();
    stream.push(chunk("Answer 1: 3"));
    expect(stream.result()).toMatchObject({ text: "Answer 1: 3", finished: false, logprobs: null });
  });

  it("takes CRLF line ends, a [DONE] without its blank line, and reports an error event", () => {
    const stream = new CompletionStream();
    stream.push(chunk("ok").replace(/\n/g, "\r\n"));
    stream.push("data: [DONE]");
    expect(stream.result()).toMatchObject({ text: "ok", finished: true });
    const failed = new CompletionStream();
    failed.push(`data: ${JSON.stringify({ error: { message: "engine died" } })}\n\n`);
    expect(failed.error).toBe("engine died");
  });
});

describe("a streamed reply's token probabilities", () => {
  const encoder = new TextEncoder();
  const exam5: ScoreScale = { template: "exam", maxScore: 5, step: 0.5 };
  const WORDS = ["the", "answer", "states", "step", "2", "of", "3", "Ünïcödé", "二分", "🎓", "is", "missing", "O(log n)", "10%"];

  /** A judge's reply as tokens, each with 20 alternatives (digits where it writes digits); some characters cut into bytes. */
  function judgedReply(random: () => number) {
    const words = Array.from({ length: 5 + Math.floor(random() * 40) }, () => WORDS[Math.floor(random() * WORDS.length)]);
    const [x, y] = [Math.floor(random() * 11) / 2, Math.floor(random() * 11) / 2];
    const text = `${words.join(" ")}\nExplanation: fine. Answer 1: ${x}/5 Answer 2: ${y}/5`;
    const tokens: TokenLogprob[] = [];
    for (const piece of text.match(/\d|[A-Za-z\u00C0-\u024F]+|\s+|[^\sA-Za-z\d]/gu) ?? []) {
      const bytes = [...encoder.encode(piece)];
      // a multi-byte character is sometimes two tokens, cut inside it, as byte-level tokenizers do
      const cuts = bytes.length > 1 && random() < 0.5 ? [bytes.slice(0, 1), bytes.slice(1)] : [bytes];
      for (const b of cuts) {
        const token = new TextDecoder().decode(Uint8Array.from(b));
        const alternatives = Array.from({ length: 20 }, (_, k) => {
          const alt = /\d/.test(piece) ? String(k % 6) : `${piece}${String.fromCharCode(97 + k)}`;
          return { token: alt, logprob: -k - random(), bytes: [...encoder.encode(alt)] };
        });
        tokens.push({ token, logprob: -random(), bytes: b, top_logprobs: alternatives });
      }
    }
    return { text, tokens };
  }

  /** The reply streamed as vLLM does: a chunk per token or a few, each with the text decoded so far, in either key order. */
  function streamed(reply: ReturnType<typeof judgedReply>, random: () => number, vllmOrder: boolean): string {
    const decoder = new TextDecoder();
    const events: string[] = [];
    for (let i = 0; i < reply.tokens.length; ) {
      const n = 1 + Math.floor(random() * (random() < 0.8 ? 1 : 3));
      const group = reply.tokens.slice(i, i + n);
      i += n;
      const content = decoder.decode(Uint8Array.from(group.flatMap((t) => t.bytes!)), { stream: true });
      const last = i >= reply.tokens.length;
      const logprobs = { content: group };
      const choice = vllmOrder
        ? { index: 0, delta: { content }, logprobs, finish_reason: last ? "stop" : null, stop_reason: null }
        : { index: 0, delta: { content }, finish_reason: last ? "stop" : null, logprobs };
      events.push(`data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", model: "m", choices: [choice] })}\n\n`);
    }
    return `${events.join("")}data: [DONE]\n\n`;
  }

  it("give the same expected scores as every chunk's parsed, though only chunks with digits are parsed", () => {
    const random = seededRandom(11).next;
    let read = 0;
    for (let t = 0; t < 120; t++) {
      const reply = judgedReply(random);
      const whole = expectedScores(reply.text, reply.tokens, exam5, "pairwise");
      for (const vllmOrder of [true, false]) {
        const stream = new CompletionStream();
        const body = streamed(reply, random, vllmOrder);
        for (let at = 0; at < body.length; at += 700) stream.push(body.slice(at, at + 700));
        const r = stream.result();
        expect(stream.error).toBeNull();
        expect(r.text).toBe(reply.text);
        expect(expectedScores(r.text, r.logprobs, exam5, "pairwise")).toEqual(whole);
      }
      if (whole) read++;
    }
    expect(read).toBeGreaterThan(100);
  });

  it("are read as sent when a judge sends a token's probabilities with another chunk's text", () => {
    const random = seededRandom(12).next;
    for (let t = 0; t < 20; t++) {
      const reply = judgedReply(random);
      const whole = expectedScores(reply.text, reply.tokens, exam5, "pairwise");
      // the text in pieces of 12 characters, every token's probabilities in the last chunk (no digit in its text)
      const pieces = reply.text.match(/[\s\S]{1,12}/gu) ?? [];
      const events = pieces.map(
        (piece, i) =>
          `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null, logprobs: i === pieces.length - 1 ? null : null }] })}\n\n`,
      );
      events.push(
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "" }, finish_reason: "stop", logprobs: { content: reply.tokens } }] })}\n\n`,
      );
      const stream = new CompletionStream();
      stream.push(events.join(""));
      const r = stream.result();
      expect(r.text).toBe(reply.text);
      expect(expectedScores(r.text, r.logprobs, exam5, "pairwise")).toEqual(whole);
    }
    expect(writesDigit('{"content":[{"token":"a","top_logprobs":[{"token":" 4","logprob":-3}]}]}')).toBe(true);
    expect(writesDigit('{"content":[{"token":"a\\"b","logprob":-0.5,"bytes":[97,34,98],"top_logprobs":[]}]}')).toBe(false);
  });

  it("cuts a chunk into its probabilities and the rest where the finish reason or the choice's end follows them, else leaves it whole", () => {
    const tokens = { content: [{ token: "4", logprob: -0.1, top_logprobs: [] }] };
    const openai = { ...tokens, refusal: null };
    const shapes = [
      // vLLM, OpenAI (a refusal inside the value), judge-sim (the value last in the choice)
      { index: 0, delta: { content: "4" }, logprobs: tokens, finish_reason: null, stop_reason: null },
      { index: 0, delta: { content: "4" }, logprobs: openai, finish_reason: null },
      { index: 0, delta: { content: "4" }, finish_reason: "stop", logprobs: tokens },
    ];
    for (const choice of shapes) {
      const data = JSON.stringify({ id: "c", choices: [choice], usage: null });
      const split = splitLogprobs(data)!;
      expect(JSON.parse(split.raw)).toEqual(choice.logprobs);
      const { logprobs: _, ...rest } = choice;
      expect(JSON.parse(split.rest)).toEqual({ id: "c", choices: [rest], usage: null });
    }
    // the value first in the choice, or no probabilities: parsed whole
    expect(splitLogprobs(JSON.stringify({ choices: [{ logprobs: tokens, index: 0, delta: { content: "4" } }] }))).toBeNull();
    expect(splitLogprobs(JSON.stringify({ choices: [{ index: 0, delta: { content: "4" }, logprobs: null }] }))).toBeNull();
    // a reply that quotes the keys is text inside a string: its quotes are escaped, so nothing is cut there
    const quoting = JSON.stringify({ choices: [{ index: 0, delta: { content: ',"logprobs":{"content":[ ]}}]' } }] });
    expect(splitLogprobs(quoting)).toBeNull();
  });

  it("lose nothing where a server puts another field between the probabilities and the finish reason", () => {
    const tokens = [
      { token: "Answer 1: ", logprob: 0, top_logprobs: [] },
      {
        token: "4",
        logprob: -0.2,
        top_logprobs: [
          { token: "4", logprob: -0.2 },
          { token: "3", logprob: -1.7 },
        ],
      },
      { token: "/5 Answer 2: ", logprob: 0, top_logprobs: [] },
      {
        token: "2",
        logprob: -0.1,
        top_logprobs: [
          { token: "2", logprob: -0.1 },
          { token: "1", logprob: -2.4 },
        ],
      },
      { token: "/5", logprob: 0, top_logprobs: [] },
    ];
    const text = tokens.map((t) => t.token).join("");
    const odd = (extra: unknown) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text }, logprobs: { content: tokens }, extra, finish_reason: "stop" }] })}\n\n`;
    for (const extra of [1, { list: [1] }, [{ a: {} }]]) {
      const stream = new CompletionStream();
      stream.push(odd(extra));
      const r = stream.result();
      expect(stream.error).toBeNull();
      expect(r).toMatchObject({ text, finished: true });
      expect(expectedScores(r.text, r.logprobs, exam5, "pairwise")).toEqual(expectedScores(text, tokens, exam5, "pairwise"));
    }
  });

  it("are a malformed chunk when a chunk's probabilities that must be read do not parse", () => {
    const stream = new CompletionStream();
    stream.push(
      `data: {"choices":[{"index":0,"delta":{"content":"Answer 1: 4"},"logprobs":{"content":[{"token":]},"finish_reason":null}]}\n\n`,
    );
    stream.push("data: [DONE]\n\n");
    const r = stream.result();
    expect(r.logprobs).toBeNull();
    expect(stream.error).toMatch(/^malformed token probabilities/);
  });
});
