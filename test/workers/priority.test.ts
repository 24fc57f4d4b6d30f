import { describe, expect, it } from "vitest";
import { gateIdle, judgeLog, newKey, postEvaluation, request, uniqueTag, until, waitUntilDone } from "./helpers";

describe("interactive before batch", () => {
  it("a question posted while a batch holds every running place gets its first judge call within a few permits; vLLM's priority says which is which", async () => {
    const key = await newKey("priority");
    const tag = uniqueTag("exam");
    // 12 questions of 8 answers, each call 150 ms: JUDGE_MAX_RUNNING (4) run, the rest queue, and
    // JUDGE_MAX_CONCURRENCY (4) requests are open at the judge at once
    const created = await request("POST", "/v1/batches", {
      key,
      body: {
        items: Array.from({ length: 12 }, (_, k) => ({
          question: `Exam question ${k} [tag:${tag}] [delay:150]`,
          answers: Array.from({ length: 8 }, (_, i) => ({ id: `s${i}`, text: `q=${(i * 3 + k) % 10}` })),
        })),
      },
    });
    expect(created.status).toBe(202);
    await until("the batch judging", async () => (await judgeLog(tag)).length >= 8);

    const mine = uniqueTag("teacher");
    const before = (await judgeLog(tag)).length;
    const id = await postEvaluation(key, {
      question: `A teacher's question [tag:${mine}]`,
      answers: [
        { id: "a", text: "q=3" },
        { id: "b", text: "q=7" },
      ],
    });
    const result = await waitUntilDone(id, key);
    expect(result.status).toBe("completed");
    const first = Math.min(...(await judgeLog(mine)).map((e) => e.seq));
    // batch calls that reached the judge between the post and the question's first call: those already
    // granted (at most the cap) and those granted while its object was starting (a few on a loaded
    // machine), not the queue of more than a hundred behind them
    const batchBetween = (await judgeLog(tag)).filter((e) => e.seq < first).length - before;
    expect(batchBetween).toBeLessThanOrEqual(16);
    const batchLeft = 12 * 14 - (await judgeLog(tag)).filter((e) => e.seq < first).length;
    expect(batchLeft).toBeGreaterThan(100);

    // JUDGE_PRIORITY=true in the tests: interactive 0, batch 1
    expect(new Set((await judgeLog(mine)).map((e) => e.priority))).toEqual(new Set([0]));
    expect(new Set((await judgeLog(tag)).map((e) => e.priority))).toEqual(new Set([1]));
    // the rest of the exam is cancelled, so it does not hold the shared test judge for other files
    const batch = await request("GET", `/v1/batches/${created.json.id}`, { key });
    await Promise.all(batch.json.evaluations.map((e: string) => request("DELETE", `/v1/evaluations/${e}`, { key })));
    // and the file ends once the gate has let every one of them go: nothing of it still runs while
    // vitest tears the file's runtime down (which it reports as an error when something does)
    await gateIdle();
  });
});
