import { describe, expect, it } from "vitest";
import { grants, keyRefusal, requiredScope } from "../../../src/api/access";
import { declaredRoutes } from "../../../src/api/routers";

describe("a key's access", () => {
  it("needs read for a GET, write for anything else, unless the route says", () => {
    expect(requiredScope({ method: "get" })).toBe("read");
    for (const method of ["post", "put", "delete"]) expect(requiredScope({ method })).toBe("write");
    expect(requiredScope({ method: "post", scope: "read" })).toBe("read");
    expect(requiredScope({ method: "get", scope: "admin" })).toBe("admin");
  });

  it("holds each scope below its own: admin holds write and read, write holds read, read only read", () => {
    expect(grants(["read"], "read")).toBe(true);
    expect(grants(["read"], "write")).toBe(false);
    expect(grants(["read"], "admin")).toBe(false);
    expect(grants(["write"], "read")).toBe(true);
    expect(grants(["read", "write"], "admin")).toBe(false);
    expect(grants(["admin"], "write")).toBe(true);
    expect(grants([], "read")).toBe(false);
  });

  it("refuses a revoked key as unknown and an expired one as expired, from its expiry on", () => {
    const now = Date.parse("2026-03-01T12:00:00Z");
    expect(keyRefusal({ revokedAt: null, expiresAt: null }, now)).toBeNull();
    expect(keyRefusal({ revokedAt: now - 1, expiresAt: null }, now)).toBe("unknown API key");
    expect(keyRefusal({ revokedAt: null, expiresAt: now + 1 }, now)).toBeNull();
    expect(keyRefusal({ revokedAt: null, expiresAt: now }, now)).toBe("this API key expired at 2026-03-01T12:00:00.000Z");
  });

  it("asks the admin scope of the audit trail, erasure, retention, export, LTI registration and the tenant's own keys, and of no other route", () => {
    const admin = declaredRoutes().filter((d) => d.auth === "key" && requiredScope(d) === "admin");
    expect(admin.map((d) => `${d.method} ${d.path}`).sort()).toEqual(
      [
        "get /v1/audit",
        "post /v1/evaluations/{id}/erase",
        "post /v1/batches/{id}/erase",
        "post /v1/collections/{id}/erase",
        "post /v1/subjects/erase",
        "put /v1/tenant/settings",
        "get /v1/tenant/export",
        "get /v1/subjects/export",
        "get /v1/lti/platforms",
        "post /v1/lti/platforms",
        "get /v1/lti/platforms/{id}",
        "patch /v1/lti/platforms/{id}",
        "delete /v1/lti/platforms/{id}",
        "get /v1/tenant/keys",
        "post /v1/tenant/keys",
        "delete /v1/tenant/keys/{id}",
      ].sort(),
    );
  });
});
