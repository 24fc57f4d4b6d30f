import { and, asc, eq } from "drizzle-orm";
import { Hono } from "hono";
import { keyCreated, keyList, keyRevoked, tenantKeyBody } from "../contract";
import { database } from "../db/database";
import { apiKeys } from "../db/schema";
import { ProblemError } from "../platform/problems";
import type { App } from "./context";
import { iso, issueKey, revokeKey } from "./keys";
import { route } from "./route";

/**
 * A tenant's own keys, managed with a key of its `admin` scope: a course hands its assistants a
 * read-only or one-collection key, and revokes a leaked one, without asking the operator. A key limited
 * to one collection is outside these routes (404), as it is outside everything else of the tenant.
 */
export const tenantKeys = new Hono<App>();

route(
  tenantKeys,
  {
    method: "post",
    path: "/keys",
    summary: "A new key of the caller's tenant",
    tag: "keys",
    auth: "key",
    scope: "admin",
    body: tenantKeyBody,
    example: { scopes: ["read"], expiresAt: "2099-01-01T00:00:00Z" },
    ok: { 201: { description: "the key, shown once", schema: keyCreated } },
    refusals: [400, 403, 409, 415],
  },
  // the key asking is the ceiling of the key it makes (src/limits/key-limits.ts)
  async (c, input) => c.json(await issueKey(c, c.get("tenant"), await input.body(), c.get("keyLimits")), 201),
);

route(
  tenantKeys,
  {
    method: "get",
    path: "/keys",
    summary: "The tenant's keys, oldest first (never the keys themselves)",
    tag: "keys",
    auth: "key",
    scope: "admin",
    ok: { 200: { description: "every key of the tenant, revoked ones included", schema: keyList } },
    refusals: [403],
  },
  async (c) => {
    const rows = await database(c.env.DB)
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.tenant, c.get("tenant")))
      .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
    return c.json({
      keys: rows.map((r) => ({
        id: r.id,
        scopes: r.scopes,
        collectionId: r.collectionId,
        expiresAt: iso(r.expiresAt),
        rateLimitPerMinute: r.rateLimitPerMinute,
        createdAt: iso(r.createdAt),
        revokedAt: iso(r.revokedAt),
      })),
    });
  },
);

route(
  tenantKeys,
  {
    method: "delete",
    path: "/keys/:id",
    summary: "Revoke one of the tenant's keys",
    tag: "keys",
    auth: "key",
    scope: "admin",
    ok: { 200: { description: "revoked (asking again answers the first revocation)", schema: keyRevoked } },
    refusals: [403],
  },
  async (c) => {
    const row = await database(c.env.DB).query.apiKeys.findFirst({
      where: and(eq(apiKeys.id, c.req.param("id")), eq(apiKeys.tenant, c.get("tenant"))),
    });
    // another tenant's key is as unknown as no key at all
    if (!row) throw new ProblemError(404, "no such API key");
    return c.json(await revokeKey(c, row));
  },
);
