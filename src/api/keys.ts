import { Hono } from "hono";
import { database } from "../db/evaluations";
import { apiKeys } from "../db/schema";
import { type App, hashKey, isAdmin, newKey } from "./auth";
import { readBody } from "./body";
import { problem } from "./problem";
import { keyBody } from "./schemas";

export const keys = new Hono<App>();

/** Issues an API key for a tenant. Only the hash is stored: the key is shown once, here. */
keys.post("/", async (c) => {
  if (!c.env.ADMIN_TOKEN) return problem(c, 401, "key issuing is disabled: the service has no ADMIN_TOKEN configured");
  if (!(await isAdmin(c.env, c.req.header("authorization")))) {
    return problem(c, 401, "send the admin token as `Authorization: Bearer <ADMIN_TOKEN>`", { headers: { "www-authenticate": "Bearer" } });
  }
  const body = await readBody(c, keyBody);
  if (!body.ok) return body.response;
  const key = newKey();
  await database(c.env.DB)
    .insert(apiKeys)
    .values({ id: crypto.randomUUID(), tenant: body.value.tenant, keyHash: await hashKey(key), createdAt: Date.now() });
  return c.json({ key, tenant: body.value.tenant }, 201);
});
