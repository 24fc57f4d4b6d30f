import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DAY_MS, RETENTION_CRON } from "../../src/model/retention";
import worker from "../../src/worker/index";
import { placesHolding } from "./data-scan";
import { gateIdle, newKey, postEvaluation, request, uniqueTag, until, waitUntilDone } from "./helpers";

/** Moves a row's creation back by `days`, as if it had been made then. */
async function backdate(table: "evaluations" | "batches" | "collections", id: string, days: number) {
  await env.DB.prepare(`UPDATE ${table} SET created_at = created_at - ? WHERE id = ?`)
    .bind(days * DAY_MS, id)
    .run();
}

/** The daily Cron Trigger, fired as Cloudflare fires it, at `scheduledTime`; waits for all it does. */
async function retentionRun(scheduledTime: number) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime, cron: RETENTION_CRON }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** An evaluation whose every text carries `canary`, run to its end. */
async function evaluationWith(key: string, canary: string, extra: Record<string, unknown> = {}) {
  const id = await postEvaluation(key, {
    question: `What is a heap? [tag:${uniqueTag("ret")}]`,
    maxScore: 10,
    answers: [1, 2].map((n) => ({ id: `${canary}-${n}`, examinee: `${canary} Student ${n}`, text: `${canary} q=${n + 4}.` })),
    ...extra,
  });
  await waitUntilDone(id, key);
  return id;
}

const canaryOf = (part: string) => `rcnry${crypto.randomUUID().slice(0, 8)}${part}`;

describe("retention: PUT /v1/tenant/settings and the hourly run", () => {
  it("refuses a bad setting naming the field, and a key without the admin scope; GET shows none by default", async () => {
    const tenant = uniqueTag("ret-refuse");
    const admin = await newKey(tenant, ["admin"]);
    const writer = await newKey(tenant);
    const shown = await request("GET", "/v1/tenant/settings", { key: writer });
    expect(shown.status).toBe(200);
    expect(shown.json.retentionDays).toBeNull();
    expect(shown.json.nextRun.counts).toEqual({ evaluations: 0, batches: 0, collections: 0 });
    expect(Date.parse(shown.json.nextRun.at)).toBeGreaterThan(Date.now());
    // the next full hour: the hourly run
    expect(Date.parse(shown.json.nextRun.at) % 3_600_000).toBe(0);
    expect(Date.parse(shown.json.nextRun.at)).toBeLessThanOrEqual(Date.now() + 3_600_000);

    expect((await request("PUT", "/v1/tenant/settings", { key: writer, body: { retentionDays: 30 } })).status).toBe(403);
    for (const bad of [0, 1.5, 4000, "30"]) {
      const r = await request("PUT", "/v1/tenant/settings", { key: admin, body: { retentionDays: bad } });
      expect(r.status, String(bad)).toBe(400);
      expect(JSON.stringify(r.json)).toContain("retentionDays");
    }
    const batchItem = await request("POST", "/v1/batches", {
      key: admin,
      body: {
        items: [
          {
            question: "Q",
            answers: [
              { id: "a", text: "x" },
              { id: "b", text: "y" },
            ],
            retentionDays: 3,
          },
        ],
      },
    });
    expect(batchItem.status).toBe(400);
    expect(JSON.stringify(batchItem.json)).toContain("items[0].retentionDays");
    expect((await request("GET", "/v1/tenant/settings", { key: admin })).json.retentionDays).toBeNull();
    // refusals changed nothing, so the audit trail has no settings line
    const trail = (await request("GET", "/v1/audit?limit=100", { key: admin })).json.data;
    expect(trail.filter((l: { what: string }) => l.what === "settings.change")).toEqual([]);
  });

  it("erases what is older than its retention through erase(): 410, audit lines, nothing left; the young and the overridden stay", async () => {
    const tenant = uniqueTag("ret-tenant");
    const key = await newKey(tenant, ["admin"]);
    const set = await request("PUT", "/v1/tenant/settings", { key, body: { retentionDays: 30 } });
    expect(set.status).toBe(200);
    expect(set.json.retentionDays).toBe(30);
    // a tenant without a retention: only what names its own is ever erased by age
    const plainTenant = uniqueTag("ret-plain");
    const plain = await newKey(plainTenant, ["admin"]);

    const c = {
      old: canaryOf("O"),
      young: canaryOf("Y"),
      long: canaryOf("L"),
      batch: canaryOf("B"),
      own: canaryOf("W"),
      plainOld: canaryOf("P"),
    };
    const old = await evaluationWith(key, c.old);
    const young = await evaluationWith(key, c.young);
    const long = await evaluationWith(key, c.long, { retentionDays: 365 });
    const own = await evaluationWith(plain, c.own, { retentionDays: 5 });
    const plainOld = await evaluationWith(plain, c.plainOld);
    const batch = await request("POST", "/v1/batches", {
      key,
      body: {
        retentionDays: 2,
        items: [1, 2].map((k) => ({
          question: `Question ${k} [tag:${uniqueTag("ret-b")}]`,
          maxScore: 10,
          answers: [1, 2].map((n) => ({ id: `${c.batch}-${k}${n}`, text: `${c.batch} q=${n + 3}.` })),
        })),
      },
    });
    expect(batch.status).toBe(202);
    const questions = await until("the batch to end", async () => {
      const b = (await request("GET", `/v1/batches/${batch.json.id}`, { key })).json;
      return b.status === "completed" ? (b.evaluations as string[]) : null;
    });

    // a collection of the plain tenant naming its own retention of 1 day, another of none
    const collectionBody = { question: "What is a queue?", maxScore: 10, allowedOrigins: ["https://course.example"] };
    const shortCollection = (await request("POST", "/v1/collections", { key: plain, body: { ...collectionBody, retentionDays: 1 } })).json
      .id;
    const keptCollection = (await request("POST", "/v1/collections", { key: plain, body: collectionBody })).json.id;
    await backdate("collections", shortCollection, 2);
    await backdate("collections", keptCollection, 2);

    // time moved forward: the old one 31 days back (past the tenant's 30), the long one too (its own
    // 365 wins), the batch 3 days back (past its own 2, short of the tenant's), the plain tenant's 6 and 400
    await backdate("evaluations", old, 31);
    await backdate("evaluations", long, 31);
    await backdate("batches", batch.json.id, 3);
    await backdate("evaluations", own, 6);
    await backdate("evaluations", plainOld, 400);

    const preview = (await request("GET", "/v1/tenant/settings", { key })).json;
    expect(preview.nextRun.evaluations).toEqual([old]);
    expect(preview.nextRun.batches).toEqual([batch.json.id]);
    expect(preview.nextRun.counts).toEqual({ evaluations: 1, batches: 1, collections: 0 });
    expect(preview.nextRun.later).toBe(0);
    const plainPreview = (await request("GET", "/v1/tenant/settings", { key: plain })).json.nextRun;
    expect([plainPreview.evaluations, plainPreview.collections]).toEqual([[own], [shortCollection]]);

    await retentionRun(Date.now());

    for (const [id, k] of [[old, key], [own, plain], [batch.json.id, key], ...questions.map((q) => [q, key])]) {
      const path = id.startsWith("ba_") ? `/v1/batches/${id}` : `/v1/evaluations/${id}`;
      const gone = await request("GET", path, { key: k });
      expect(gone.status, id).toBe(410);
      expect(gone.json.erased.by).toBe("retention");
    }
    for (const [id, k] of [
      [young, key],
      [long, key],
      [plainOld, plain],
    ])
      expect((await request("GET", `/v1/evaluations/${id}`, { key: k })).status, id).toBe(200);
    for (const erased of [c.old, c.own, c.batch]) expect(await placesHolding(erased), erased).toEqual([]);
    for (const kept of [c.young, c.long, c.plainOld]) expect(await placesHolding(kept), kept).not.toEqual([]);

    // the trail: who set the retention, and the run's erasures, by "retention", ids only
    const trail = (await request("GET", "/v1/audit?limit=100", { key })).json.data as {
      who: string;
      what: string;
      evaluationId: string | null;
      detail: unknown;
    }[];
    expect(trail.find((l) => l.what === "settings.change")).toMatchObject({ detail: { retentionDays: 30 } });
    expect(trail.filter((l) => l.who === "retention").map((l) => [l.what, l.evaluationId ?? l.detail])).toEqual(
      expect.arrayContaining([
        ["evaluation.erase", old],
        ["batch.erase", { batchId: batch.json.id }],
      ]),
    );
    expect(JSON.stringify(trail)).not.toContain(c.old);

    // a second run finds nothing more to do; the settings show nothing due
    await retentionRun(Date.now());
    expect((await request("GET", "/v1/tenant/settings", { key })).json.nextRun.counts).toEqual({
      evaluations: 0,
      batches: 0,
      collections: 0,
    });
    // a run scheduled far enough ahead takes the young one too: time moved forward by the controller
    await retentionRun(Date.now() + 31 * DAY_MS);
    expect((await request("GET", `/v1/evaluations/${young}`, { key })).status).toBe(410);
    expect((await request("GET", `/v1/evaluations/${long}`, { key })).status).toBe(200);
    await gateIdle();
  });
});
