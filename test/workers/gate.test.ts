import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { JudgePermits } from "../../durable-objects/permits";
import { complete, type JudgeConfig } from "../../src/judge/client";
import { judgeGateStub } from "../../src/platform/stubs";
import { answers, judgeLog, newKey, postEvaluation, uniqueTag, until, waitUntilDone } from "./helpers";

const CAP = 4; // JUDGE_MAX_CONCURRENCY in vitest.config.ts

async function groupStats(group: string): Promise<{ open: number; maxOpen: number; requests: number }> {
  return (await fetch(`http://127.0.0.1:${inject("judgePort")}/stats?group=${group}`)).json();
}

describe("the judge gate: one cap on requests open at the judge, across all evaluations", () => {
  it("never has more than JUDGE_MAX_CONCURRENCY requests open for 3 evaluations at once, and uses all of it", async () => {
    const key = await newKey("school");
    const group = uniqueTag("cap");
    const ids = await Promise.all(
      [1, 2, 3].map((k) =>
        postEvaluation(key, {
          question: `Explain hashing. [tag:${group}-${k}] [group:${group}] [delay:40]`,
          answers: answers([3, 8, 1, 6, 4, 7, 2, 5], `e${k}`),
          seed: k,
        }),
      ),
    );
    const results = await Promise.all(ids.map((id) => waitUntilDone(id, key)));
    expect(results.map((r) => r.status)).toEqual(["completed", "completed", "completed"]);
    const stats = await groupStats(group);
    expect(stats.requests).toBe(3 * 14);
    expect(stats.maxOpen).toBe(CAP); // 24 calls were ready at once in round 1: the gate held them to the cap
    // every permit came back: the gate is empty once the evaluations are done
    const gate = judgeGateStub(env);
    expect(await gate.stats()).toMatchObject({ cap: CAP, inUse: 0, waiting: 0 });
  });

  it("lets a small evaluation through while a large one queued before it still has most of its calls to make", async () => {
    const key = await newKey("school");
    const group = uniqueTag("fair");
    const big = `${group}-big`;
    const small = `${group}-small`;
    const bigId = await postEvaluation(key, {
      question: `Explain trees. [tag:${big}] [group:${group}] [delay:60]`,
      answers: answers(
        Array.from({ length: 32 }, (_, i) => i % 10),
        "b",
      ),
    });
    // the big one fills the gate (32 calls ready, 4 granted) before the small one asks
    await until("the big evaluation to fill the gate", async () => (await judgeLog(big)).length >= CAP);
    const smallId = await postEvaluation(key, {
      question: `Explain lists. [tag:${small}] [group:${group}] [delay:60]`,
      answers: answers([2, 9], "s"),
    });
    const done = await waitUntilDone(smallId, key);
    expect(done.status).toBe("completed");
    // in turn with the big one, its 2 calls were granted within the next few permits; first come first
    // served would have put them behind all of the big one's 32 first-round calls
    const smallLast = Math.max(...(await judgeLog(small)).map((e) => e.seq));
    const bigBefore = (await judgeLog(big)).filter((e) => e.seq < smallLast).length;
    expect(bigBefore).toBeLessThanOrEqual(3 * CAP);
    const whole = await waitUntilDone(bigId, key, 30_000);
    expect(whole.usage.judgeCalls).toBe(62);
    expect((await groupStats(group)).maxOpen).toBeLessThanOrEqual(CAP);
  });
});

describe("the judge gate when calls hang", () => {
  const endpoint = (group: string): JudgeConfig => ({
    // an endpoint of its own is a gate of its own (one per base URL), with the cap from the config
    baseUrl: `http://127.0.0.1:${inject("judgePort")}/${group}/v1`,
    model: "test-judge",
    timeoutMs: 300,
    deadlineMs: 0,
    retryBaseMs: 1,
    retryCapMs: 1,
    maxTokens: 16,
  });
  const ask = (judge: JudgeConfig, group: string, fault = "") =>
    complete(judge, { messages: [{ role: "user", content: `Grade it. [group:${group}] ${fault} Answer 1: q=5` }], temperature: 0 });

  // issue 11, defect 6: a fetch abandoned at its timeout rejects at once, while the runtime closes its
  // connection a moment later; the permit went back in between, so the judge counted one more than the cap
  it("a call the judge never answers settles only once its connection is closed: right after, the judge counts it open no more", async () => {
    const trials = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const group = uniqueTag("abandoned");
        const failed = await ask(endpoint(group), group, "[fault:hang*always]").then(
          () => "answered",
          (err: Error) => err.message,
        );
        return { failed, open: (await groupStats(group)).open };
      }),
    );
    expect(trials).toEqual(trials.map(() => ({ failed: "judge did not answer within 300 ms", open: 0 })));
  });

  // issue 11, defect 6: with JUDGE_MAX_CONCURRENCY=4 and judge-sim --hang 0.05, judge-sim saw 5 requests
  // open at once (8 gave 9). A hung call's fetch rejected when its timeout fired, its permit went back
  // in that same turn (with the next call's acquire), and the next call reached the judge before the
  // runtime had closed the abandoned connection.
  it("gives a hung call's permit back only once its connection is closed: the judge never counts more than JUDGE_MAX_CONCURRENCY open", async () => {
    const group = uniqueTag("hang");
    const judge = endpoint(group);
    // CAP evaluations, each with one request at a time: their hung calls hold every permit, and each
    // one's next call waits behind it in its object, to ask the gate the moment the hung one gives up
    const evaluations = Array.from({ length: CAP }, (_, k) => ({
      id: `${group}-${k}`,
      permits: new JudgePermits(env, 1, judge.baseUrl, []),
    }));
    const hangs = 3;
    const outcomes = await Promise.all(
      evaluations.flatMap((e) => [
        ...Array.from({ length: hangs }, () =>
          e.permits
            .use(e.id, () => ask(judge, group, "[fault:hang*always]"))
            .then(
              () => "answered",
              (err: Error) => err.message,
            ),
        ),
        e.permits.use(e.id, () => ask(judge, group)).then(() => "answered"),
      ]),
    );
    expect(outcomes).toEqual(
      evaluations.flatMap(() => [...Array.from({ length: hangs }, () => "judge did not answer within 300 ms"), "answered"]),
    );
    await Promise.all(evaluations.map((e) => e.permits.settle()));
    const stats = await groupStats(group);
    expect(stats.requests).toBe(CAP * (hangs + 1));
    expect(stats.maxOpen).toBeLessThanOrEqual(CAP);
  });
});
