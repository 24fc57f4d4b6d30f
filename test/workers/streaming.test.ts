import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { bodyReader } from "../../src/judge/body-pieces";
import { complete, type JudgeConfig, JudgeError, LOGPROBS_READ_BYTES, QUIET_READ_BYTES, STREAM_READ_BYTES } from "../../src/judge/client";
import { HeaderWait } from "../../src/judge/connections";
import { expectedScores } from "../../src/judge/expected";
import { judgeLog, newKey, postEvaluation, uniqueTag, waitUntilDone } from "./helpers";

const judge = (overrides: Partial<JudgeConfig> = {}): JudgeConfig => ({
  baseUrl: `http://127.0.0.1:${inject("judgePort")}/v1`,
  model: "test-judge",
  timeoutMs: 3_000,
  deadlineMs: 0,
  retryBaseMs: 1,
  retryCapMs: 1,
  maxTokens: 64,
  ...overrides,
});

const ask = (config: JudgeConfig, prompt: string, fetcher?: (input: string, init: RequestInit) => Promise<Response>) =>
  complete(config, { messages: [{ role: "user", content: prompt }], temperature: 0, logprobs: { top: 20 } }, undefined, fetcher);

async function groupStats(group: string): Promise<{ open: number; maxOpen: number; requests: number }> {
  return (await fetch(`http://127.0.0.1:${inject("judgePort")}/stats?group=${group}`)).json();
}

describe("streamed judge calls", () => {
  it("read the same reply, logprobs and usage as one JSON reply, though the chunks split inside characters and scores", async () => {
    // [echo] quotes the prompt back: its multi-byte characters are cut by the judge's few-byte writes ([drip-ms:0])
    const prompt = `Grade it. [echo] [drip-ms:0] Erklärung ✓ 😀 naïve — Answer 1: q=5.5 Answer 2: q=3 [tag:${uniqueTag("same")}]`;
    const plain = await ask(judge({ stream: false }), prompt);
    const streamed = await ask(judge({ stream: true }), prompt);
    expect(streamed.text).toBe(plain.text);
    expect(streamed.text).toContain("😀 naïve");
    expect(streamed.text).toMatch(/Answer 1: 6\/10 Answer 2: 3\/10$/);
    // the probabilities read the same scores (a chunk without digits stands as its text: src/judge/stream.ts)
    const scale = { template: "exam" as const, maxScore: 10, step: 0.5 };
    const fromPlain = expectedScores(plain.text, plain.logprobs, scale, "pairwise");
    expect(fromPlain).not.toBeNull();
    expect(expectedScores(streamed.text, streamed.logprobs, scale, "pairwise")).toEqual(fromPlain);
    expect(streamed.promptTokens).toBe(plain.promptTokens);
    expect(streamed.completionTokens).toBe(plain.completionTokens);
    expect(streamed.promptTokens).toBeGreaterThan(0);
  });

  it("are read in pieces of STREAM_READ_BYTES or more where workerd can wait for them, the same bytes as piece by piece", async () => {
    // the judge writes a few bytes at a time ([drip-ms:0]); [echo] makes the reply long
    const prompt = `Grade it. [echo] [drip-ms:0] ${"A stack is last in, first out. ".repeat(60)} Answer 1: q=5 Answer 2: q=3 [tag:${uniqueTag("pieces")}]`;
    const read = async (atLeast: number) => {
      const response = await fetch(`http://127.0.0.1:${inject("judgePort")}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: "test-judge",
          stream: true,
          logprobs: true,
          top_logprobs: 20,
          messages: [{ role: "user", content: prompt }],
        }),
      });
      const reader = bodyReader(response.body!, atLeast);
      const pieces: Uint8Array[] = [];
      for (let piece = await reader.next(); piece !== null; piece = await reader.next()) pieces.push(piece.slice());
      return pieces;
    };
    const asItComes = await read(1);
    const batched = await read(STREAM_READ_BYTES);
    const text = (pieces: Uint8Array[]) => new TextDecoder().decode(Buffer.concat(pieces));
    expect(text(batched)).toBe(text(asItComes));
    expect(text(batched).length).toBeGreaterThan(2 * STREAM_READ_BYTES);
    // every piece but the body's last is at least the least asked for: a few wakes, not hundreds
    for (const piece of batched.slice(0, -1)) expect(piece.byteLength).toBeGreaterThanOrEqual(STREAM_READ_BYTES);
    expect(asItComes.length).toBeGreaterThan(4 * batched.length);
  });

  it("are read in QUIET_READ_BYTES pieces while no one watches the words, and in small ones from the read after someone does", async () => {
    const prompt = `Grade it. [echo] [drip-ms:0] ${"A stack is last in, first out. ".repeat(400)} Answer 1: q=5 Answer 2: q=3 [tag:${uniqueTag("quiet")}]`;
    const run = async (watchedFrom: number) => {
      const texts: string[] = [];
      let reads = 0;
      const reply = await complete(
        judge({ stream: true, maxTokens: 100_000 }),
        { messages: [{ role: "user", content: prompt }], temperature: 0, logprobs: { top: 20 } },
        undefined,
        undefined,
        (text) => texts.push(text),
        () => ++reads > watchedFrom,
      );
      return { reply, texts, reads };
    };
    const quiet = await run(Number.POSITIVE_INFINITY);
    const watched = await run(0);
    const later = await run(2);
    // the same reply however it was read
    expect(quiet.reply).toEqual(watched.reply);
    expect(later.reply).toEqual(watched.reply);
    expect(quiet.reply.text.length).toBeGreaterThan(10_000);
    // unwatched, a piece is QUIET_READ_BYTES or more; watched, LOGPROBS_READ_BYTES (token probabilities asked)
    expect(QUIET_READ_BYTES).toBeGreaterThanOrEqual(4 * LOGPROBS_READ_BYTES);
    expect(quiet.texts.length).toBeGreaterThan(1);
    expect(quiet.texts.length * 2).toBeLessThan(watched.texts.length);
    // watched from the third read on: two quiet pieces, then smaller ones
    expect(later.texts.length).toBeGreaterThan(quiet.texts.length);
    expect(LOGPROBS_READ_BYTES).toBeGreaterThan(STREAM_READ_BYTES);
  });

  it("a stream that stalls after its first parts fails as stalled; one cut before its end as broken off; both may be asked again", async () => {
    const stalled = await ask(
      judge({ stream: true, stallTimeoutMs: 200 }),
      `Q [stall-once] Answer 1: q=2 Answer 2: q=4 [tag:${uniqueTag("st")}]`,
    ).catch((e: JudgeError) => e);
    expect(stalled).toBeInstanceOf(JudgeError);
    expect((stalled as JudgeError).message).toBe("judge stalled: no part of its reply for 200 ms");
    expect((stalled as JudgeError).retryable).toBe(true);
    const cut = await ask(judge({ stream: true }), `Q [cut-once] Answer 1: q=2 Answer 2: q=4 [tag:${uniqueTag("cut")}]`).catch(
      (e: JudgeError) => e,
    );
    expect((cut as JudgeError).message).toMatch(/^judge reply broke off/);
    expect((cut as JudgeError).retryable).toBe(true);
  });

  it("through the service: stalled and cut streams are retried, and the evaluation completes with every result once", async () => {
    const key = await newKey("streaming");
    for (const fault of ["stall-once", "cut-once"]) {
      const tag = uniqueTag(fault);
      const id = await postEvaluation(key, {
        question: `Explain a stack. [${fault}] [tag:${tag}]`,
        answers: [2, 6, 4].map((q, i) => ({ id: `s${i}`, text: `q=${q}` })),
      });
      const result = await waitUntilDone(id, key);
      expect(result.status).toBe("completed");
      expect(result.usage.judgeCalls).toBe(4);
      expect(result.usage.retries).toBe(4); // every call's first stream broke
      expect(result.champion).toBe("s1");
      expect((await judgeLog(tag)).length).toBe(8);
    }
  });

  it("Cloudflare's rule: six requests wait for headers at most; streamed ones free their place at once, so more are judged at once", async () => {
    const run = async (stream: boolean) => {
      const group = uniqueTag(stream ? "streamed" : "plain");
      const wait = new HeaderWait(6);
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          ask(judge({ stream }), `Q [delay:300] [group:${group}] Answer 1: q=${i % 10} Answer 2: q=1`, wait.fetch),
        ),
      );
      return (await groupStats(group)).maxOpen;
    };
    // not streamed, a request waits for its headers until its whole reply is ready: six at a time
    expect(await run(false)).toBe(6);
    // streamed, the headers come at once and the place is free again: all twelve at the judge together
    expect(await run(true)).toBe(12);
  });
});
