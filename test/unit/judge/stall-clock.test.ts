import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { complete, type JudgeConfig, JudgeError } from "../../../src/judge/client";

// A reasoning judge streams one token per chunk: hundreds of parts a call. The stall clock must cost
// one timer per call, not a clearTimeout and a setTimeout per part, and still tell a judge that keeps
// talking (each part well within the stall time, the whole reply longer than it) from one gone silent.
const TOKENS = 300;
const chunk = (content: string) =>
  `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content } }] })}\n\n`;
const done = `${chunk("Answer 1: 3/5 Answer 2: 4/5").replace('"delta"', '"finish_reason":"stop","delta"')}data: [DONE]\n\n`;

let server: http.Server;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", async () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (req.url?.includes("/many/")) {
        // each part on its own, as a judge writing token by token
        for (let i = 0; i < TOKENS; i++) {
          res.write(chunk(`word${i} `));
          await new Promise((r) => setImmediate(r));
        }
      } else {
        // slow and steady: 30 parts 20 ms apart, 600 ms in all, against a stall time of 400 ms
        for (let i = 0; i < 30; i++) {
          res.write(chunk(`word${i} `));
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      res.end(done);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const config = (path: string, stallTimeoutMs: number): JudgeConfig => ({
  baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/${path}/v1`,
  model: "m",
  timeoutMs: 10_000,
  deadlineMs: 60_000,
  retryBaseMs: 1,
  retryCapMs: 1,
  maxTokens: 10,
  stream: true,
  stallTimeoutMs,
});
const request = { messages: [{ role: "user" as const, content: "grade" }], temperature: 0.1 };

describe("the stall clock of a streamed reply", () => {
  it("sets a handful of timers for a reply of hundreds of parts, not one per part", async () => {
    const set = vi.spyOn(globalThis, "setTimeout");
    const cleared = vi.spyOn(globalThis, "clearTimeout");
    try {
      const reply = await complete(config("many", 5_000), request);
      expect(reply.text).toMatch(/^word0 word1 .*word299 Answer 1: 3\/5/);
      // the call's own clocks: the stall clock (re-armed only when it rings) and a timer turn or two
      expect(set.mock.calls.length).toBeLessThan(10);
      expect(cleared.mock.calls.length).toBeLessThan(10);
    } finally {
      set.mockRestore();
      cleared.mockRestore();
    }
  });

  it("does not call a judge stalled while its parts keep coming within the stall time", async () => {
    const reply = await complete(config("steady", 400), request);
    expect(reply.text).toMatch(/^word0 .*word29 Answer 1/);
  });

  it("still calls a silence past the stall time a stall", async () => {
    // the same steady judge, but each 20 ms gap is past a stall time of 5 ms
    const err = await complete(config("steady", 5), request).catch((e) => e);
    expect(err).toBeInstanceOf(JudgeError);
    expect(err.message).toBe("judge stalled: no part of its reply for 5 ms");
  });
});
