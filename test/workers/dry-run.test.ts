import { describe, expect, inject, it } from "vitest";
import { newKey, postEvaluation, request, uniqueTag, waitUntilDone } from "./helpers";

/** The most requests of a `[group:G]` open at once at the test judge. */
async function judgeStats(group: string): Promise<{ maxOpen: number; requests: number }> {
  return (await fetch(`http://127.0.0.1:${inject("judgePort")}/stats?group=${group}`)).json();
}

const answers = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: `a${i}`, text: `An answer of some length, number ${i}. q=${i % 10}` }));

describe("estimates before a run (?dryRun=true)", () => {
  it("POST /v1/evaluations?dryRun=true validates, estimates, and creates nothing", async () => {
    const key = await newKey("estimator");
    const r = await request("POST", "/v1/evaluations?dryRun=true", { key, body: { question: "What is a stack?", answers: answers(5) } });
    expect(r.status).toBe(200);
    // a debiased knockout of 5: 2(N-1) calls
    expect(r.json.judgeCalls).toBe(8);
    // the test judge's /tokenize counts 3 characters a token
    expect(r.json.basis).toMatchObject({ promptTokens: "tokenizer", completionTokens: "assumed" });
    expect(r.json.basis.charsPerToken).toBeCloseTo(3, 1);
    expect(r.json.promptTokens).toBeGreaterThan(8 * 50);
    expect(r.json.completionTokens).toBe(8 * 150);
    expect(r.json.seconds).toBeGreaterThan(0);
    expect((await request("GET", "/v1/evaluations", { key })).json.data).toEqual([]);

    const more = await request("POST", "/v1/evaluations?dryRun=true", {
      key,
      body: { question: "What is a stack?", answers: answers(5), method: "round-robin" },
    });
    expect(more.json.judgeCalls).toBe(20);
    expect(more.json.promptTokens).toBeGreaterThan(r.json.promptTokens * 2);

    const bad = await request("POST", "/v1/evaluations?dryRun=true", { key, body: { question: "", answers: answers(1) } });
    expect(bad.status).toBe(400);
    expect(
      (await request("POST", "/v1/evaluations?dryRun=maybe", { key, body: { question: "q", answers: answers(2) } })).json.errors,
    ).toEqual([{ field: "dryRun", reason: 'must be "true" or "false"' }]);
  });

  // issue 23: 8 extra calls with 2 answers were counted by the dry run and never spent
  it("counts only the extra calls the answers can use, says so, and the run spends what it counted", async () => {
    const key = await newKey("extra-estimator");
    const two = await request("POST", "/v1/evaluations?dryRun=true", {
      key,
      body: { question: "What is a stack?", answers: answers(2), extraCalls: 8 },
    });
    expect(two.status).toBe(200);
    // the one match has met the only pair: nothing is left to judge
    expect(two.json).toMatchObject({ judgeCalls: 2, extraCalls: { requested: 8, usable: 0 } });

    // 3 answers without debiasing: 2 knockout calls, one pair left unmet, so 1 of 12 extra calls
    const body = { question: "What is a stack?", answers: answers(3), debias: false, extraCalls: 12 };
    const estimated = await request("POST", "/v1/evaluations?dryRun=true", { key, body });
    expect(estimated.json).toMatchObject({ judgeCalls: 3, extraCalls: { requested: 12, usable: 1 } });
    const id = await postEvaluation(key, body);
    const done = await waitUntilDone(id, key);
    expect(done.status).toBe("completed");
    expect(done.extraCalls).toBe(1);
    expect(done.usage).toMatchObject({ judgeCalls: estimated.json.judgeCalls, extraCalls: 1 });

    const batch = await request("POST", "/v1/batches?dryRun=true", {
      key,
      body: {
        defaults: { extraCalls: 8 },
        items: [
          { question: "Q1", answers: answers(2) },
          { question: "Q2", answers: answers(4) },
        ],
      },
    });
    // 4 answers debiased: 3 unmet pairs, 6 calls; 2 answers: none
    expect(batch.json).toMatchObject({ judgeCalls: 2 + 6 + 6, extraCalls: { requested: 16, usable: 6 } });
  });

  it("POST /v1/batches?dryRun=true adds up its questions and creates nothing", async () => {
    const key = await newKey("batch-estimator");
    const r = await request("POST", "/v1/batches?dryRun=true", {
      key,
      body: {
        defaults: { debias: false },
        items: [
          { question: "Q1", answers: answers(4) },
          { question: "Q2", answers: answers(8), method: "individual" },
        ],
      },
    });
    expect(r.status).toBe(200);
    expect(r.json.judgeCalls).toBe(3 + 8);
    expect((await request("GET", "/v1/evaluations", { key })).json.data).toEqual([]);
  });

  // issue 23, item 9: each dry run sent /tokenize to the judge outside the gate's cap (4 in the tests)
  it("asks the tokenizer under the gate's cap, and at most 2 at once for one tenant", async () => {
    const estimateFrom = async (tenants: number, each: number, group: string) => {
      const keys = await Promise.all(Array.from({ length: tenants }, (_, i) => newKey(`estimator-${i}`)));
      const question = `What is a stack? [group:${group}][delay:300]`;
      const all = await Promise.all(
        keys.flatMap((key) =>
          Array.from({ length: each }, () =>
            request("POST", "/v1/evaluations?dryRun=true", { key, body: { question, answers: answers(4) } }),
          ),
        ),
      );
      for (const r of all) expect(r.status).toBe(200);
      return all;
    };
    const many = uniqueTag("tokenize-many");
    const sixTenants = await estimateFrom(6, 2, many);
    const stats = await judgeStats(many);
    expect(stats.requests).toBeGreaterThan(0);
    expect(stats.maxOpen).toBeLessThanOrEqual(4);
    // those that found no permit free use the assumed ratio, and say so
    for (const r of sixTenants) expect(["tokenizer", "assumed"]).toContain(r.json.basis.promptTokens);
    const one = uniqueTag("tokenize-one");
    await estimateFrom(1, 8, one);
    expect((await judgeStats(one)).maxOpen).toBeLessThanOrEqual(2);
  });
});
