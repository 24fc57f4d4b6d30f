import { describe, expect, it } from "vitest";
import { ADMIN, request, newKey, uniqueTag } from "./helpers";
import { registerPlatform, registration } from "./lti-helpers";

describe("LTI platform registration", () => {
  it("registers, lists, reads, changes and removes a platform, each change audited", async () => {
    const tenant = uniqueTag("lti-reg");
    const key = await newKey(tenant, ["read", "write", "admin"]);
    const tag = uniqueTag("reg");
    const created = await registerPlatform(key, tag);
    expect(created).toMatchObject({ ...registration(tag), id: expect.stringMatching(/^ltip_/) });
    expect(created.tenant).toBeUndefined();

    expect((await request("GET", `/v1/lti/platforms/${created.id}`, { key })).json).toEqual(created);
    const list = await request("GET", "/v1/lti/platforms", { key });
    expect(list.json.data.map((p: { id: string }) => p.id)).toEqual([created.id]);

    const changed = await request("PATCH", `/v1/lti/platforms/${created.id}`, { key, body: { deploymentIds: ["dep-1", "dep-2"] } });
    expect(changed.status).toBe(200);
    expect(changed.json.deploymentIds).toEqual(["dep-1", "dep-2"]);
    expect((await request("GET", `/v1/lti/platforms/${created.id}`, { key })).json.deploymentIds).toEqual(["dep-1", "dep-2"]);

    expect((await request("DELETE", `/v1/lti/platforms/${created.id}`, { key })).json).toEqual({ id: created.id, deleted: true });
    expect((await request("GET", `/v1/lti/platforms/${created.id}`, { key })).status).toBe(404);

    const audit = await request("GET", "/v1/audit", { key });
    const lines = audit.json.data.filter((l: { detail: { ltiPlatformId?: string } | null }) => l.detail?.ltiPlatformId === created.id);
    expect(lines.map((l: { what: string }) => l.what)).toEqual(["lti-platform.register", "lti-platform.change", "lti-platform.delete"]);
    expect(lines[1].detail.fields).toEqual(["deploymentIds"]);
  });

  it("asks the admin scope: a read-write key is refused", async () => {
    const key = await newKey(uniqueTag("lti-scope"));
    const r = await request("POST", "/v1/lti/platforms", { key, body: registration(uniqueTag("scope")) });
    expect(r.status).toBe(403);
    expect((await request("GET", "/v1/lti/platforms", { key })).status).toBe(403);
  });

  it("refuses the same issuer and client id twice, in the same tenant and in another, and by a change", async () => {
    const tag = uniqueTag("dup");
    const a = await newKey(uniqueTag("lti-dup-a"), ["admin"]);
    const b = await newKey(uniqueTag("lti-dup-b"), ["admin"]);
    await registerPlatform(a, tag);
    for (const key of [a, b]) {
      const r = await request("POST", "/v1/lti/platforms", { key, body: registration(tag) });
      expect(r.status).toBe(409);
      expect(r.json.detail).toContain(`client-${tag}`);
    }
    const other = await registerPlatform(b, tag, { clientId: `other-${tag}` });
    const clash = await request("PATCH", `/v1/lti/platforms/${other.id}`, { key: b, body: { clientId: `client-${tag}` } });
    expect(clash.status).toBe(409);
  });

  it("does not show, change or remove another tenant's platform", async () => {
    const owner = await newKey(uniqueTag("lti-own"), ["admin"]);
    const stranger = await newKey(uniqueTag("lti-stranger"), ["admin"]);
    const p = await registerPlatform(owner, uniqueTag("iso"));
    expect((await request("GET", `/v1/lti/platforms/${p.id}`, { key: stranger })).status).toBe(404);
    expect((await request("PATCH", `/v1/lti/platforms/${p.id}`, { key: stranger, body: { deploymentIds: ["x"] } })).status).toBe(404);
    expect((await request("DELETE", `/v1/lti/platforms/${p.id}`, { key: stranger })).status).toBe(404);
    expect((await request("GET", "/v1/lti/platforms", { key: stranger })).json.data).toEqual([]);
    expect((await request("GET", `/v1/lti/platforms/${p.id}`, { key: owner })).status).toBe(200);
  });

  it("refuses a JWKS, login or token URL that is not https or names a private or loopback host, naming the field", async () => {
    const key = await newKey(uniqueTag("lti-url"), ["admin"]);
    for (const [field, url] of [
      ["jwksUrl", "http://lms.example.edu/jwks"],
      ["jwksUrl", "https://10.0.0.5/jwks"],
      ["jwksUrl", "https://169.254.169.254/latest/meta-data"],
      ["jwksUrl", "https://[::1]/jwks"],
      ["authLoginUrl", "https://moodle.internal/auth"],
      ["accessTokenUrl", "https://2130706433/token"],
      ["jwksUrl", "not a url"],
    ]) {
      const tag = uniqueTag("url");
      const r = await request("POST", "/v1/lti/platforms", { key, body: registration(tag, { [field]: url }) });
      expect(r.status, url).toBe(400);
      expect(r.json.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
    const p = await registerPlatform(key, uniqueTag("url-ok"));
    const r = await request("PATCH", `/v1/lti/platforms/${p.id}`, { key, body: { jwksUrl: "https://192.168.1.10/jwks" } });
    expect(r.status).toBe(400);
    expect(r.json.errors[0].field).toBe("jwksUrl");
    const list = await request("GET", "/v1/lti/platforms", { key });
    expect(list.json.data.map((x: { jwksUrl: string }) => x.jwksUrl)).toEqual([p.jwksUrl]);
  });

  it("refuses a bad body field by field, and an empty change", async () => {
    const key = await newKey(uniqueTag("lti-body"), ["admin"]);
    const r = await request("POST", "/v1/lti/platforms", { key, body: { ...registration(uniqueTag("b")), deploymentIds: [], issuer: "" } });
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(["deploymentIds", "issuer"]);
    const p = await registerPlatform(key, uniqueTag("b2"));
    expect((await request("PATCH", `/v1/lti/platforms/${p.id}`, { key, body: {} })).status).toBe(400);
  });

  it("goes with its tenant's erasure: the issuer and client id are free for another tenant", async () => {
    const tenant = uniqueTag("lti-erased");
    const tag = uniqueTag("erase");
    await registerPlatform(await newKey(tenant, ["admin"]), tag);
    expect((await request("DELETE", `/v1/tenants/${tenant}`, { key: ADMIN })).status).toBe(200);
    const other = await newKey(uniqueTag("lti-next"), ["admin"]);
    expect((await request("POST", "/v1/lti/platforms", { key: other, body: registration(tag) })).status).toBe(201);
  });
});
