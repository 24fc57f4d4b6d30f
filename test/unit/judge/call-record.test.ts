import { describe, expect, it } from "vitest";
import { complete, type JudgeConfig } from "../../../src/judge/client";
import { CompletionStream } from "../../../src/judge/stream";

// What a call sends for reproducibility (its seed) and what it reads back (the model that answered and
// its revision), in both reply shapes: one JSON body and a stream of chunks.

const config: JudgeConfig = {
  baseUrl: "http://judge.test/v1",
  model: "m",
  timeoutMs: 1000,
  deadlineMs: 1000,
  retryBaseMs: 1,
  retryCapMs: 1,
  maxTokens: 77,
};

function replying(reply: unknown, sent: Record<string, unknown>[]) {
  return async (_url: string, init: RequestInit) => {
    sent.push(JSON.parse(String(init.body)));
    return new Response(JSON.stringify(reply), { status: 200, headers: { "content-type": "application/json" } });
  };
}

describe("a judge call's seed, model and revision", () => {
  it("sends the seed and max_tokens, and reads the reply's model and system_fingerprint", async () => {
    const sent: Record<string, unknown>[] = [];
    const reply = { model: "qwen-7b", system_fingerprint: "fp_abc", choices: [{ message: { content: "Score: 3/5" } }] };
    const c = await complete(config, { messages: [], temperature: 0.1, seed: 1234 }, undefined, replying(reply, sent));
    expect(sent[0]).toMatchObject({ seed: 1234, max_tokens: 77, temperature: 0.1 });
    expect(c).toMatchObject({ text: "Score: 3/5", model: "qwen-7b", revision: "fp_abc" });
  });

  it("sends no seed when none is given, and reads null where the judge names neither", async () => {
    const sent: Record<string, unknown>[] = [];
    const c = await complete(
      config,
      { messages: [], temperature: 0 },
      undefined,
      replying({ choices: [{ message: { content: "x" } }] }, sent),
    );
    expect(sent[0]).not.toHaveProperty("seed");
    expect(c).toMatchObject({ model: null, revision: null });
  });

  it("reads the model and revision from a stream's chunks", () => {
    const stream = new CompletionStream();
    stream.push(
      `data: ${JSON.stringify({ model: "llama", system_fingerprint: "fp_1", choices: [{ delta: { content: "Score: " } }] })}\n\n`,
    );
    stream.push(`data: ${JSON.stringify({ model: "llama", choices: [{ delta: { content: "4/5" }, finish_reason: "stop" }] })}\n\n`);
    stream.push("data: [DONE]\n\n");
    expect(stream.result()).toMatchObject({ text: "Score: 4/5", model: "llama", revision: "fp_1", finished: true });
  });
});
