import { Hono } from "hono";
import { database } from "../db/evaluations";
import { apiKeys } from "../db/schema";
import { createSecretIfMissing } from "../webhooks/secret";
import { type App, hashKey, newKey, requireAdmin } from "./auth";
import { readBody } from "./body";
import { shownOnce } from "./idempotency";
import { keyBody } from "./schemas";

export const keys = new Hono<App>();

/**
 * Issues an API key for a tenant. Only the hash is stored: the key is shown once, here. The tenant's
 * first key also brings its webhook signing secret, shown once too (later keys of the same tenant do
 * not repeat it: `POST /v1/webhook-secret/rotate` makes a new one).
 */
keys.post("/", requireAdmin, async (c) => {
  const body = await readBody(c, keyBody);
  if (!body.ok) return body.response;
  const key = newKey();
  const { tenant, rateLimitPerMinute } = body.value;
  await database(c.env.DB)
    .insert(apiKeys)
    .values({ id: crypto.randomUUID(), tenant, keyHash: await hashKey(key), createdAt: Date.now(), rateLimitPerMinute: rateLimitPerMinute ?? null });
  const webhookSecret = await createSecretIfMissing(c.env, tenant);
  shownOnce(c);
  return c.json({ key, tenant, ...(webhookSecret ? { webhookSecret } : {}) }, 201);
});
