import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { beginErasure } from "../../src/db/erasures";
import { ERASED_ANSWER } from "../../src/evaluations/subject-erasure";
import { tournamentStub } from "../../src/platform/stubs";
import { seedCanary } from "./canary-seed";
import { placesHolding } from "./data-scan";
import { ADMIN, answers, judgeLog, newKey, request, uniqueTag, until, releaseJudge } from "./helpers";

const canaryOf = () => `cnry${crypto.randomUUID().slice(0, 8)}`;

/** What a public page answers (not JSON): its status and text. */
async function page(path: string) {
  const { exports } = await import("cloudflare:workers");
  const r = await (exports as unknown as { default: Fetcher }).default.fetch(new Request(`http://service.test${path}`));
  return { status: r.status, text: await r.text() };
}

function expectTombstone(body: unknown, id: string) {
  expect(body).toEqual({ id, status: "erased", erasedAt: expect.any(String), by: expect.stringMatching(/./) });
}

describe("erasure: POST /v1/{evaluations,batches,collections}/:id/erase", () => {
  it("erases each part everywhere the data map lists; what remains answers 410, links and receipts included", async () => {
    const tenant = uniqueTag("erase-tenant");
    const key = await newKey(tenant, ["admin"]);
    const writer = await newKey(tenant);
    const other = await newKey(uniqueTag("erase-other"), ["admin"]);
    const canary = canaryOf();
    const seeded = await seedCanary(key, canary);
    expect(await placesHolding(`${canary}E`)).not.toEqual([]);

    // another tenant's is a 404 and erases nothing; none at all is a 404
    expect((await request("POST", `/v1/evaluations/${seeded.evaluation}/erase`, { key: other })).status).toBe(404);
    expect((await request("POST", "/v1/evaluations/ev_nothing/erase", { key })).status).toBe(404);
    expect(await placesHolding(`${canary}E`)).not.toEqual([]);

    // erasing cannot be undone: a key of the tenant without the admin scope is refused, and erases nothing
    for (const path of [`/v1/evaluations/${seeded.evaluation}/erase`, `/v1/batches/${seeded.batch}/erase`, "/v1/subjects/erase"]) {
      const refused = await request("POST", path, {
        key: writer,
        body: path.includes("subjects") ? { examinee: `${canary}E` } : undefined,
      });
      expect(refused.status, path).toBe(403);
      expect(refused.headers.get("content-type")).toContain("application/problem+json");
    }
    expect(await placesHolding(`${canary}E`)).not.toEqual([]);

    // the evaluation: gone from everywhere; the batch and the collection stay whole
    const first = await request("POST", `/v1/evaluations/${seeded.evaluation}/erase`, { key });
    expect(first.status).toBe(200);
    expectTombstone(first.json, seeded.evaluation);
    expect(await placesHolding(`${canary}E`)).toEqual([]);
    expect(await placesHolding(`${canary}B`)).not.toEqual([]);
    expect(await placesHolding(`${canary}C`)).not.toEqual([]);
    // twice is the same 200
    expect(await request("POST", `/v1/evaluations/${seeded.evaluation}/erase`, { key })).toMatchObject({ status: 200, json: first.json });
    for (const path of ["", "/deliveries", "/events", `/answers/${canary}E-e1/grade/history`]) {
      const r = await request("GET", `/v1/evaluations/${seeded.evaluation}${path}`, { key });
      expect(r.status, path).toBe(410);
      expect(r.json.erased).toEqual(first.json);
    }
    expect((await request("GET", `/v1/evaluations/${seeded.evaluation}`, { key: other })).status).toBe(404);
    expect((await request("GET", `/v1/shared/${seeded.share}`)).status).toBe(410);
    const sharePage = await page(`/share/${seeded.share}`);
    expect(sharePage.status).toBe(410);
    expect(sharePage.text).toContain("This was removed");

    // the batch, with every one of its questions
    const batch = await request("POST", `/v1/batches/${seeded.batch}/erase`, { key });
    expect(batch.status).toBe(200);
    expectTombstone(batch.json, seeded.batch);
    expect(await placesHolding(`${canary}B`)).toEqual([]);
    expect((await request("GET", `/v1/batches/${seeded.batch}`, { key })).status).toBe(410);
    for (const question of seeded.batchQuestions) expect((await request("GET", `/v1/evaluations/${question}`, { key })).status).toBe(410);

    // the collection, its receipts, its form and the evaluation that graded it
    const collection = await request("POST", `/v1/collections/${seeded.collection}/erase`, { key });
    expect(collection.status).toBe(200);
    expect(await placesHolding(canary)).toEqual([]);
    expect((await request("GET", `/v1/collections/${seeded.collection}`, { key })).status).toBe(410);
    expect((await request("GET", `/v1/evaluations/${seeded.collectionEvaluation}`, { key })).status).toBe(410);
    for (const receipt of seeded.receipts) {
      expect((await request("GET", `/v1/receipts/${receipt}`)).status).toBe(410);
      const receiptPage = await page(`/receipt/${receipt}`);
      expect(receiptPage.status).toBe(410);
      expect(receiptPage.text).toContain("This was removed");
    }
    expect((await request("GET", `/v1/public/collections/${seeded.publicToken}`)).status).toBe(410);
    expect((await page(`/embed/${seeded.publicToken}`)).status).toBe(410);

    // the audit trail says who erased what and when, once each (the repeated erase changed nothing),
    // and keeps its earlier lines without the answers they named
    const trail = await request("GET", "/v1/audit?limit=100", { key });
    expect(trail.status).toBe(200);
    const erasures = trail.json.data.filter((l: { what: string }) => l.what.endsWith(".erase"));
    expect(erasures.map((l: any) => [l.what, l.evaluationId ?? l.collectionId ?? l.detail?.batchId])).toEqual([
      ["evaluation.erase", seeded.evaluation],
      ["batch.erase", seeded.batch],
      ["collection.erase", seeded.collection],
    ]);
    expect(new Set(erasures.map((l: { who: string }) => l.who)).size).toBe(1);
    expect(JSON.stringify(trail.json)).not.toContain(canary);
  });

  it("cancels a running evaluation first: its held calls are abandoned, its object emptied and its alarm cleared", async () => {
    const key = await newKey(uniqueTag("erase-running"), ["admin"]);
    const tag = uniqueTag("erase-hold");
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: { question: `Explain recursion. [tag:${tag}] [hold-after:2]`, answers: answers([3, 8, 1, 6]), debias: true },
    });
    const id = created.json.id as string;
    await until("the judge holds calls", async () => (await judgeLog(tag)).length > 2);
    const erased = await request("POST", `/v1/evaluations/${id}/erase`, { key });
    expect(erased.status).toBe(200);
    const asked = (await judgeLog(tag)).length;
    await releaseJudge(tag);
    const stub = tournamentStub(env, id);
    const left = await runInDurableObject(stub, async (_i: unknown, state: DurableObjectState) => ({
      alarm: await state.storage.getAlarm(),
      answers: state.storage.sql.exec("SELECT * FROM answer").toArray().length,
      evaluation: state.storage.sql.exec("SELECT * FROM evaluation").toArray().length,
    }));
    expect(left).toEqual({ alarm: null, answers: 0, evaluation: 0 });
    expect((await judgeLog(tag)).length).toBe(asked);
    expect((await request("GET", `/v1/evaluations/${id}`, { key })).status).toBe(410);
    const rows = await env.DB.prepare("SELECT COUNT(*) AS n FROM answers WHERE evaluation_id = ?").bind(id).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});

/** Kills the object as a restart would (see resume.test.ts: workerd's own words keep the run quiet). */
async function crash(stub: DurableObjectStub): Promise<void> {
  await runInDurableObject(stub, (_i: unknown, state: DurableObjectState) => state.abort("Instance dispose (a simulated crash)")).catch(
    () => {},
  );
}

/** A completed evaluation whose every answer, name and reply carries the canary. */
async function graded(key: string, canary: string): Promise<string> {
  const id = (
    await request("POST", "/v1/evaluations", {
      key,
      body: {
        question: `What is a queue? [tag:${uniqueTag("crash")}]`,
        feedback: "judge",
        answers: [1, 2, 3].map((n) => ({ id: `${canary}-${n}`, examinee: `${canary} ${n}`, text: `${canary} q=${n + 2}` })),
      },
    })
  ).json.id as string;
  await until("completed", async () => (await request("GET", `/v1/evaluations/${id}`, { key })).json.status === "completed");
  return id;
}

describe("an erasure cut off in the middle", () => {
  it("recorded but nothing deleted when the service died: the next request meets the tombstone and finishes it", async () => {
    const key = await newKey(uniqueTag("crash-tenant"), ["admin"]);
    const canary = canaryOf();
    const id = await graded(key, canary);
    const tenant = (await env.DB.prepare("SELECT tenant FROM evaluations WHERE id = ?").bind(id).first<{ tenant: string }>())!.tenant;
    // the erase route's first step, then the service dies: its objects with it
    await beginErasure(env.DB, { id, tenant, kind: "evaluation", by: "key_crashed", now: Date.now() });
    await crash(tournamentStub(env, id));
    expect(await placesHolding(canary)).not.toEqual([]);

    const r = await request("GET", `/v1/evaluations/${id}`, { key });
    expect(r.status).toBe(410);
    expect(r.json.erased).toEqual({ id, status: "erased", erasedAt: expect.any(String), by: "key_crashed" });
    expect(await placesHolding(canary)).toEqual([]);
  });

  it("the object emptied, then the service died before D1's rows went: erasing again finishes it, the same 200", async () => {
    const key = await newKey(uniqueTag("crash-tenant"), ["admin"]);
    const canary = canaryOf();
    const id = await graded(key, canary);
    const tenant = (await env.DB.prepare("SELECT tenant FROM evaluations WHERE id = ?").bind(id).first<{ tenant: string }>())!.tenant;
    await beginErasure(env.DB, { id, tenant, kind: "evaluation", by: "key_first", now: Date.now() });
    await tournamentStub(env, id).erase(id);
    await crash(tournamentStub(env, id));
    // D1 still holds it all; the object nothing
    const places = await placesHolding(canary);
    expect(places).toContain("d1 answers.text");
    expect(places.filter((p) => p.startsWith("do Tournament"))).toEqual([]);

    const again = await request("POST", `/v1/evaluations/${id}/erase`, { key });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ id, status: "erased", by: "key_first" });
    expect(await placesHolding(canary)).toEqual([]);
  });
});

describe("DELETE /v1/tenants/:tenant (admin)", () => {
  it("revokes the tenant's keys and erases everything it owns; again is the same 200, an unknown tenant a 404", async () => {
    const tenant = uniqueTag("erase-whole");
    const key = await newKey(tenant, ["admin"]);
    const canary = canaryOf();
    const seeded = await seedCanary(key, canary);
    expect((await request("DELETE", `/v1/tenants/${tenant}`, { key })).status).toBe(401);

    const r = await request("DELETE", `/v1/tenants/${tenant}`, { key: ADMIN });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ id: `tenant:${tenant}`, status: "erased", erasedAt: expect.any(String), by: "admin" });
    expect(await placesHolding(canary)).toEqual([]);
    expect((await request("GET", "/v1/evaluations", { key })).status).toBe(401);
    expect((await request("GET", `/v1/receipts/${seeded.receipts[0]}`)).status).toBe(410);
    expect((await request("GET", `/v1/shared/${seeded.share}`)).status).toBe(410);
    const left = await env.DB.prepare(
      "SELECT (SELECT COUNT(*) FROM webhook_secrets WHERE tenant = ?1) + (SELECT COUNT(*) FROM idempotency_keys WHERE tenant = ?1) AS n",
    )
      .bind(tenant)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);

    expect(await request("DELETE", `/v1/tenants/${tenant}`, { key: ADMIN })).toMatchObject({ status: 200, json: r.json });
    expect((await request("DELETE", `/v1/tenants/${uniqueTag("never")}`, { key: ADMIN })).status).toBe(404);
  });
});

describe("POST /v1/subjects/erase", () => {
  it("removes one person's answers from every evaluation, batch and collection; the others' results stay", async () => {
    const key = await newKey(uniqueTag("erase-subject"), ["admin"]);
    const c = canaryOf();
    const [P1, P2, P3, P4] = [`${c}-P1`, `${c}-P2`, `${c}-P3`, `${c}-P4`];
    const tag = uniqueTag("subject");
    const person = (p: string, q: number, where: string) => ({ id: `${p}-${where}`, examinee: p, text: `${p} wrote q=${q}. LIFO.` });
    const evaluation = (
      await request("POST", "/v1/evaluations", {
        key,
        body: {
          question: `What is a stack? [tag:${tag}]`,
          feedback: "judge",
          webhook: { url: `http://127.0.0.1:${inject("receiverPort")}/hook/${tag}/200` },
          // four: a first round has a match without P1, whose calls the erasure must leave as they are
          answers: [person(P1, 7, "e"), person(P2, 5, "e"), person(P3, 3, "e"), person(P4, 2, "e")],
        },
      })
    ).json.id as string;
    const batch = (
      await request("POST", "/v1/batches", {
        key,
        body: {
          webhook: { url: `http://127.0.0.1:${inject("receiverPort")}/hook/${tag}-b/500` },
          items: [{ question: `Q1 [tag:${tag}-b]`, answers: [person(P1, 6, "b"), person(P2, 4, "b")] }],
        },
      })
    ).json.id as string;
    const site = "https://course.example";
    const collection = (
      await request("POST", "/v1/collections", {
        key,
        body: { question: `What is a queue? [tag:${tag}-c]`, closing: { maxAnswers: 2 }, allowedOrigins: [site] },
      })
    ).json;
    const receipts: Record<string, string> = {};
    for (const [p, q] of [
      [P1, 6],
      [P2, 4],
    ] as const) {
      const r = await request("POST", `/v1/public/collections/${collection.publicToken}/answers`, {
        body: { text: `${p} submitted q=${q}`, name: p },
        headers: { origin: site, "cf-connecting-ip": "203.0.113.9" },
      });
      receipts[p] = r.json.receiptToken;
    }
    await until("all graded", async () => {
      const e = (await request("GET", `/v1/evaluations/${evaluation}?exclude=texts`, { key })).json.status;
      const b = (await request("GET", `/v1/batches/${batch}`, { key })).json.status;
      const col = (await request("GET", `/v1/collections/${collection.id}`, { key })).json.evaluation?.status;
      const hooks = (await request("GET", `/v1/batches/${batch}/deliveries`, { key })).json.data.length;
      return e === "completed" && b === "completed" && col === "completed" && hooks > 0 ? true : null;
    });
    await request("PUT", `/v1/evaluations/${evaluation}/answers/${P1}-e/grade`, { key, body: { score: 4, note: `${P1} note` } });
    expect(await placesHolding(P1)).toContain("do WebhookDelivery message.body");
    const played = (await request("GET", `/v1/evaluations/${evaluation}`, { key })).json.matches as PlayedMatch[];

    const r = await request("POST", "/v1/subjects/erase", { key, body: { examinee: P1 } });
    expect(r.status).toBe(200);
    expect(r.json.recomputed).toBe(false);
    expect(r.json.evaluations).toHaveLength(3);
    expect(r.json.collections).toEqual([{ id: collection.id, answers: ["a1"] }]);
    expect(await placesHolding(P1)).toEqual([]);
    expect(await placesHolding(P2)).toContain("d1 answers.text");

    const after = (await request("GET", `/v1/evaluations/${evaluation}`, { key })).json;
    expect(after.answers.map((a: { id: string }) => a.id).sort()).toEqual([`${P2}-e`, `${P3}-e`, `${P4}-e`]);
    await expectCallsScrubbed(evaluation, played, `${P1}-e`);
    expect((await request("GET", `/v1/receipts/${receipts[P1]}`)).status).toBe(410);
    expect((await request("GET", `/v1/receipts/${receipts[P2]}`)).status).toBe(200);
    // nothing left to erase: the same answer, touching nothing
    expect((await request("POST", "/v1/subjects/erase", { key, body: { examinee: P1 } })).json).toMatchObject({
      evaluations: [],
      collections: [],
    });
    expect((await request("POST", "/v1/subjects/erase", { key, body: {} })).status).toBe(400);
    expect((await request("POST", "/v1/subjects/erase", { key, body: { examinee: P2, answerId: "x" } })).status).toBe(400);
  });
});

interface PlayedMatch {
  a: string;
  b: string | null;
  calls: { order: string[]; raw: string }[];
}

/**
 * D1's calls of an evaluation after `erased` was erased from it, against its matches as they were
 * played: in the erased answer's matches every call's text is empty and its order names the placeholder
 * instead; every other match keeps its calls as they were, the judge's texts included.
 */
async function expectCallsScrubbed(evaluation: string, played: PlayedMatch[], erased: string) {
  const rows = await env.DB.prepare("SELECT calls FROM matches WHERE evaluation_id = ? ORDER BY idx")
    .bind(evaluation)
    .all<{ calls: string }>();
  const stored = rows.results.map((r) => JSON.parse(r.calls) as PlayedMatch["calls"]);
  expect(stored).toHaveLength(played.length);
  const theirs = played.map((m) => m.a === erased || m.b === erased);
  expect(theirs).toContain(true);
  expect(theirs).toContain(false);
  for (const [i, m] of played.entries()) {
    expect(m.calls.length).toBeGreaterThan(0);
    for (const call of m.calls) expect(call.raw).not.toBe("");
    if (!theirs[i]) {
      expect(stored[i]).toEqual(m.calls);
      continue;
    }
    expect(stored[i].map((call) => call.raw)).toEqual(m.calls.map(() => ""));
    expect(stored[i].map((call) => call.order)).toEqual(
      m.calls.map((call) => call.order.map((id) => (id === erased ? ERASED_ANSWER : id))),
    );
  }
  expect(JSON.stringify(stored)).not.toContain(erased);
}
