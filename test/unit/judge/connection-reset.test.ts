import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { complete, type JudgeConfig, JudgeError } from "../../../src/judge/client";

// A judge that begins its reply and then resets the connection: streamed, after the headers and a
// first chunk; as one JSON reply, after half of its body. (The service tests' judge ends its cut
// streams cleanly, since workerd prints a stack trace for every reset body, caught or not.)
let server: http.Server;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url?.includes("/stream/")) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write(
          `data: ${JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: { content: "Answer 1: " } }] })}\n\n`,
        );
      } else {
        res.writeHead(200, { "content-type": "application/json", "content-length": "200" });
        res.write('{"choices": [{"message": {"content": "Answer 1:');
      }
      setTimeout(() => res.socket?.resetAndDestroy(), 20);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const config = (stream: boolean): JudgeConfig => ({
  baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/${stream ? "stream" : "json"}/v1`,
  model: "m",
  timeoutMs: 2_000,
  deadlineMs: 60_000,
  retryBaseMs: 1,
  retryCapMs: 1,
  maxTokens: 10,
  stream,
});
const request = { messages: [{ role: "user" as const, content: "grade" }], temperature: 0.1 };

describe("a judge connection reset in the middle of its reply", () => {
  for (const stream of [true, false]) {
    it(`is a retryable "broke off" (${stream ? "streamed" : "one JSON reply"})`, async () => {
      const err = await complete(config(stream), request).catch((e) => e);
      expect(err).toBeInstanceOf(JudgeError);
      expect(err.message).toMatch(/^judge reply broke off: /);
      expect(err.message).not.toMatch(/ended before its last chunk/);
      expect(err.retryable).toBe(true);
    });
  }
});
