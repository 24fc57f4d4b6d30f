import { keyBody } from "../contract";
import { Hono } from "hono";
import { database } from "../db/database";
import { apiKeys } from "../db/schema";
import { createSecretIfMissing } from "../webhooks/secret";
import { hashToken } from "../tokens";
import type { App } from "./context";
import { newKey, requireAdmin } from "./auth";
import { readBody } from "./body";
import { shownOnce } from "./idempotency";

export const keys = new Hono<App>();

/**
 * Issues an API key for a tenant. Only the hash is stored: the key is shown once, here. The tenant's
 * first key also brings its webhook signing secret, shown once too (later keys of the same tenant do
 * not repeat it: `POST /v1/webhook-secret/rotate` makes a new one).
 */
keys.post("/", requireAdmin, async (c) => {
  const { tenant, rateLimitPerMinute } = await readBody(c, keyBody);
  const key = newKey();
  await database(c.env.DB)
    .insert(apiKeys)
    .values({
      id: crypto.randomUUID(),
      tenant,
      keyHash: await hashToken(key),
      createdAt: Date.now(),
      rateLimitPerMinute: rateLimitPerMinute ?? null,
    });
  const webhookSecret = await createSecretIfMissing(c.env, tenant);
  shownOnce(c);
  return c.json({ key, tenant, ...(webhookSecret ? { webhookSecret } : {}) }, 201);
});
