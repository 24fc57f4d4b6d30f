import { Hono } from "hono";
import { rotateSecret, rotationGraceMs } from "../webhooks/secret";
import type { App } from "./context";
import { secretRotated } from "../contract";
import { shownOnce } from "./idempotency";
import { route } from "./route";

export const webhookSecret = new Hono<App>();

/**
 * A new webhook signing secret for the caller's tenant, shown once. The previous one keeps signing next
 * to it (a second `v1,` entry in webhook-signature) for a day, so receivers can switch without a gap.
 */
route(
  webhookSecret,
  {
    method: "post",
    path: "/rotate",
    summary: "A new webhook signing secret (the old one signs too for a while)",
    tag: "webhooks",
    auth: "key",
    ok: { 201: { description: "the new secret, shown once", schema: secretRotated } },
  },
  async (c) => {
    const secret = await rotateSecret(c.env, c.get("tenant"), c.get("actor"));
    shownOnce(c);
    return c.json({ webhookSecret: secret, previousValidUntil: new Date(Date.now() + rotationGraceMs).toISOString() }, 201);
  },
);
