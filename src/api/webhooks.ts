import { Hono } from "hono";
import { rotateSecret, rotationGraceMs } from "../webhooks/secret";
import type { App } from "./context";
import { requireKey } from "./auth";
import { shownOnce } from "./idempotency";

export const webhookSecret = new Hono<App>();
webhookSecret.use(requireKey);

/**
 * A new webhook signing secret for the caller's tenant, shown once. The previous one keeps signing next
 * to it (a second `v1,` entry in webhook-signature) for a day, so receivers can switch without a gap.
 */
webhookSecret.post("/rotate", async (c) => {
  const secret = await rotateSecret(c.env, c.get("tenant"));
  shownOnce(c);
  return c.json({ webhookSecret: secret, previousValidUntil: new Date(Date.now() + rotationGraceMs).toISOString() }, 201);
});
