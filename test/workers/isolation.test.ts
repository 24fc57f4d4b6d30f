import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/api/app";
import { inject } from "vitest";
import { ADMIN, answers, request, uniqueTag, waitUntilDone } from "./helpers";

async function tenant(name: string) {
  const r = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant: `${name}-${uniqueTag("t")}` } });
  return { key: r.json.key as string, tenant: r.json.tenant as string, secret: r.json.webhookSecret as string };
}

describe("tenant isolation on every route that reads or writes data", () => {
  it("another tenant's evaluation is a 404 everywhere, and is never listed, cancelled or changed", async () => {
    const alice = await tenant("alice");
    const bob = await tenant("bob");
    const mine = await request("POST", "/v1/evaluations", {
      key: alice.key,
      body: {
        question: `Q [tag:${uniqueTag("iso")}]`,
        answers: answers([1, 2]),
        webhook: { url: `http://127.0.0.1:${inject("receiverPort")}/hook/${uniqueTag("iso")}/200` },
      },
    });
    const id = mine.json.id;
    await waitUntilDone(id, alice.key);
    const running = await request("POST", "/v1/evaluations", {
      key: alice.key,
      body: { question: `Q [tag:${uniqueTag("iso")}] [hold-after:0]`, answers: answers([1, 2]) },
    });

    for (const [method, path] of [
      ["GET", `/v1/evaluations/${id}`],
      ["GET", `/v1/evaluations/${id}/deliveries`],
      ["DELETE", `/v1/evaluations/${id}`],
      ["GET", `/v1/evaluations/${running.json.id}`],
      ["DELETE", `/v1/evaluations/${running.json.id}`],
      ["GET", `/v1/evaluations/${running.json.id}/deliveries`],
    ]) {
      const r = await request(method, path, { key: bob.key });
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(JSON.stringify(r.json)).not.toContain(alice.tenant);
    }
    // bob's list holds none of alice's; alice's holds both of hers
    expect((await request("GET", "/v1/evaluations", { key: bob.key })).json.data).toEqual([]);
    const hers = (await request("GET", "/v1/evaluations", { key: alice.key })).json.data.map((e: { id: string }) => e.id);
    expect(hers.sort()).toEqual([id, running.json.id].sort());
    // bob's DELETE did not cancel alice's running evaluation
    expect((await request("GET", `/v1/evaluations/${running.json.id}`, { key: alice.key })).json.status).not.toBe("cancelled");
    expect((await request("GET", `/v1/evaluations/${id}/deliveries`, { key: alice.key })).json.data).toHaveLength(1);
    expect((await request("DELETE", `/v1/evaluations/${running.json.id}`, { key: alice.key })).status).toBe(200);
  });

  it("a secret rotation changes only the caller's tenant, and an idempotency key is per tenant", async () => {
    const alice = await tenant("alice");
    const bob = await tenant("bob");
    const secretOf = async (t: string) =>
      (await env.DB.prepare("SELECT secret FROM webhook_secrets WHERE tenant = ?").bind(t).first<{ secret: string }>())!.secret;
    expect(await secretOf(alice.tenant)).toBe(alice.secret);
    const rotated = await request("POST", "/v1/webhook-secret/rotate", { key: bob.key });
    expect(await secretOf(bob.tenant)).toBe(rotated.json.webhookSecret);
    expect(await secretOf(alice.tenant)).toBe(alice.secret);

    const body = { question: `Q [tag:${uniqueTag("iso")}]`, answers: answers([1, 2]) };
    const a = await request("POST", "/v1/evaluations", { key: alice.key, body, headers: { "idempotency-key": "same" } });
    const b = await request("POST", "/v1/evaluations", { key: bob.key, body, headers: { "idempotency-key": "same" } });
    expect(b.status).toBe(202);
    expect(b.json.id).not.toBe(a.json.id);
    expect((await request("GET", `/v1/evaluations/${b.json.id}`, { key: alice.key })).status).toBe(404);
  });

  it("every data route refuses a request without a valid key", async () => {
    for (const [method, path] of [
      ["GET", "/v1/evaluations"],
      ["POST", "/v1/evaluations"],
      ["GET", "/v1/evaluations/ev_x"],
      ["DELETE", "/v1/evaluations/ev_x"],
      ["GET", "/v1/evaluations/ev_x/deliveries"],
      ["GET", "/v1/batches/ba_x/deliveries"],
      ["POST", "/v1/webhook-secret/rotate"],
    ]) {
      for (const key of [undefined, "kj_not-a-key", ADMIN]) {
        const r = await request(method, path, { key, body: method === "POST" ? {} : undefined });
        expect(r.status, `${method} ${path} ${key}`).toBe(401);
      }
    }
  });

  /**
   * The threat model (docs/security.md) names the routes that take no key; this holds it to the app's routes: a
   * route added without a key check, or a public one not named there, fails here.
   */
  it("answers without a key only on the public routes the threat model lists", async () => {
    const PUBLIC = new Set([
      "GET /health",
      "GET /openapi.json",
      "GET /v1/meta",
      "GET /v1/shared/:token",
      "GET /v1/receipts/:token",
      "GET /v1/public/collections/:token",
      "OPTIONS /v1/public/collections/:token/answers",
      "POST /v1/public/collections/:token/answers",
      "GET /share/:token",
      "GET /receipt/:token",
      "GET /embed/:token",
      // LTI 1.3: the LMS's login and launch (the platform's signature is their credential), the tool's public keys,
      // and the forms of the pages a launch lands on (the page's session token is theirs)
      "GET /lti/login",
      "POST /lti/login",
      "POST /lti/launch",
      "GET /lti/jwks",
      "POST /lti/deep-link",
      "POST /lti/answer",
    ]);
    const routes = createApp().routes.filter((r) => r.method !== "ALL");
    const seen = new Set<string>();
    for (const route of routes) {
      const name = `${route.method} ${route.path}`;
      seen.add(name);
      const r = await request(route.method, route.path.replace(/:[^/]+/g, "x_nothing"), { body: route.method === "POST" ? {} : undefined });
      if (PUBLIC.has(name)) expect(r.status, name).not.toBe(401);
      else expect(r.status, name).toBe(401);
    }
    for (const name of PUBLIC) expect(seen.has(name), `${name} is still a route`).toBe(true);
  });
});
