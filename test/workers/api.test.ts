import { describe, expect, it } from "vitest";
import { ADMIN, answers, countRows, newKey, request, uniqueTag } from "./helpers";

const valid = () => ({ question: "What is a stack? [tag:api]", answers: answers([3, 5]) });
/** An object `depth` levels deep: {"a": {"a": ... {} }}. */
const nested = (depth: number) => {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < depth; i++) value = { a: value };
  return value;
};

describe("keys", () => {
  it("issues a key for a tenant with the admin token and stores only its hash", async () => {
    const r = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant: "acme" } });
    expect(r.status).toBe(201);
    // the tenant's first key also brings its webhook signing secret, shown once
    expect(r.json).toEqual({
      key: expect.stringMatching(/^kj_[A-Za-z0-9_-]{40,}$/),
      id: expect.any(String),
      tenant: "acme",
      // a key made without scopes has the full access every key had before them
      scopes: ["read", "write"],
      collectionId: null,
      expiresAt: null,
      // null: the service's RATE_LIMIT_PER_MINUTE applies
      rateLimitPerMinute: null,
      webhookSecret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const second = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant: "acme" } });
    expect(second.json.webhookSecret).toBeUndefined();
    const { env } = await import("cloudflare:workers");
    const stored = await env.DB.prepare("SELECT key_hash FROM api_keys WHERE tenant = 'acme'").all<{ key_hash: string }>();
    expect(stored.results.map((x) => x.key_hash)).not.toContain(r.json.key);
    expect(stored.results[0].key_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a wrong or missing admin token, and an API key in its place", async () => {
    const key = await newKey("acme");
    for (const auth of [undefined, "wrong", key]) {
      const r = await request("POST", "/v1/keys", { key: auth, body: { tenant: "evil" } });
      expect(r.status).toBe(401);
      expect(r.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  it("validates the tenant name", async () => {
    const r = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant: "" } });
    expect(r.status).toBe(400);
    expect(r.json.errors).toContainEqual({ field: "tenant", reason: "must not be empty" });
  });
});

describe("authentication", () => {
  it("answers 401 without a key and with an unknown key, on every /v1 route", async () => {
    for (const [method, path] of [
      ["POST", "/v1/evaluations"],
      ["GET", "/v1/evaluations/ev_123"],
    ]) {
      for (const key of [undefined, "kj_not-a-real-key"]) {
        const r = await request(method, path, { key, body: method === "GET" ? undefined : valid() });
        expect(r.status, `${method} ${path} key=${key}`).toBe(401);
        expect(r.headers.get("content-type")).toBe("application/problem+json");
        expect(r.json.status).toBe(401);
      }
    }
  });

  it("hides another tenant's evaluation as a 404", async () => {
    const acme = await newKey("acme");
    const globex = await newKey("globex");
    const created = await request("POST", "/v1/evaluations", { key: acme, body: valid() });
    expect(created.status).toBe(202);
    expect((await request("GET", `/v1/evaluations/${created.json.id}`, { key: acme })).status).toBe(200);
    const other = await request("GET", `/v1/evaluations/${created.json.id}`, { key: globex });
    expect(other.status).toBe(404);
    expect(other.json).toEqual({ type: "about:blank", title: "Not Found", status: 404, detail: "no such evaluation" });
  });
});

describe("bad bodies get a 400 problem naming the field, and create nothing", () => {
  const many = (n: number) => answers(Array.from({ length: n }, () => 1));
  const cases: [string, unknown, string][] = [
    ["no question", { answers: answers([1, 2]) }, "question"],
    ["empty question", { question: "  ", answers: answers([1, 2]) }, "question"],
    ["one answer", { question: "Q", answers: answers([1]) }, "answers"],
    ["no answers", { question: "Q" }, "answers"],
    ["257 answers", { question: "Q", answers: many(257) }, "answers"],
    [
      "duplicate ids",
      {
        question: "Q",
        answers: [
          { id: "x", text: "a" },
          { id: "y", text: "b" },
          { id: "x", text: "c" },
        ],
      },
      "answers[2].id",
    ],
    ["maxScore 0", { ...valid(), maxScore: 0 }, "maxScore"],
    ["maxScore negative", { ...valid(), maxScore: -5 }, "maxScore"],
    ["maxScore a string", { ...valid(), maxScore: "10" }, "maxScore"],
    ["question a number", { question: 42, answers: answers([1, 2]) }, "question"],
    [
      "answer text a number",
      {
        question: "Q",
        answers: [
          { id: "a", text: 1 },
          { id: "b", text: "x" },
        ],
      },
      "answers[0].text",
    ],
    ["answers an object", { question: "Q", answers: { id: "a" } }, "answers"],
    ["debias a string", { ...valid(), debias: "yes" }, "debias"],
    ["unknown method", { ...valid(), method: "swiss" }, "method"],
    ["unknown template", { ...valid(), template: "poetry" }, "template"],
    ["seed not an integer", { ...valid(), seed: 1.5 }, "seed"],
    ["temperature out of range", { ...valid(), judge: { temperature: 5 } }, "judge.temperature"],
    ["webhook not a url", { ...valid(), webhook: { url: "not a url" } }, "webhook.url"],
    ["reviewShare 0", { ...valid(), reviewShare: 0 }, "reviewShare"],
    ["reviewShare above 1", { ...valid(), reviewShare: 1.5 }, "reviewShare"],
    ["reviewThreshold 1", { ...valid(), reviewThreshold: 1 }, "reviewThreshold"],
    ["unknown field", { ...valid(), debaised: true }, "debaised"],
    ["body an array", [valid()], "(body)"],
    ["metadata nested 33 deep", { ...valid(), metadata: nested(33) }, "metadata"],
    ["metadata over 16 KiB", { ...valid(), metadata: { notes: "x".repeat(16 * 1024) } }, "metadata"],
    ["metadata over 16 KiB in UTF-8, not in characters", { ...valid(), metadata: { notes: "€".repeat(6_000) } }, "metadata"],
  ];

  for (const [name, body, field] of cases) {
    it(name, async () => {
      const tenant = uniqueTag("acme");
      const key = await newKey(tenant);
      const before = await countRows("evaluations", tenant);
      const r = await request("POST", "/v1/evaluations", { key, body });
      expect(r.status).toBe(400);
      expect(r.headers.get("content-type")).toBe("application/problem+json");
      expect(r.json.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(r.json.errors.every((e: { reason: string }) => e.reason.length > 0)).toBe(true);
      expect(await countRows("evaluations", tenant)).toBe(before);
    });
  }

  it("metadata as deep as the limit is kept and read back, in the result and the tenant's list", async () => {
    const tenant = uniqueTag("acme");
    const key = await newKey(tenant);
    const r = await request("POST", "/v1/evaluations", { key, body: { ...valid(), metadata: nested(32) } });
    expect(r.status).toBe(202);
    expect((await request("GET", `/v1/evaluations/${r.json.id}`, { key })).json.metadata).toEqual(nested(32));
    expect((await request("GET", "/v1/evaluations", { key })).status).toBe(200);
    // 8,000 deep fits in 16 KiB; the service once kept it, and every read of it then failed (written by hand:
    // JSON.stringify here overflows too)
    const deep = `{"a":`.repeat(7_999) + "{}" + "}".repeat(7_999);
    const raw = `${JSON.stringify(valid()).slice(0, -1)},"metadata":${deep}}`;
    const refused = await request("POST", "/v1/evaluations", { key, raw, headers: { "content-type": "application/json" } });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual([{ field: "metadata", reason: "nests more than 32 levels deep" }]);
    expect(await countRows("evaluations", tenant)).toBe(1);
    const batch = await request("POST", "/v1/batches", { key, body: { items: [valid()], metadata: nested(33) } });
    expect(batch.status).toBe(400);
    expect(batch.json.errors).toEqual([{ field: "metadata", reason: "nests more than 32 levels deep" }]);
  });

  it("a debias the service does not know names the values it takes", async () => {
    const key = await newKey(uniqueTag("acme"));
    const r = await request("POST", "/v1/evaluations", { key, body: { ...valid(), debias: "true" } });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([{ field: "debias", reason: 'must be true, false or "adaptive"' }]);
  });

  it("malformed JSON", async () => {
    const key = await newKey("acme");
    const r = await request("POST", "/v1/evaluations", { key, raw: '{"question": ', headers: { "content-type": "application/json" } });
    expect(r.status).toBe(400);
    expect(r.json.errors).toEqual([{ field: "(body)", reason: "invalid JSON" }]);
  });

  it("a body that is not declared as JSON", async () => {
    const key = await newKey("acme");
    const r = await request("POST", "/v1/evaluations", { key, raw: JSON.stringify(valid()), headers: { "content-type": "text/plain" } });
    expect(r.status).toBe(415);
  });
});

describe("routing", () => {
  it("answers unknown routes with 404 and wrong methods with 405", async () => {
    const key = await newKey("acme");
    const missing = await request("GET", "/v1/nothing-here", { key });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
    const wrong = await request("DELETE", "/v1/keys", { key });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("POST");
    const put = await request("PUT", "/v1/evaluations/ev_1", { key });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, DELETE");
  });

  it("accepts a valid body with 202 and fills the defaults", async () => {
    const key = await newKey("acme");
    const r = await request("POST", "/v1/evaluations", { key, body: valid() });
    expect(r.status).toBe(202);
    expect(r.json).toEqual({ id: expect.stringMatching(/^ev_[0-9a-f]{32}$/), status: "queued" });
    const got = await request("GET", `/v1/evaluations/${r.json.id}`, { key });
    expect(got.json).toMatchObject({ id: r.json.id, method: "knockout", debias: true, maxScore: 10, template: "exam" });
    expect(["queued", "running", "completed"]).toContain(got.json.status);
  });
});
