import { readConfig } from "../platform/config";
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

/** Resolves `Authorization: Bearer <key>` to its tenant, or answers 401; a POST then runs under its Idempotency-Key. */
export const requireKey = createMiddleware<App>(async (c, next) => {
  const key = bearer(c.req.header("authorization"));
  if (!key) return problemResponse(401, "send an API key as `Authorization: Bearer <key>`", { headers: { "www-authenticate": "Bearer" } });
  const row = await database(c.env.DB).query.apiKeys.findFirst({ where: eq(apiKeys.keyHash, await hashToken(key)) });
  if (!row || row.revokedAt !== null) return problemResponse(401, "unknown API key", { headers: { "www-authenticate": "Bearer" } });
  const limited = await rateLimit(c.env, row.keyHash, row.rateLimitPerMinute);
  if (limited) return problemResponse(429, limited.detail, { headers: { "retry-after": String(limited.retryAfter) } });
  c.set("tenant", row.tenant);
  c.set("keyHash", row.keyHash);
  c.set("keyId", row.id);
  return nextIdempotently(c, next, row.tenant);
});

/** Lets only the admin token through (401 otherwise); a POST then runs under its Idempotency-Key. */
export const requireAdmin = createMiddleware<App>(async (c, next) => {
  if (!readConfig(c.env).adminToken) return problemResponse(401, "key issuing is disabled: the service has no ADMIN_TOKEN configured");
  if (!(await isAdmin(c.env, c.req.header("authorization")))) {
    return problemResponse(401, "send the admin token as `Authorization: Bearer <ADMIN_TOKEN>`", {
      headers: { "www-authenticate": "Bearer" },
    });
  }
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
