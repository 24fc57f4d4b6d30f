import { describe, expect, it } from "vitest";
import { CompletionStream } from "../../../src/judge/stream";
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
