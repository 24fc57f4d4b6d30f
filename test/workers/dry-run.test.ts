import { describe, expect, it } from "vitest";
import { newKey, postEvaluation, request, waitUntilDone } from "./helpers";

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
});
