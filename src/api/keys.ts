import { keyBody, keyCreated } from "../contract";
import { Hono } from "hono";
import { database } from "../db/database";
import { apiKeys } from "../db/schema";
import { createSecretIfMissing } from "../webhooks/secret";
import { hashToken } from "../platform/tokens";
import type { App } from "./context";
import { newKey } from "./auth";
import { shownOnce } from "./idempotency";
import { route } from "./route";

export const keys = new Hono<App>();

/**
 * Issues an API key for a tenant. Only the hash is stored: the key is shown once, here. The tenant's
 * first key also brings its webhook signing secret, shown once too (later keys of the same tenant do
 * not repeat it: `POST /v1/webhook-secret/rotate` makes a new one).
 */
route(
  keys,
  {
    method: "post",
    path: "/",
    summary: "An API key for a tenant",
    tag: "keys",
    auth: "admin",
    body: keyBody,
    example: { tenant: "my-course" },
    ok: { 201: { description: "the key, shown once", schema: keyCreated } },
    refusals: [400],
  },
  async (c, input) => {
    const { tenant, rateLimitPerMinute } = await input.body();
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
  },
);
