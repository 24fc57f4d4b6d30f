import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { limits } from "../../src/contract";
import { ADMIN, countRows, newKey, request, uniqueTag } from "./helpers";

const SITE = "https://course.example";

async function auditOf(tenant: string): Promise<string[]> {
  const rows = await env.DB.prepare("SELECT what FROM audit_log WHERE tenant = ? ORDER BY seq").bind(tenant).all<{ what: string }>();
  return rows.results.map((r) => r.what);
}

describe("a tenant's own keys: /v1/tenant/keys", () => {
  it("lets an admin key make, list and revoke the tenant's keys, never showing a key twice", async () => {
    const tenant = uniqueTag("own-keys");
    const admin = await newKey(tenant, ["read", "write", "admin"]);
    const made = await request("POST", "/v1/tenant/keys", { key: admin, body: { scopes: ["read"], expiresAt: "2999-01-01T00:00:00Z" } });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    expect(made.json).toMatchObject({ tenant, scopes: ["read"], collectionId: null, expiresAt: "2999-01-01T00:00:00.000Z" });
    const reader: string = made.json.key;
    // the new key is the tenant's, and does what its scope says
    expect((await request("GET", "/v1/tenant/settings", { key: reader })).status).toBe(200);
    expect((await request("POST", "/v1/evaluations", { key: reader, body: { question: "Q", answers: [] } })).status).toBe(403);

    const listed = await request("GET", "/v1/tenant/keys", { key: admin });
    expect(listed.status).toBe(200);
    expect(listed.json.keys.map((k: { id: string }) => k.id)).toContain(made.json.id);
    expect(JSON.stringify(listed.json)).not.toContain(reader);
    expect(listed.json.keys.find((k: { id: string }) => k.id === made.json.id)).toMatchObject({ scopes: ["read"], revokedAt: null });

    const revoked = await request("DELETE", `/v1/tenant/keys/${made.json.id}`, { key: admin });
    expect(revoked.status).toBe(200);
    expect((await request("GET", "/v1/tenant/settings", { key: reader })).status).toBe(401);
    // asking again answers the first revocation
    const again = await request("DELETE", `/v1/tenant/keys/${made.json.id}`, { key: admin });
    expect(again.json.revokedAt).toBe(revoked.json.revokedAt);
    expect(await auditOf(tenant)).toEqual(expect.arrayContaining(["key.create", "key.revoke"]));
  });

  it("refuses a key without the admin scope, and a key limited to one collection", async () => {
    const tenant = uniqueTag("own-keys-scope");
    const writer = await newKey(tenant);
    for (const [method, path] of [
      ["GET", "/v1/tenant/keys"],
      ["POST", "/v1/tenant/keys"],
      ["DELETE", "/v1/tenant/keys/x"],
    ] as const)
      expect((await request(method, path, { key: writer, body: method === "POST" ? {} : undefined })).status, path).toBe(403);

    const admin = await newKey(tenant, ["read", "write", "admin"]);
    const collection = await request("POST", "/v1/collections", { key: admin, body: { question: "Q", allowedOrigins: [SITE] } });
    expect(collection.status).toBe(201);
    const limited = await request("POST", "/v1/tenant/keys", {
      key: admin,
      body: { scopes: ["read", "write", "admin"], collectionId: collection.json.id },
    });
    expect(limited.status).toBe(201);
    // a course assistant's key cannot make itself a key for the whole tenant
    expect((await request("POST", "/v1/tenant/keys", { key: limited.json.key, body: {} })).status).toBe(404);
    expect((await request("GET", "/v1/tenant/keys", { key: limited.json.key })).status).toBe(404);
  });

  it("keeps tenants apart: another tenant's key id is unknown, and a collection must be the caller's", async () => {
    const mine = await newKey(uniqueTag("own-keys-a"), ["read", "write", "admin"]);
    const theirsTenant = uniqueTag("own-keys-b");
    const theirs = await newKey(theirsTenant, ["read", "write", "admin"]);
    const theirKey = await request("POST", "/v1/tenant/keys", { key: theirs, body: { scopes: ["read"] } });
    expect((await request("DELETE", `/v1/tenant/keys/${theirKey.json.id}`, { key: mine })).status).toBe(404);
    expect((await request("GET", "/v1/tenant/settings", { key: theirKey.json.key })).status).toBe(200);
    const listed = await request("GET", "/v1/tenant/keys", { key: mine });
    expect(listed.json.keys.map((k: { id: string }) => k.id)).not.toContain(theirKey.json.id);

    const theirCollection = await request("POST", "/v1/collections", { key: theirs, body: { question: "Q", allowedOrigins: [SITE] } });
    const stolen = await request("POST", "/v1/tenant/keys", { key: mine, body: { collectionId: theirCollection.json.id } });
    expect(stolen.status).toBe(400);
    expect(stolen.json.errors[0].field).toBe("collectionId");
    // a body naming a tenant is refused, not obeyed
    const named = await request("POST", "/v1/tenant/keys", { key: mine, body: { tenant: theirsTenant } });
    expect(named.status).toBe(400);
  });
});

/** A key the operator makes (POST /v1/keys, the admin token) with the admin scope and what `extra` sets. */
async function operatorKey(tenant: string, extra: Record<string, unknown> = {}) {
  const r = await request("POST", "/v1/keys", { key: ADMIN, body: { tenant, scopes: ["read", "write", "admin"], ...extra } });
  expect(r.status, JSON.stringify(r.json)).toBe(201);
  return r.json as { key: string; id: string; rateLimitPerMinute: number | null; expiresAt: string | null };
}

// a security tester's finding: a key limited to 5 requests a minute made itself a key with 0 ("no limit")
describe("a key a tenant makes for itself is never less limited than the key making it", () => {
  it("caps its rateLimitPerMinute at the minting key's: more, or 0 (none), is a 400 naming the ceiling, and nothing is made", async () => {
    const tenant = uniqueTag("mint-ceiling");
    const limited = await operatorKey(tenant, { rateLimitPerMinute: 7 });
    const before = { keys: await countRows("api_keys", tenant), audit: await countRows("audit_log", tenant) };
    for (const asked of [0, 8]) {
      const refused = await request("POST", "/v1/tenant/keys", { key: limited.key, body: { rateLimitPerMinute: asked } });
      expect(refused.status, String(asked)).toBe(400);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(refused.json.errors).toEqual([{ field: "rateLimitPerMinute", reason: expect.stringContaining("at most 7") }]);
    }
    expect({ keys: await countRows("api_keys", tenant), audit: await countRows("audit_log", tenant) }).toEqual(before);

    // left out: the minting key's own limit, which the new key is then held to
    const made = await request("POST", "/v1/tenant/keys", { key: limited.key, body: { scopes: ["read"] } });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    expect(made.json.rateLimitPerMinute).toBe(7);
    const lines = await request("GET", "/v1/audit", { key: limited.key });
    expect(lines.json.data.find((l: { keyId: string }) => l.keyId === made.json.id)).toMatchObject({
      what: "key.create",
      who: limited.id,
      detail: { scopes: ["read"], expiresAt: null },
    });
    for (let i = 0; i < 7; i++) expect((await request("GET", "/v1/tenant/settings", { key: made.json.key })).status).toBe(200);
    const over = await request("GET", "/v1/tenant/settings", { key: made.json.key });
    expect(over.status).toBe(429);
    expect(over.json.detail).toContain("rate limit of 7 requests per minute");
  });

  it("lets a key without a limit (the operator's 0) make one without a limit, and the operator set anything", async () => {
    const tenant = uniqueTag("mint-unlimited");
    const unlimited = await operatorKey(tenant, { rateLimitPerMinute: 0 });
    const made = await request("POST", "/v1/tenant/keys", { key: unlimited.key, body: { rateLimitPerMinute: 0 } });
    expect(made.status, JSON.stringify(made.json)).toBe(201);
    expect(made.json.rateLimitPerMinute).toBe(0);
    // the operator decides: any limit, however high, with the admin token
    expect((await operatorKey(tenant, { rateLimitPerMinute: 1_000_000 })).rateLimitPerMinute).toBe(1_000_000);
  });

  it("expires no later than the minting key: later is a 400 naming its expiry; left out, it takes the minting key's", async () => {
    const tenant = uniqueTag("mint-expiry");
    const expiring = await operatorKey(tenant, { expiresAt: "2999-01-01T00:00:00Z" });
    const later = await request("POST", "/v1/tenant/keys", { key: expiring.key, body: { expiresAt: "2999-01-02T00:00:00Z" } });
    expect(later.status).toBe(400);
    expect(later.json.errors).toEqual([
      { field: "expiresAt", reason: "must be at most 2999-01-01T00:00:00.000Z, when the key making it expires" },
    ]);
    const made = await request("POST", "/v1/tenant/keys", { key: expiring.key, body: {} });
    expect(made.status).toBe(201);
    expect(made.json.expiresAt).toBe("2999-01-01T00:00:00.000Z");
  });
});

describe(`a tenant's active keys: at most ${limits.maxActiveKeysPerTenant} it makes for itself`, () => {
  /** `n` keys of the tenant stored as the operator would have made them, `revokedAt` and `expiresAt` as given. */
  async function storeKeys(tenant: string, n: number, at: { revokedAt?: number; expiresAt?: number } = {}) {
    const insert = env.DB.prepare(
      "INSERT INTO api_keys (id, tenant, key_hash, created_at, revoked_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
    );
    await env.DB.batch(
      Array.from({ length: n }, () =>
        insert.bind(crypto.randomUUID(), tenant, crypto.randomUUID(), Date.now(), at.revokedAt ?? null, at.expiresAt ?? null),
      ),
    );
  }

  it("refuses the one past the cap with a 409 that says so, writing nothing; revoked and expired keys do not count", async () => {
    const cap = limits.maxActiveKeysPerTenant;
    expect((await request("GET", "/v1/meta")).json.limits.maxActiveKeysPerTenant).toBe(cap);
    const tenant = uniqueTag("key-cap");
    const admin = await operatorKey(tenant);
    await storeKeys(tenant, cap - 3);
    await storeKeys(tenant, 5, { revokedAt: Date.now() });
    await storeKeys(tenant, 5, { expiresAt: Date.now() - 1 });
    // cap - 2 active: two more fit, made at once with others racing them; exactly two are made
    const racing = await Promise.all(Array.from({ length: 6 }, () => request("POST", "/v1/tenant/keys", { key: admin.key, body: {} })));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409, 409]);
    const keys = await countRows("api_keys", tenant);
    const audit = await countRows("audit_log", tenant);
    expect(keys).toBe(cap + 10);

    const refused = await request("POST", "/v1/tenant/keys", { key: admin.key, body: { scopes: ["read"] } });
    expect(refused.status).toBe(409);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(refused.json.detail).toContain(`already has ${cap} active API keys`);
    expect({ keys: await countRows("api_keys", tenant), audit: await countRows("audit_log", tenant) }).toEqual({ keys, audit });

    // the operator is not refused for it; a revoked key makes room for one
    await operatorKey(tenant);
    expect((await request("POST", "/v1/tenant/keys", { key: admin.key, body: {} })).status).toBe(409);
    const made = racing.find((r) => r.status === 201)!;
    expect((await request("DELETE", `/v1/tenant/keys/${made.json.id}`, { key: admin.key })).status).toBe(200);
    const listed = (await request("GET", "/v1/tenant/keys", { key: admin.key })).json.keys as {
      revokedAt: string | null;
      expiresAt: string | null;
    }[];
    expect(listed.filter((k) => k.revokedAt === null && (k.expiresAt === null || Date.parse(k.expiresAt) > Date.now())).length).toBe(cap);
    // still the cap (the operator's key took the place): one more revoked, one more made
    expect((await request("POST", "/v1/tenant/keys", { key: admin.key, body: {} })).status).toBe(409);
    const another = racing.filter((r) => r.status === 201)[1];
    await request("DELETE", `/v1/tenant/keys/${another.json.id}`, { key: admin.key });
    expect((await request("POST", "/v1/tenant/keys", { key: admin.key, body: {} })).status).toBe(201);
  });
});
