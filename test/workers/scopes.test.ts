import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { requiredScope } from "../../src/api/access";
import { declaredRoutes } from "../../src/api/routers";
import { ADMIN, gateIdle, newKey, postEvaluation, request, uniqueTag, until } from "./helpers";

const SITE = "https://course.example";

async function keyWith(body: Record<string, unknown>) {
  const r = await request("POST", "/v1/keys", { key: ADMIN, body });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json as { key: string; id: string; scopes: string[]; collectionId: string | null; expiresAt: string | null };
}

/** The declared path with each `{param}` standing for a resource that does not exist. */
const pathOf = (path: string) => path.replace(/\{\w+\}/g, "x_nothing");
const problem = (r: { headers: Headers }) => r.headers.get("content-type");

async function evaluationsOf(tenant: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM evaluations WHERE tenant = ?").bind(tenant).first<{ n: number }>();
  return row!.n;
}

describe("keys with scopes", () => {
  it("makes a key with full access unless asked, and names its id, scopes, collection and expiry", async () => {
    const plain = await keyWith({ tenant: uniqueTag("scopes") });
    expect(plain).toMatchObject({ id: expect.any(String), scopes: ["read", "write"], collectionId: null, expiresAt: null });
    const reader = await keyWith({ tenant: uniqueTag("scopes"), scopes: ["read"], expiresAt: "2999-01-01T00:00:00+01:00" });
    expect(reader).toMatchObject({ scopes: ["read"], expiresAt: "2998-12-31T23:00:00.000Z" });

    for (const [scopes, field] of [
      [["read", "root"], "scopes[1]"],
      [["read", "read"], "scopes"],
      [[], "scopes"],
    ] as const) {
      const bad = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant: "x", scopes } });
      expect(bad.status).toBe(400);
      expect(bad.json.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    const past = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant: "x", expiresAt: "2001-01-01T00:00:00Z" } });
    expect(past.json.errors).toEqual([{ field: "expiresAt", reason: "must be in the future" }]);
    const strange = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant: "x", collectionId: "col_nope" } });
    expect(strange.status).toBe(400);
    expect(strange.json.errors[0].field).toBe("collectionId");
  });

  it("refuses a read-only key with 403 problem+json on every route that writes, and writes nothing", async () => {
    const tenant = uniqueTag("read-only");
    const reader = await keyWith({ tenant, scopes: ["read"] });
    const writing = declaredRoutes().filter((d) => d.auth === "key" && requiredScope(d) !== "read");
    expect(writing.length).toBeGreaterThan(12);
    for (const d of writing) {
      const method = d.method.toUpperCase();
      const r = await request(method, pathOf(d.path), { key: reader.key, ...(d.method === "get" ? {} : { body: {} }) });
      expect(r.status, `${method} ${d.path}`).toBe(403);
      expect(problem(r)).toBe("application/problem+json");
      expect(r.json.detail).toContain(`needs the "${requiredScope(d)}" scope`);
    }
    expect(await evaluationsOf(tenant)).toBe(0);
    // and lets it read: no read is refused for its scope
    for (const d of declaredRoutes().filter((d) => d.auth === "key" && requiredScope(d) === "read" && !d.path.endsWith("/events"))) {
      const r = await request(d.method.toUpperCase(), pathOf(d.path), { key: reader.key, ...(d.method === "get" ? {} : { body: {} }) });
      expect(r.status, `${d.method} ${d.path}`).not.toBe(403);
    }
  });

  it("refuses a key that has expired with 401, and a revoked one; a revocation is kept once", async () => {
    const tenant = uniqueTag("expiry");
    const k = await keyWith({ tenant, expiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString() });
    expect((await request("GET", "/v1/evaluations", { key: k.key })).status).toBe(200);
    // a year on: the key's expiry moved into the past, as the clock would
    await env.DB.prepare("UPDATE api_keys SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1, k.id)
      .run();
    const expired = await request("GET", "/v1/evaluations", { key: k.key });
    expect(expired.status).toBe(401);
    expect(problem(expired)).toBe("application/problem+json");
    expect(expired.json.detail).toMatch(/^this API key expired at /);

    const live = await keyWith({ tenant });
    const revoked = await request("DELETE", `/v1/keys/${live.id}`, { key: ADMIN });
    expect(revoked.status).toBe(200);
    expect(revoked.json).toEqual({ id: live.id, revokedAt: expect.any(String) });
    expect((await request("DELETE", `/v1/keys/${live.id}`, { key: ADMIN })).json).toEqual(revoked.json);
    expect((await request("DELETE", "/v1/keys/no-such-key", { key: ADMIN })).status).toBe(404);
    expect((await request("DELETE", `/v1/keys/${live.id}`, { key: live.key })).status).toBe(401);
    expect((await request("GET", "/v1/evaluations", { key: live.key })).status).toBe(401);
  });

  it("limits a course assistant's key to its collection and that collection's evaluation: anything else is 404", async () => {
    const tenant = uniqueTag("assistant");
    const owner = await newKey(tenant);
    const made = await request("POST", "/v1/collections", {
      key: owner,
      body: { question: `What is a stack? [tag:${uniqueTag("ta")}]`, maxScore: 10, closing: { maxAnswers: 2 }, allowedOrigins: [SITE] },
    });
    const collection = made.json;
    for (const [i, q] of [3, 8].entries()) {
      const sent = await request("POST", `/v1/public/collections/${collection.publicToken}/answers`, {
        body: { text: `Answer q=${q} LIFO` },
        headers: { origin: SITE, "cf-connecting-ip": `198.51.100.${i}` },
      });
      expect(sent.status).toBe(201);
    }
    const graded = await until("the collection's evaluation to complete", async () => {
      const r = await request("GET", `/v1/collections/${collection.id}`, { key: owner });
      return r.json.evaluation?.status === "completed" ? r.json : null;
    });
    const own = graded.evaluation.id as string;
    const other = await postEvaluation(owner, {
      question: "Explain a queue.",
      answers: [
        { id: "a1", text: "q=2" },
        { id: "a2", text: "q=6" },
      ],
    });
    const otherCollection = (await request("POST", "/v1/collections", { key: owner, body: { question: "Q?", allowedOrigins: [SITE] } }))
      .json;

    const ta = await keyWith({ tenant, collectionId: collection.id });
    expect(ta.collectionId).toBe(collection.id);
    expect((await request("GET", `/v1/collections/${collection.id}`, { key: ta.key })).status).toBe(200);
    expect((await request("GET", `/v1/evaluations/${own}`, { key: ta.key })).status).toBe(200);
    const answerId = graded.answers[0].id as string;
    const grade = await request("PUT", `/v1/evaluations/${own}/answers/${answerId}/grade`, { key: ta.key, body: { score: 5 } });
    expect(grade.status).toBe(200);

    // the tenant's other resources are as unknown to it as another tenant's
    const outside: [string, string, unknown?][] = [
      ["GET", `/v1/evaluations/${other}`],
      ["PUT", `/v1/evaluations/${other}/answers/a1/grade`, { score: 5 }],
      ["DELETE", `/v1/evaluations/${other}`],
      ["GET", `/v1/collections/${otherCollection.id}`],
      ["POST", `/v1/collections/${otherCollection.id}/close`],
      ["GET", "/v1/evaluations"],
      ["GET", "/v1/collections"],
      [
        "POST",
        "/v1/evaluations",
        {
          question: "Q?",
          answers: [
            { id: "a", text: "a" },
            { id: "b", text: "b" },
          ],
        },
      ],
      ["POST", `/v1/evaluations/${own}/share`],
      ["POST", "/v1/webhook-secret/rotate"],
    ];
    for (const [method, path, body] of outside) {
      const r = await request(method, path, { key: ta.key, ...(body === undefined ? {} : { body }) });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(problem(r)).toBe("application/problem+json");
    }
    // every route that does not name its collection or evaluation, not only those listed
    for (const d of declaredRoutes().filter((d) => d.auth === "key" && !d.within)) {
      const r = await request(d.method.toUpperCase(), pathOf(d.path), { key: ta.key, ...(d.method === "get" ? {} : { body: {} }) });
      expect(r.status, `${d.method} ${d.path}`).toBe(404);
    }
    expect(await evaluationsOf(tenant)).toBe(2);
    expect((await request("GET", `/v1/evaluations/${other}`, { key: owner })).status).toBe(200);
    await gateIdle();
  });
});
