import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newKey, request, uniqueTag } from "./helpers";

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
