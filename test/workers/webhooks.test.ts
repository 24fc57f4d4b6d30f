import { createHmac, timingSafeEqual } from "node:crypto";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { inject } from "vitest";
import { WebhookDelivery } from "../../durable-objects/webhook-delivery";
import { webhookQueueStub } from "../../src/platform/stubs";
import { misfits } from "./documented";
import { ADMIN, answers, countRows, request, uniqueTag, until, waitUntilDone } from "./helpers";

interface Received {
  headers: Record<string, string>;
  body: string;
  answered: number;
}

const hook = (tag: string, script: string) => `http://127.0.0.1:${inject("receiverPort")}/hook/${tag}/${script}`;
const received = async (tag: string): Promise<Received[]> =>
  (await fetch(`http://127.0.0.1:${inject("receiverPort")}/received?tag=${tag}`)).json();

/** Standard Webhooks verification written out with node:crypto, independent of the service's signer. */
function verifies(secret: string, r: Received): boolean {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${r.headers["webhook-id"]}.${r.headers["webhook-timestamp"]}.${r.body}`).digest();
  return r.headers["webhook-signature"].split(" ").some((entry) => {
    const [version, sig] = entry.split(",");
    const given = Buffer.from(sig ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The body fits the document's webhook of its type, and names no field the document does not. */
async function documented(body: { type: string }) {
  const doc = (await request("GET", "/openapi.json")).json;
  const schema = doc.webhooks[body.type].post.requestBody.content["application/json"].schema;
  expect(misfits(body, schema)).toEqual([]);
}

async function tenant(name: string) {
  const tenant = `${name}-${crypto.randomUUID().slice(0, 6)}`;
  const r = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant } });
  expect(r.status).toBe(201);
  return { tenant, key: r.json.key as string, secret: r.json.webhookSecret as string };
}

async function evaluate(key: string, url: string, question = "Explain a list.") {
  const created = await request("POST", "/v1/evaluations", {
    key,
    body: { question: `${question} [tag:${uniqueTag("wh")}]`, answers: answers([2, 5, 3]), webhook: { url } },
  });
  expect(created.status).toBe(202);
  return created.json.id as string;
}

describe("webhooks", () => {
  it("POSTs the completed evaluation, signed per Standard Webhooks with the tenant's secret", async () => {
    const { key, secret } = await tenant("hooked");
    const tag = uniqueTag("ok");
    const id = await evaluate(key, hook(tag, "200"));
    const result = await waitUntilDone(id, key);
    const [got] = await until("a delivery", async () => (await received(tag)).length === 1 && received(tag));
    expect(verifies(secret, got)).toBe(true);
    expect(verifies(`whsec_${Buffer.from("not the secret").toString("base64")}`, got)).toBe(false);
    expect(got.headers["webhook-id"]).toBe(`msg_evaluation_completed_${id}`);
    expect(Math.abs(Number(got.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    expect(got.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(got.body);
    expect(body.type).toBe("evaluation.completed");
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    expect(body.data).toMatchObject({ id, status: "completed", champion: result.champion });
    expect(body.data.answers.map((a: { id: string; score: number }) => [a.id, a.score])).toEqual(
      result.answers.map((a: { id: string; score: number }) => [a.id, a.score]),
    );
    await documented(body);
  });

  it("sends evaluation.failed when the evaluation fails", async () => {
    const { key } = await tenant("hooked");
    const tag = uniqueTag("failed");
    const created = await request("POST", "/v1/evaluations", {
      key,
      body: {
        question: `Q [tag:${tag}] [fault:garbage*always]`,
        answers: answers([1, 2]),
        debias: false,
        webhook: { url: hook(tag, "200") },
      },
    });
    expect((await waitUntilDone(created.json.id, key)).status).toBe("failed");
    const [got] = await until("a delivery", async () => (await received(tag)).length === 1 && received(tag));
    expect(JSON.parse(got.body)).toMatchObject({
      type: "evaluation.failed",
      data: { id: created.json.id, status: "failed", error: expect.stringContaining("could not be parsed") },
    });
  });

  it("retries a receiver that answers 500 with backoff until it accepts, and logs every attempt", async () => {
    const { key, secret } = await tenant("hooked");
    const tag = uniqueTag("retry");
    const id = await evaluate(key, hook(tag, "500,503,200"));
    await waitUntilDone(id, key);
    const got = await until("three deliveries", async () => (await received(tag)).length === 3 && received(tag));
    expect(got.map((r) => r.answered)).toEqual([500, 503, 200]);
    // the same message each time: one webhook-id, one body, each attempt freshly signed
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    for (const r of got) expect(verifies(secret, r)).toBe(true);
    const log = await until("the log to say delivered", async () => {
      const r = await request("GET", `/v1/evaluations/${id}/deliveries`, { key });
      return r.json.data?.[0]?.state === "delivered" && r.json;
    });
    expect(log.data).toHaveLength(1);
    expect(log.data[0]).toMatchObject({ type: "evaluation.completed", url: hook(tag, "500,503,200"), nextAttemptAt: null });
    expect(log.data[0].attempts.map((a: { n: number; status: number }) => [a.n, a.status])).toEqual([
      [1, 500],
      [2, 503],
      [3, 200],
    ]);
    expect(log.data[0].attempts[0].error).toBe("answered 500");
  });

  it("survives a crash of the delivery object: its alarm picks the queue up again", async () => {
    const { key, secret } = await tenant("crashy");
    const tag = uniqueTag("crash");
    const id = await evaluate(key, hook(tag, "500,200"));
    await waitUntilDone(id, key);
    await until("the first attempt", async () => (await received(tag)).length >= 1);
    const tenantName = (await env.DB.prepare("SELECT tenant FROM evaluations WHERE id = ?").bind(id).first<{ tenant: string }>())!.tenant;
    let stub = webhookQueueStub(env, tenantName);
    // the object evicted between attempts, as a restart would: only its SQLite and its alarm remain
    await evictDurableObject(stub);
    stub = webhookQueueStub(env, tenantName);
    const got = await until("the delivery after the crash", async () => {
      const all = await received(tag);
      return all.some((r) => r.answered === 200) && all;
    });
    // at least once: an attempt cut off by the crash may be made again, with the same webhook-id
    expect(got[0].answered).toBe(500);
    expect(new Set(got.map((r) => r.headers["webhook-id"])).size).toBe(1);
    for (const r of got) expect(verifies(secret, r)).toBe(true);
    await until("the log to say delivered", async () => (await stub.deliveries(id))[0].state === "delivered");
  });

  it("stops at once on 410 Gone", async () => {
    const { key } = await tenant("hooked");
    const tag = uniqueTag("gone");
    const id = await evaluate(key, hook(tag, "500,410,200"));
    await waitUntilDone(id, key);
    const log = await until("the log to say gone", async () => {
      const r = await request("GET", `/v1/evaluations/${id}/deliveries`, { key });
      return r.json.data?.[0]?.state === "gone" && r.json;
    });
    expect(log.data[0].attempts.map((a: { status: number }) => a.status)).toEqual([500, 410]);
    expect(log.data[0].nextAttemptAt).toBeNull();
    expect((await received(tag)).map((r) => r.answered)).toEqual([500, 410]);
  });

  it("keeps retrying a failing receiver and gives up only after the retry window", async () => {
    const { key } = await tenant("hooked");
    const id = await evaluate(key, hook(uniqueTag("down"), "502"));
    await waitUntilDone(id, key);
    const log = await until(
      "the log to say expired",
      async () => {
        const r = await request("GET", `/v1/evaluations/${id}/deliveries`, { key });
        return r.json.data?.[0]?.state === "expired" && r.json;
      },
      15_000,
    );
    const attempts = log.data[0].attempts;
    expect(attempts.length).toBeGreaterThan(3);
    for (const a of attempts) expect(a).toMatchObject({ status: 502, error: "answered 502" });
    // the waits between attempts grow (exponential backoff, capped)
    const at = attempts.map((a: { at: string }) => Date.parse(a.at));
    expect(at.at(-1) - at[0]).toBeGreaterThan(100);
  });

  it("rotates the secret: later deliveries verify with the new one (and, for a day, the old one too)", async () => {
    const { key, secret } = await tenant("rotating");
    const rotated = await request("POST", "/v1/webhook-secret/rotate", { key });
    expect(rotated.status).toBe(201);
    expect(rotated.json.webhookSecret).toMatch(/^whsec_/);
    expect(rotated.json.webhookSecret).not.toBe(secret);
    const tag = uniqueTag("rotated");
    await waitUntilDone(await evaluate(key, hook(tag, "200")), key);
    const [got] = await until("a delivery", async () => (await received(tag)).length === 1 && received(tag));
    expect(verifies(rotated.json.webhookSecret, got)).toBe(true);
    expect(verifies(secret, got)).toBe(true);
    expect(got.headers["webhook-signature"].split(" ")).toHaveLength(2);
  });

  it("accepts only https URLs (http only to this machine when ALLOW_INSECURE_WEBHOOKS=true), without credentials", async () => {
    const { key } = await tenant("strict");
    const bad = [
      "http://example.com/hook",
      "ftp://127.0.0.1/x",
      "https://user:pw@example.com/hook",
      "http://u@127.0.0.1:1/x",
      "not a url",
      "javascript:alert(1)",
    ];
    for (const url of bad) {
      const r = await request("POST", "/v1/evaluations", { key, body: { question: "Q", answers: answers([1, 2]), webhook: { url } } });
      expect(r.status, url).toBe(400);
      expect(r.json.errors[0].field).toBe("webhook.url");
    }
    // held at the judge and then cancelled, so nothing is ever sent to this host
    const ok = await request("POST", "/v1/evaluations", {
      key,
      body: {
        question: `Q [tag:${uniqueTag("https")}] [hold-after:0]`,
        answers: answers([1, 2]),
        webhook: { url: "https://hooks.example.com/knockout" },
      },
    });
    expect(ok.status).toBe(202);
    expect((await request("DELETE", `/v1/evaluations/${ok.json.id}`, { key })).status).toBe(200);
  });
});

describe("batch webhooks", () => {
  it("POSTs batch.completed once, when the last question of the batch ends, with the exam scores", async () => {
    const { key, secret } = await tenant("exam-hook");
    const tag = uniqueTag("batch");
    const item = (n: number) => ({
      question: `Question ${n} [tag:${tag}-${n}]`,
      answers: [
        { id: `ann-${n}`, text: `q=${4 + n}`, examinee: "ann" },
        { id: `bob-${n}`, text: `q=${1 + n}`, examinee: "bob" },
        { id: `cid-${n}`, text: `q=${2 + n}`, examinee: "cid" },
      ],
    });
    const created = await request("POST", "/v1/batches", {
      key,
      body: { items: [item(1), item(2), item(3)], webhook: { url: hook(tag, "200") } },
    });
    expect(created.status).toBe(202);
    const [got] = await until("the batch delivery", async () => (await received(tag)).length >= 1 && received(tag));
    expect(verifies(secret, got)).toBe(true);
    const body = JSON.parse(got.body);
    expect(body.type).toBe("batch.completed");
    expect(body.data).toMatchObject({ id: created.json.id, status: "completed", progress: { done: 3, total: 3, failed: 0, cancelled: 0 } });
    // every question had ended when it was sent: the exam scores are all there
    expect(body.data.examLevel.map((e: { examinee: string; questionsAnswered: number }) => [e.examinee, e.questionsAnswered])).toEqual([
      ["ann", 3],
      ["cid", 3],
      ["bob", 3],
    ]);
    await documented(body);
    await new Promise((r) => setTimeout(r, 300));
    expect(await received(tag)).toHaveLength(1);
  });

  it("refuses a batch webhook URL that is not allowed, naming the field", async () => {
    const { key } = await tenant("exam-hook");
    const r = await request("POST", "/v1/batches", {
      key,
      body: { items: [{ question: "Q", answers: answers([1, 2]) }], webhook: { url: "ftp://example.com/hook" } },
    });
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: { field: string }) => e.field)).toEqual(["webhook.url"]);
  });
});

// issue 11, defect 3: POST /v1/collections took "http://user:pass@127.0.0.1:PORT/x", "javascript:alert(1)",
// "http://2130706433:PORT" and a 5,000-character URL, and /v1/evaluations took http://2130706433:PORT (the
// parser reads it as 127.0.0.1); the stored URL was then delivered over plain http with
// ALLOW_INSECURE_WEBHOOKS=false and its credentials shown in the delivery log
describe("one webhook URL policy, wherever a URL enters and again at delivery", () => {
  const port = () => inject("receiverPort");
  const refused = () => [
    `http://user:s3cr3t@127.0.0.1:${port()}/hook/x/200`,
    "javascript:alert(1)",
    `http://2130706433:${port()}/hook/x/200`,
    `http://0x7f000001:${port()}/hook/x/200`,
    `http://0177.0.0.1:${port()}/hook/x/200`,
    `https://hooks.example.com/${"a".repeat(5_000)}`,
    "http://example.com/hook",
  ];

  it("refuses each of the attack's URLs with a 400 naming the field, on evaluations, batches (and their items) and collections, creating nothing", async () => {
    const { tenant: policy, key } = await tenant("policy");
    const question = { question: "Q", answers: answers([1, 2]) };
    const before = await Promise.all(["evaluations", "batches", "collections"].map((table) => countRows(table, policy)));
    for (const url of refused()) {
      const posts: [string, unknown, string][] = [
        ["/v1/evaluations", { ...question, webhook: { url } }, "webhook.url"],
        ["/v1/batches", { items: [question], webhook: { url } }, "webhook.url"],
        ["/v1/batches", { items: [question, { ...question, webhook: { url } }] }, "items[1].webhook.url"],
        ["/v1/collections", { question: "Q", allowedOrigins: ["https://course.example"], webhook: { url } }, "webhook.url"],
      ];
      for (const [path, body, field] of posts) {
        const r = await request("POST", path, { key, body });
        expect(r.status, `${path} ${url.slice(0, 60)}`).toBe(400);
        expect(
          r.json.errors.map((e: { field: string }) => e.field),
          `${path} ${url.slice(0, 60)}`,
        ).toEqual([field]);
        expect(JSON.stringify(r.json)).not.toContain("s3cr3t");
      }
    }
    expect(await Promise.all(["evaluations", "batches", "collections"].map((table) => countRows(table, policy)))).toEqual(before);
  });

  it("does not deliver to a URL with credentials that skipped validation, and never shows them in the delivery log", async () => {
    const { key } = await tenant("stored");
    const id = await evaluate(key, hook(uniqueTag("plain"), "200"));
    await waitUntilDone(id, key);
    const tenantName = (await env.DB.prepare("SELECT tenant FROM evaluations WHERE id = ?").bind(id).first<{ tenant: string }>())!.tenant;
    const tag = uniqueTag("creds");
    // queued as a URL stored before the rules would be: straight into the tenant's delivery queue
    await webhookQueueStub(env, tenantName).enqueue({
      id: `msg_test_${tag}`,
      tenant: tenantName,
      subject: id,
      url: `http://user:s3cr3t@127.0.0.1:${port()}/hook/${tag}/200`,
      type: "evaluation.completed",
      body: JSON.stringify({ type: "evaluation.completed", data: { id } }),
    });
    const log = await until("the delivery to be refused", async () => {
      const r = await request("GET", `/v1/evaluations/${id}/deliveries`, { key });
      const message = r.json.data?.find((m: { id: string }) => m.id === `msg_test_${tag}`);
      return message?.state !== "pending" && message;
    });
    expect(log).toMatchObject({ state: "refused", url: `http://127.0.0.1:${port()}/hook/${tag}/200`, nextAttemptAt: null });
    expect(log.attempts).toEqual([
      {
        n: 1,
        at: expect.any(String),
        status: null,
        error: expect.stringMatching(/^not sent: the URL must not carry credentials/),
        durationMs: 0,
      },
    ]);
    expect(JSON.stringify(log)).not.toContain("s3cr3t");
    expect(await received(tag)).toEqual([]);
  });

  it("does not deliver over plain http when ALLOW_INSECURE_WEBHOOKS is false, whatever was queued", async () => {
    const tag = uniqueTag("insecure");
    const tenantName = `strict-${tag}`;
    const stub = webhookQueueStub(env, tenantName);
    // the same object on its own storage, in a deployment that does not allow insecure webhooks
    const log = await runInDurableObject(stub, async (_instance: unknown, state: DurableObjectState) => {
      const strict = new WebhookDelivery(state, { ...env, ALLOW_INSECURE_WEBHOOKS: "false" });
      await strict.enqueue({
        id: `msg_${tag}`,
        tenant: tenantName,
        subject: "ev_stored",
        url: hook(tag, "200"),
        type: "evaluation.completed",
        body: "{}",
      });
      await strict.alarm();
      return strict.deliveries("ev_stored");
    });
    expect(log).toMatchObject([
      { state: "refused", attempts: [{ status: null, error: expect.stringMatching(/^not sent: the URL must be an https URL/) }] },
    ]);
    expect(await received(tag)).toEqual([]);
  });
});

// issue 11, defect 9: there was no route for a batch's delivery log (GET /v1/batches/:id/deliveries was a 404)
describe("a batch's delivery log", () => {
  it("GET /v1/batches/:id/deliveries shows the batch.completed delivery to its owner, and is a 404 to anyone else", async () => {
    const { key } = await tenant("batch-log");
    const tag = uniqueTag("batch-log");
    const created = await request("POST", "/v1/batches", {
      key,
      body: { items: [{ question: `Q [tag:${tag}]`, answers: answers([1, 3]) }], webhook: { url: hook(tag, "503,200") } },
    });
    expect(created.status).toBe(202);
    const log = await until("the batch delivery to be delivered", async () => {
      const r = await request("GET", `/v1/batches/${created.json.id}/deliveries`, { key });
      expect(r.status).toBe(200);
      return r.json.data?.[0]?.state === "delivered" && r.json;
    });
    expect(log.data).toEqual([
      {
        id: `msg_batch_completed_${created.json.id}`,
        type: "batch.completed",
        url: hook(tag, "503,200"),
        state: "delivered",
        createdAt: expect.any(String),
        nextAttemptAt: null,
        attempts: [
          { n: 1, at: expect.any(String), status: 503, error: "answered 503", durationMs: expect.any(Number) },
          { n: 2, at: expect.any(String), status: 200, error: null, durationMs: expect.any(Number) },
        ],
      },
    ]);
    const stranger = await tenant("batch-log");
    const theirs = await request("GET", `/v1/batches/${created.json.id}/deliveries`, { key: stranger.key });
    expect(theirs.status).toBe(404);
    expect(theirs.json.detail).toBe("no such batch");
    expect((await request("GET", "/v1/batches/ba_nope/deliveries", { key })).status).toBe(404);
    expect((await request("GET", `/v1/batches/${created.json.id}/deliveries`)).status).toBe(401);
    expect((await request("POST", `/v1/batches/${created.json.id}/deliveries`, { key })).status).toBe(405);
  });
});
