import { env } from "cloudflare:workers";
import { describe, expect, inject, it } from "vitest";
import { countRows, newKey, postEvaluation, request, uniqueTag, waitUntilDone } from "./helpers";

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

// issue 23, item 2: the key's fingerprint left the query out, so a dry run and the real request with one
// Idempotency-Key were "the same request": the second was a replay of the first
describe("a dry run and its Idempotency-Key", () => {
  const kept = async (tenant: string, key: string) =>
    (await env.DB.prepare("SELECT COUNT(*) AS n FROM idempotency_keys WHERE tenant = ? AND key = ?")
      .bind(tenant, key)
      .first<{ n: number }>())!.n;
  const routes: [string, string, (tag: string) => unknown][] = [
    ["/v1/evaluations", "evaluations", (tag) => ({ question: `Q [tag:${tag}]`, answers: answers(2), debias: false })],
    ["/v1/batches", "batches", (tag) => ({ items: [{ question: `Q [tag:${tag}]`, answers: answers(2), debias: false }] })],
  ];

  for (const [path, table, body] of routes) {
    it(`${path}: a dry run keeps nothing under its key, so the real request with that key creates`, async () => {
      const tenant = `dry-first-${table}`;
      const key = await newKey(tenant);
      const b = body(uniqueTag("dry-first"));
      const headers = { "idempotency-key": "plan-then-run" };
      const estimate = await request("POST", `${path}?dryRun=true`, { key, body: b, headers });
      expect(estimate.status).toBe(200);
      expect(await kept(tenant, "plan-then-run")).toBe(0);
      const before = await countRows(table, tenant);
      const created = await request("POST", path, { key, body: b, headers });
      expect(created.status).toBe(202);
      expect(created.headers.get("idempotent-replayed")).toBeNull();
      expect(created.json.id).toBeTypeOf("string");
      expect(await countRows(table, tenant)).toBe(before + 1);
      // and the real request is now what the key stands for: its retry replays it
      const retried = await request("POST", path, { key, body: b, headers });
      expect(retried.headers.get("idempotent-replayed")).toBe("true");
      expect(retried.json).toEqual(created.json);
    });

    it(`${path}: a dry run with the key of a real request is that key reused for another request (422), never its 202`, async () => {
      const tenant = `dry-after-${table}`;
      const key = await newKey(tenant);
      const b = body(uniqueTag("dry-after"));
      const headers = { "idempotency-key": "run-then-plan" };
      const created = await request("POST", path, { key, body: b, headers });
      expect(created.status).toBe(202);
      const before = await countRows(table, tenant);
      const estimate = await request("POST", `${path}?dryRun=true`, { key, body: b, headers });
      expect(estimate.status).toBe(422);
      expect(estimate.headers.get("content-type")).toBe("application/problem+json");
      expect(estimate.json.detail).toMatch(/different request/);
      // a query that differs and nothing else is a different request, as a different body is
      expect((await request("POST", `${path}?dryRun=false`, { key, body: b, headers })).status).toBe(422);
      expect(await countRows(table, tenant)).toBe(before);
    });
  }
});
