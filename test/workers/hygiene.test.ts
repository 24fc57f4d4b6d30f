import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { ADMIN, answers, countRows, judgeLog, newKey, request, uniqueTag, until, waitUntilDone } from "./helpers";
import { tournamentStub } from "../../src/stubs";

describe("Idempotency-Key", () => {
  it("returns the same evaluation for the same key and body, and 422 for the same key with another body", async () => {
    const key = await newKey("idem");
    const body = { question: `Q [tag:${uniqueTag("idem")}]`, answers: answers([1, 2]), debias: false };
    const headers = { "idempotency-key": "order-42" };
    const first = await request("POST", "/v1/evaluations", { key, body, headers });
    expect(first.status).toBe(202);
    const before = await countRows("evaluations");
    const again = await request("POST", "/v1/evaluations", { key, body, headers });
    expect(again.status).toBe(202);
    expect(again.json).toEqual(first.json);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await countRows("evaluations")).toBe(before);

    const other = await request("POST", "/v1/evaluations", { key, body: { ...body, seed: 1 }, headers });
    expect(other.status).toBe(422);
    expect(other.headers.get("content-type")).toBe("application/problem+json");
    expect(other.json.detail).toMatch(/different request/);

    // a key is the tenant's own: another tenant's same key is a new request
    const stranger = await newKey("idem-other");
    const theirs = await request("POST", "/v1/evaluations", { key: stranger, body, headers });
    expect(theirs.status).toBe(202);
    expect(theirs.json.id).not.toBe(first.json.id);
    // without a key, every POST is new
    const plain = await request("POST", "/v1/evaluations", { key, body });
    expect(plain.json.id).not.toBe(first.json.id);
  });

  it("lets only one of two concurrent requests with the same key through; the other is replayed or told to retry", async () => {
    const key = await newKey("idem-race");
    const body = { question: `Q [tag:${uniqueTag("race")}]`, answers: answers([1, 2]) };
    const headers = { "idempotency-key": "race-1" };
    const before = await countRows("evaluations");
    const both = await Promise.all([1, 2, 3].map(() => request("POST", "/v1/evaluations", { key, body, headers })));
    for (const r of both) expect([202, 409]).toContain(r.status);
    expect(new Set(both.filter((r) => r.status === 202).map((r) => r.json.id)).size).toBe(1);
    for (const r of both.filter((r) => r.status === 409)) expect(r.headers.get("retry-after")).toBe("1");
    expect(await countRows("evaluations")).toBe(before + 1);
  });

  it("forgets a request that failed, so it can be retried with its key; refuses a malformed key", async () => {
    const key = await newKey("idem");
    const headers = { "idempotency-key": "retry-me" };
    const bad = await request("POST", "/v1/evaluations", { key, body: { question: "Q", answers: [] }, headers });
    expect(bad.status).toBe(400);
    const good = await request("POST", "/v1/evaluations", { key, body: { question: `Q [tag:${uniqueTag("i")}]`, answers: answers([1, 2]) }, headers });
    expect(good.status).toBe(202);
    const malformed = await request("POST", "/v1/evaluations", { key, body: { question: "Q", answers: answers([1, 2]) }, headers: { "idempotency-key": "x".repeat(256) } });
    expect(malformed.status).toBe(400);
    expect(malformed.json.errors[0].field).toBe("Idempotency-Key");
  });
});

describe("limits", () => {
  it("refuses a body over the size limit with 413 problem+json, before parsing it", async () => {
    const key = await newKey("big");
    const r = await request("POST", "/v1/evaluations", { key, raw: `{"question": "${"x".repeat(9 * 1024 * 1024)}"}`, headers: { "content-type": "application/json" } });
    expect(r.status).toBe(413);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.json.detail).toMatch(/larger than 8388608 bytes/);
  });

  it("names the field for a too-long answer, too many answers and oversized metadata", async () => {
    const key = await newKey("big");
    const long = await request("POST", "/v1/evaluations", { key, body: { question: "Q", answers: [{ id: "a", text: "x".repeat(20_001) }, { id: "b", text: "y" }] } });
    expect(long.status).toBe(400);
    expect(long.json.errors).toEqual([{ field: "answers[0].text", reason: "must be at most 20000 characters" }]);
    const many = await request("POST", "/v1/evaluations", { key, body: { question: "Q", answers: answers(Array.from({ length: 257 }, () => 1)) } });
    expect(many.json.errors[0]).toEqual({ field: "answers", reason: "takes at most 256 answers" });
    const meta = await request("POST", "/v1/evaluations", { key, body: { question: "Q", answers: answers([1, 2]), metadata: { blob: "m".repeat(17_000) } } });
    expect(meta.json.errors[0].field).toBe("metadata");
  });

  it("rate-limits a key to its requests per minute with 429 and Retry-After; other keys are not affected", async () => {
    const issued = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant: "limited", rateLimitPerMinute: 3 } });
    const key = issued.json.key;
    for (let i = 0; i < 3; i++) expect((await request("GET", "/v1/evaluations", { key })).status).toBe(200);
    const refused = await request("GET", "/v1/evaluations", { key });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(20);
    expect((await request("GET", "/v1/evaluations", { key: await newKey("limited") })).status).toBe(200);
  });
});

describe("DELETE /v1/evaluations/:id", () => {
  it("cancels a running evaluation: calls in flight are abandoned and nothing more is sent to the judge", async () => {
    const key = await newKey("canceller");
    const tag = uniqueTag("cancel");
    // round 1 of 8 answers, not debiased, paired by rounds: exactly 4 calls (within the test's cap of
    // requests open at the judge), 3 answered, 1 held, and no later match until the round is in
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${tag}] [hold-after:3]`, answers: answers([3, 8, 1, 6, 4, 7, 2, 5]), seed: 5, debias: false, pairing: "round" },
    });
    const id = created.json.id;
    await until("3 answered and the rest held", async () => (await judgeLog(tag)).length === 4);

    const cancelled = await request("DELETE", `/v1/evaluations/${id}`, { key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toEqual({ id, status: "cancelled" });
    const stub = tournamentStub(env, id);
    expect(await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => state.storage.getAlarm())).toBeNull();

    // the held calls now break off; a live evaluation would retry them, a cancelled one must not
    await fetch(`http://127.0.0.1:${inject("judgePort")}/release?tag=${tag}`, { method: "POST" });
    const read = await waitUntilDone(id, key);
    expect(read.status).toBe("cancelled");
    expect(read.usage.judgeCalls).toBe(3);
    expect(read.matches.flatMap((m: { calls: unknown[] }) => m.calls)).toHaveLength(3);
    await new Promise((r) => setTimeout(r, 300)); // longer than any retry backoff in tests
    expect(await judgeLog(tag)).toHaveLength(4);

    expect((await request("DELETE", `/v1/evaluations/${id}`, { key })).status).toBe(200); // again: a no-op
  });

  it("refuses to cancel a finished evaluation with 409", async () => {
    const key = await newKey("canceller");
    const created = await request("POST", "/v1/evaluations", { key, body: { question: `Q [tag:${uniqueTag("done")}]`, answers: answers([1, 2]) } });
    await waitUntilDone(created.json.id, key);
    const r = await request("DELETE", `/v1/evaluations/${created.json.id}`, { key });
    expect(r.status).toBe(409);
    expect(r.json.detail).toMatch(/already completed/);
  });
});

describe("GET /v1/evaluations", () => {
  it("lists the tenant's evaluations newest first, a page at a time, with an opaque cursor", async () => {
    const key = await newKey(`lister-${uniqueTag("t")}`);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await request("POST", "/v1/evaluations", { key, body: { question: `Q${i} [tag:${uniqueTag("l")}]`, answers: answers([1, 2]), metadata: { i } } });
      ids.push(r.json.id);
    }
    const seen: { id: string; createdAt: string }[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const r = await request("GET", `/v1/evaluations?limit=2${cursor ? `&cursor=${cursor}` : ""}`, { key });
      expect(r.status).toBe(200);
      expect(r.json.data.length).toBeLessThanOrEqual(2);
      seen.push(...r.json.data);
      cursor = r.json.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    // each exactly once, newest first (evaluations made in the same millisecond: by id, descending)
    expect(seen.map((e) => e.id).sort()).toEqual([...ids].sort());
    const key_ = (e: { id: string; createdAt: string }) => `${e.createdAt}|${e.id}`;
    expect(seen.map(key_)).toEqual(seen.map(key_).sort().reverse());
    const first = await request("GET", "/v1/evaluations?limit=1", { key });
    expect(first.json.data[0]).toMatchObject({ id: seen[0].id, method: "knockout", metadata: { i: expect.any(Number) } });

    for (const q of ["limit=0", "limit=101", "limit=x", "cursor=nonsense!", "cursor=eyJ4IjoxfQ"]) {
      const r = await request("GET", `/v1/evaluations?${q}`, { key });
      expect(r.status, q).toBe(400);
    }
  });
});
