import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeWithRetry, type JudgeConfig, JudgeError } from "../../../src/judge/client";

// A judge that answers 503 to everything (or 200 after `okAfter` requests), on 127.0.0.1.
let server: http.Server;
let requests = 0;
let okAfter = Infinity;
beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests++;
      if (requests > okAfter) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ choices: [{ message: { content: "Answer 1: 1/10 Answer 2: 2/10" } }] }));
      }
      res.writeHead(503);
      res.end("down");
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const config = (): JudgeConfig => ({
  baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
  model: "m",
  timeoutMs: 2_000,
  deadlineMs: 60_000,
  retryBaseMs: 1,
  retryCapMs: 1, // backoff delays are then always 0 ms: the fake clock alone decides
  maxTokens: 10,
});
const request = { messages: [{ role: "user" as const, content: "grade" }], temperature: 0.1 };

describe("completeWithRetry and the judge deadline", () => {
  it("keeps retrying past any fixed count while inside the deadline", async () => {
    requests = 0;
    okAfter = 20;
    const done = await completeWithRetry(config(), request);
    expect(done.text).toMatch(/Answer 2/);
    expect(requests).toBe(21);
  });

  it("fails once the deadline has passed since the first failure, naming the deadline and the last error", async () => {
    requests = 0;
    okAfter = Infinity;
    let clock = 0;
    const retries: number[] = [];
    // each look at the clock moves it 10 s: failure k has waited k × 10 s, so the 7th crosses 60 s
    const err = await completeWithRetry(config(), request, { now: () => (clock += 10_000), onRetry: (_e, n) => retries.push(n) }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(JudgeError);
    expect(err.message).toMatch(
      /^the judge kept failing for \d+ s \(\d+ attempts; JUDGE_DEADLINE_MS is 60000\); last error: judge answered 503: down$/,
    );
    expect(err.message).toMatch(/kept failing for 70 s \(7 attempts/);
    expect(retries).toEqual([1, 2, 3, 4, 5, 6]);
    expect(requests).toBe(7);
    expect(err.retryable).toBe(true);
  });
});

describe("completeWithRetry on a pool of judge endpoints", () => {
  const slow = (): JudgeConfig => ({ ...config(), retryBaseMs: 1_000, retryCapMs: 1_000 });

  it("sends a call that failed at an endpoint again at once (elsewhere), and backs off once it fails where it failed before", async () => {
    requests = 0;
    okAfter = 4;
    const sentTo: string[] = [];
    const waits: number[] = [];
    // two endpoints (both this 503 server): the retry goes to the one its last attempt did not fail at
    const done = await completeWithRetry(slow(), request, {
      pooled: true,
      around: (attempt, avoid) => {
        // endpoint A and endpoint B: two names of this one server
        const [A, B] = [config().baseUrl, `${config().baseUrl}/`];
        const url = avoid === A ? B : A;
        sentTo.push(url === A ? "A" : "B");
        return attempt({ url });
      },
      sleep: async (ms) => {
        waits.push(ms);
      },
    }).catch((e) => e);
    expect(done.text).toMatch(/Answer 2/);
    expect(sentTo).toEqual(["A", "B", "A", "B", "A"]);
    // failed at A (new: at once), at B (new: at once), at A again and at B again: backoff
    expect(waits.slice(0, 2)).toEqual([0, 0]);
    expect(waits.slice(2).every((ms) => ms >= 0 && ms <= 1_000)).toBe(true);
    expect(waits.slice(2).some((ms) => ms > 0)).toBe(true);
  });

  it("a pool of one backs off from the first failure, as before pools", async () => {
    requests = 0;
    okAfter = 2;
    const waits: number[] = [];
    await completeWithRetry(slow(), request, {
      around: (attempt) => attempt({ url: config().baseUrl }),
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    expect(waits).toHaveLength(2);
    expect(waits.some((ms) => ms > 0)).toBe(true);
  });
});
