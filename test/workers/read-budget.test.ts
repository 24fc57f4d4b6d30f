import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { tournamentStub } from "../../src/platform/stubs";
import { gateIdle, judgeLog, newKey, request, uniqueTag, until } from "./helpers";

/**
 * A running evaluation large enough that two full reads spend most of a key's default budget (bursts
 * of 4 MB): 100 answers of 19,000 characters, about 1.9 MB a read.
 */
const ANSWERS = 100;
const CHARS = 19_000;

/** Kills the object as a restart would (see resume.test.ts): its pump stops until the watchdog, 30 s away. */
async function crash(id: string): Promise<void> {
  await runInDurableObject(tournamentStub(env, id), (_i: unknown, state: DurableObjectState) =>
    state.abort("Instance dispose (a simulated crash)"),
  ).catch(() => {});
}

/**
 * A large evaluation that stays running with a state that does not move: the judge holds every call,
 * then the object dies, so no retry moves its counters until the watchdog brings it back.
 */
async function largeAndStill(key: string): Promise<string> {
  const tag = uniqueTag("budget");
  const created = await request("POST", "/v1/evaluations", {
    key,
    body: {
      question: `Explain a stack. [tag:${tag}] [hold-after:0]`,
      answers: Array.from({ length: ANSWERS }, (_, i) => ({
        id: `s${i + 1}`,
        text: `Answer ${i + 1}: q=${i % 10}. ${"The stack is LIFO. ".repeat(CHARS / 19)}`.slice(0, CHARS),
      })),
      seed: 5,
    },
  });
  expect(created.status).toBe(202);
  const id = created.json.id as string;
  await until("the judge holding its calls", async () => (await judgeLog(tag)).some((e) => e.outcome === "held"));
  await crash(id);
  return id;
}

describe("full reads of a running evaluation, per key", () => {
  it("are refused past the key's byte budget with a 429 and Retry-After; 304s are not; another key has its own; waiting is enough", async () => {
    const tenant = uniqueTag("budget-tenant");
    const key = await newKey(tenant);
    const id = await largeAndStill(key);
    try {
      await budgetSpentAndBack(tenant, key, id);
    } finally {
      await request("DELETE", `/v1/evaluations/${id}`, { key });
      await gateIdle();
    }
  });

  it("leaves an ended evaluation alone: it is read from D1, as often as asked", async () => {
    const key = await newKey(uniqueTag("budget-done"));
    const id = await largeAndStill(key);
    expect((await request("DELETE", `/v1/evaluations/${id}`, { key })).status).toBe(200);
    await gateIdle();
    for (let i = 0; i < 4; i++) {
      const r = await request("GET", `/v1/evaluations/${id}`, { key });
      expect(r.status).toBe(200);
      expect(r.json.status).toBe("cancelled");
    }
  });
});

/** `key` reads `id` in full until refused, then checks what a spent budget allows and when it is back. */
async function budgetSpentAndBack(tenant: string, key: string, id: string): Promise<void> {
  let etag = "";
  let refused: Awaited<ReturnType<typeof request>> | null = null;
  for (let i = 0; i < 10 && !refused; i++) {
    const r = await request("GET", `/v1/evaluations/${id}`, { key });
    if (r.status === 429) refused = r;
    else {
      expect(r.status).toBe(200);
      expect(r.json.status).toBe("running");
      expect(r.json.answers).toHaveLength(ANSWERS);
      etag = r.headers.get("etag")!;
    }
  }
  // the burst pays the first read; a read it cannot pay is refused, as a problem that says when to come back
  expect(etag).not.toBe("");
  expect(refused).not.toBeNull();
  expect(refused!.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(refused!.json).toMatchObject({ status: 429, title: "Too Many Requests" });
  expect(refused!.json.detail).toMatch(/per API key; retry after \d+ s/);
  expect(refused!.json.detail).toMatch(/If-None-Match/);
  const retryAfter = refused!.headers.get("retry-after")!;
  expect(retryAfter).toMatch(/^[1-9]\d*$/);

  // a refusal costs nothing: reading again at once is refused again, and the first Retry-After still holds (below)
  const insisted = await request("GET", `/v1/evaluations/${id}`, { key });
  expect(insisted.status).toBe(429);
  expect(Number(insisted.headers.get("retry-after"))).toBeLessThanOrEqual(Number(retryAfter));

  // with the budget spent, a read that names the tag it has is a 304, as often as it likes
  for (let i = 0; i < 5; i++) {
    const unchanged = await request("GET", `/v1/evaluations/${id}`, { key, headers: { "if-none-match": etag } });
    expect(unchanged.status).toBe(304);
    expect(unchanged.headers.get("etag")).toBe(etag);
    expect((await request("GET", `/v1/evaluations/${id}`, { key, headers: { "if-none-match": "*" } })).status).toBe(304);
  }

  // another key of the same tenant has a budget of its own
  const other = await newKey(tenant);
  const theirs = await request("GET", `/v1/evaluations/${id}`, { key: other });
  expect(theirs.status).toBe(200);
  expect(theirs.headers.get("etag")).toBe(etag);

  // Retry-After is enough: the evaluation still runs, and the key reads it in full again
  await new Promise((r) => setTimeout(r, Number(retryAfter) * 1000));
  const again = await request("GET", `/v1/evaluations/${id}`, { key });
  expect(again.status).toBe(200);
  expect(again.json.status).toBe("running");
  expect(again.json.answers).toHaveLength(ANSWERS);
}
