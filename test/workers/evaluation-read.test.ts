import { describe, expect, it } from "vitest";
import { answers, newKey, request, until, uniqueTag, waitUntilDone, releaseJudge } from "./helpers";

/** A running evaluation of 7 answers (12 calls) whose judge answers 4 calls, then holds the rest. */
async function heldMidway(key: string) {
  const tag = uniqueTag("read");
  const created = await request("POST", "/v1/evaluations", {
    key,
    body: { question: `Q [tag:${tag}] [hold-after:4]`, answers: answers([1, 9, 4, 6, 2, 8, 5]), seed: 7 },
  });
  expect(created.status).toBe(202);
  const id = created.json.id as string;
  await until("four results recorded", async () => {
    const r = await request("GET", `/v1/evaluations/${id}`, { key });
    return r.json.status === "running" && r.json.usage.judgeCalls === 4;
  });
  return { id, tag };
}

describe("GET /v1/evaluations/:id: tags, 304 and texts", () => {
  it("tags a running evaluation by its state: the same state reads the same tag and body, and If-None-Match with it is a 304", async () => {
    const key = await newKey("read");
    const { id, tag } = await heldMidway(key);
    try {
      const first = await request("GET", `/v1/evaluations/${id}`, { key });
      expect(first.status).toBe(200);
      const etag = first.headers.get("etag")!;
      expect(etag).toMatch(/^W\/".+"$/);
      expect(first.headers.get("retry-after")).toBe("1");
      // the held calls time out and are retried, which moves `usage.retries` (and so the state): a read
      // that differs must differ in its usage, and one that does not must be the same copy, tag and all
      let unchanged = 0;
      for (let i = 0; i < 5 && unchanged < 2; i++) {
        const again = await request("GET", `/v1/evaluations/${id}`, { key });
        const conditional = await request("GET", `/v1/evaluations/${id}`, { key, headers: { "if-none-match": etag } });
        if (JSON.stringify(again.json.usage) === JSON.stringify(first.json.usage)) {
          expect(again.headers.get("etag")).toBe(etag);
          expect(again.json).toEqual(first.json);
        } else expect(again.headers.get("etag")).not.toBe(etag);
        if (conditional.status === 304) {
          unchanged++;
          expect(conditional.json).toBe("");
          expect(conditional.headers.get("etag")).toBe(etag);
          expect(conditional.headers.get("retry-after")).toBe("1");
        } else {
          expect(conditional.status).toBe(200);
          expect(conditional.json.usage).not.toEqual(first.json.usage);
        }
      }
      expect(unchanged).toBeGreaterThan(0);
    } finally {
      await releaseJudge(tag);
    }
    // the rest of the results change it: the old tag gets the whole result again, under a new tag
    await waitUntilDone(id, key);
    const done = await request("GET", `/v1/evaluations/${id}`, { key, headers: { "if-none-match": 'W/"stale", W/"other"' } });
    expect(done.status).toBe(200);
    expect(done.json.status).toBe("completed");
    expect(done.json.usage.judgeCalls).toBe(12);
    expect(done.headers.get("retry-after")).toBeNull();
    const tagged = await request("GET", `/v1/evaluations/${id}`, { key, headers: { "if-none-match": done.headers.get("etag")! } });
    expect(tagged.status).toBe(304);
  });

  it("answers 304 for a completed evaluation's tag until a teacher's grade changes it", async () => {
    const key = await newKey("read");
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${uniqueTag("read")}]`, answers: answers([3, 5, 8]), seed: 3 },
    });
    const id = created.json.id as string;
    await waitUntilDone(id, key);
    const first = await request("GET", `/v1/evaluations/${id}`, { key });
    const etag = first.headers.get("etag")!;
    expect((await request("GET", `/v1/evaluations/${id}`, { key })).headers.get("etag")).toBe(etag);
    expect((await request("GET", `/v1/evaluations/${id}`, { key, headers: { "if-none-match": etag } })).status).toBe(304);
    expect((await request("GET", `/v1/evaluations/${id}`, { key, headers: { "if-none-match": "*" } })).status).toBe(304);

    const graded = await request("PUT", `/v1/evaluations/${id}/answers/s1/grade`, { key, body: { score: 2 } });
    expect(graded.status).toBe(200);
    const after = await request("GET", `/v1/evaluations/${id}`, { key, headers: { "if-none-match": etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get("etag")).not.toBe(etag);
    expect(after.json.answers.find((a: { id: string }) => a.id === "s1").teacherScore).toBe(2);
  });

  it("leaves out answers' texts and the judge's words with ?exclude=texts, running or completed, under a tag of its own", async () => {
    const key = await newKey("read");
    const { id, tag } = await heldMidway(key);
    const check = async () => {
      const whole = await request("GET", `/v1/evaluations/${id}`, { key });
      const bare = await request("GET", `/v1/evaluations/${id}?exclude=texts`, { key });
      expect(bare.status).toBe(200);
      expect(whole.json.answers.every((a: { text?: string }) => typeof a.text === "string" && a.text.includes("LIFO"))).toBe(true);
      expect(bare.json.answers.some((a: object) => "text" in a)).toBe(false);
      const calls = (v: any) => v.matches.flatMap((m: { calls: object[] }) => m.calls);
      expect(calls(whole.json).length).toBeGreaterThan(0);
      expect(calls(whole.json).every((c: { raw?: string }) => typeof c.raw === "string")).toBe(true);
      expect(calls(bare.json).some((c: object) => "raw" in c)).toBe(false);
      // all else is the same
      expect(bare.json.answers.map((a: { id: string; score: number | null }) => [a.id, a.score])).toEqual(
        whole.json.answers.map((a: { id: string; score: number | null }) => [a.id, a.score]),
      );
      expect(bare.json.question).toBe(whole.json.question);
      expect(bare.headers.get("etag")).not.toBe(whole.headers.get("etag"));
      const again = await request("GET", `/v1/evaluations/${id}?exclude=texts`, {
        key,
        headers: { "if-none-match": whole.headers.get("etag")! },
      });
      expect(again.status).toBe(200);
      expect(again.json.answers.some((a: object) => "text" in a)).toBe(false);
    };
    try {
      await check();
    } finally {
      await releaseJudge(tag);
    }
    await waitUntilDone(id, key);
    await check();
  });

  it("refuses an unknown ?exclude with a problem naming it", async () => {
    const key = await newKey("read");
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Q [tag:${uniqueTag("read")}]`, answers: answers([3, 5]) },
    });
    const r = await request("GET", `/v1/evaluations/${created.json.id}?exclude=answers`, { key });
    expect(r.status).toBe(400);
    expect(r.headers.get("content-type")).toMatch(/problem\+json/);
    expect(r.json.errors).toEqual([{ field: "exclude", reason: 'must be "texts" (or absent)' }]);
  });
});
