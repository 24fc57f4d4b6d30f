import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { judgeGateStub } from "../../src/stubs";
import { answers, judgeLog, newKey, postEvaluation, uniqueTag, waitUntilDone } from "./helpers";

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
        postEvaluation(key, { question: `Explain hashing. [tag:${group}-${k}] [group:${group}] [delay:40]`, answers: answers([3, 8, 1, 6, 4, 7, 2, 5], `e${k}`), seed: k }),
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
    const bigId = await postEvaluation(key, { question: `Explain trees. [tag:${big}] [group:${group}] [delay:60]`, answers: answers(Array.from({ length: 32 }, (_, i) => i % 10), "b") });
    // the big one fills the gate (32 calls ready, 4 granted) before the small one asks
    for (let i = 0; (await judgeLog(big)).length < CAP; i++) {
      expect(i).toBeLessThan(400);
      await new Promise((r) => setTimeout(r, 10));
    }
    const smallId = await postEvaluation(key, { question: `Explain lists. [tag:${small}] [group:${group}] [delay:60]`, answers: answers([2, 9], "s") });
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
