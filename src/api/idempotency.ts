import { createMiddleware } from "hono/factory";
import type { App } from "./auth";
import { problem } from "./problem";
import { sha256Hex } from "../tokens";

/**
 * `Idempotency-Key` on a POST: the first request with a key runs and its 2xx response is kept (in D1,
 * per tenant); a retry with the same key and the byte-identical request gets that same response, so a
 * client that lost a response can safely send again. The same key with a different request is a 422. A
 * request that failed is forgotten, so it can be retried with its key. Needs `requireKey` before it.
 */
export const idempotent = createMiddleware<App>(async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (c.req.method !== "POST" || key === undefined) return next();
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    return problem(c, 400, "Idempotency-Key must be 1 to 255 visible ASCII characters", { errors: [{ field: "Idempotency-Key", reason: "1 to 255 visible ASCII characters" }] });
  }
  const tenant = c.get("tenant");
  const hash = await sha256Hex(`${c.req.method} ${c.req.path}\n${await c.req.text()}`);
  const db = c.env.DB;
  const reserved = await db
    .prepare("INSERT INTO idempotency_keys (tenant, key, request_hash, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING")
    .bind(tenant, key, hash, Date.now())
    .run();
  if (reserved.meta.changes === 0) {
    const row = await db
      .prepare("SELECT request_hash, status, body FROM idempotency_keys WHERE tenant = ? AND key = ?")
      .bind(tenant, key)
      .first<{ request_hash: string; status: number | null; body: string | null }>();
    if (row && row.request_hash !== hash) {
      return problem(c, 422, "this Idempotency-Key was already used with a different request; send a new key for a new request");
    }
    if (!row || row.status === null) {
      return problem(c, 409, "a request with this Idempotency-Key is in progress; retry shortly", { headers: { "retry-after": "1" } });
    }
    return new Response(row.body, { status: row.status, headers: { "content-type": "application/json", "idempotent-replayed": "true" } });
  }
  await next();
  if (c.res.status >= 200 && c.res.status < 300) {
    const body = await c.res.clone().text();
    await db.prepare("UPDATE idempotency_keys SET status = ?, body = ? WHERE tenant = ? AND key = ?").bind(c.res.status, body, tenant, key).run();
  } else {
    await db.prepare("DELETE FROM idempotency_keys WHERE tenant = ? AND key = ?").bind(tenant, key).run();
  }
});
