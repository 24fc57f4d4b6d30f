import { readConfig } from "../platform/config";
import { findCollection } from "../db/collections";
import { type Access, grants, keyRefusal, scopeRefusal } from "./access";
import { eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { database } from "../db/database";
import { apiKeys } from "../db/schema";
import type { App } from "./context";
import { adminScope, nextIdempotently } from "./idempotency";
import { hashToken, newToken } from "../platform/tokens";
import { rateLimit } from "./rate-limit";
import { problemResponse } from "../platform/problems";

export function newKey(): string {
  return newToken("kj_", 32);
}

export function bearer(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match ? match[1] : null;
}

/**
 * The guard of a tenant's route: resolves `Authorization: Bearer <key>` to its tenant, or answers 401
 * (unknown, revoked or expired); then a key limited to one collection gets 404 for anything outside it
 * (as for another tenant's: it learns nothing of what exists), and a key without the scope the route
 * needs gets 403, both before the route reads anything. A POST then runs under its Idempotency-Key.
 */
export function requireKey(access: Access) {
  return createMiddleware<App>(async (c, next) => {
    const key = bearer(c.req.header("authorization"));
    if (!key)
      return problemResponse(401, "send an API key as `Authorization: Bearer <key>`", { headers: { "www-authenticate": "Bearer" } });
    const row = await database(c.env.DB).query.apiKeys.findFirst({ where: eq(apiKeys.keyHash, await hashToken(key)) });
    const refused = row ? keyRefusal(row, Date.now()) : "unknown API key";
    if (!row || refused) return problemResponse(401, refused ?? "unknown API key", { headers: { "www-authenticate": "Bearer" } });
    const limited = await rateLimit(c.env, row.keyHash, row.rateLimitPerMinute);
    if (limited) return problemResponse(429, limited.detail, { headers: { "retry-after": String(limited.retryAfter) } });
    if (row.collectionId !== null) {
      const outside = await outsideCollection(c.env, row.tenant, row.collectionId, access.within, c.req.param("id"));
      if (outside) return problemResponse(404, outside);
    }
    if (!grants(row.scopes, access.scope)) return problemResponse(403, scopeRefusal(row.scopes, access.scope));
    c.set("tenant", row.tenant);
    c.set("keyHash", row.keyHash);
    c.set("keyId", row.id);
    c.set("keyLimits", { rateLimitPerMinute: row.rateLimitPerMinute, expiresAt: row.expiresAt });
    c.set("actor", row.id);
    return nextIdempotently(c, next, row.tenant);
  });
}

/**
 * For a key limited to one collection: the 404 of a route outside it, or null. Inside are the
 * collection itself and the evaluation its closing started (the collection's row names it; an
 * evaluation's metadata is the tenant's to write, so it is not asked). The wording is a missing one's.
 */
async function outsideCollection(
  env: Env,
  tenant: string,
  collectionId: string,
  within: Access["within"],
  id: string | undefined,
): Promise<string | null> {
  if (within === "collection") return id === collectionId ? null : "no such collection";
  if (within === "evaluation") {
    const collection = await findCollection(database(env.DB), tenant, collectionId);
    return id !== undefined && collection?.evaluationId === id ? null : "no such evaluation";
  }
  return "not found: this API key is limited to one collection";
}

/** Lets only the admin token through (401 otherwise); a POST then runs under its Idempotency-Key. */
export const requireAdmin = createMiddleware<App>(async (c, next) => {
  if (!readConfig(c.env).adminToken) return problemResponse(401, "key issuing is disabled: the service has no ADMIN_TOKEN configured");
  if (!(await isAdmin(c.env, c.req.header("authorization")))) {
    return problemResponse(401, "send the admin token as `Authorization: Bearer <ADMIN_TOKEN>`", {
      headers: { "www-authenticate": "Bearer" },
    });
  }
  c.set("actor", "admin");
  return nextIdempotently(c, next, adminScope);
});

/** Compares in constant time, so the admin token cannot be guessed byte by byte from response times. */
export async function isAdmin(env: Env, header: string | undefined): Promise<boolean> {
  const given = bearer(header);
  const admin = readConfig(env).adminToken;
  if (!admin || !given) return false;
  const [a, b] = await Promise.all([hashToken(given), hashToken(admin)]);
  return crypto.subtle.timingSafeEqual(new TextEncoder().encode(a), new TextEncoder().encode(b));
}
