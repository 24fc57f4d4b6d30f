import type { Context } from "hono";
import type { App } from "./context";
import { completeKey, forgetKey, reserveKey, usedKey } from "../db/idempotency";
import { database } from "../db/database";
import { sha256Hex } from "../platform/tokens";
import { problemResponse } from "../platform/problems";

/**
 * `Idempotency-Key` on a POST: the first request with a key runs and its 2xx response is kept (in D1,
 * per scope); a retry with the same key and the byte-identical request (method, path, query and body)
 * gets that same response, so a client that lost a response can safely send again. The same key with a
 * different request is a 422. A request that failed, or that changed nothing (a dry run), is forgotten,
 * so its key can be used again.
 *
 * The scope is who is asking: a tenant (its name), the admin (`:admin`) or the anonymous answerers of
 * one collection (`:collection:<id>`); a tenant's name starts with a letter or digit, so none of these
 * meets a tenant's. Every POST route runs through here: `requireKey` and `requireAdmin` call it once they
 * know the caller, the public answer route once it knows the collection.
 *
 * A response that carries a secret shown once (an API key, a share or receipt token, a webhook secret)
 * says so with `shownOnce`: then only the fact that the request was done is kept, never the response,
 * and a retry with its key is a 409 that says the secret cannot be shown again, while nothing is made twice.
 */
export async function idempotently(c: Context<App>, scope: string, run: () => Promise<Response>): Promise<Response> {
  const key = c.req.header("idempotency-key");
  if (c.req.method !== "POST" || key === undefined) return run();
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) {
    return problemResponse(400, "Idempotency-Key must be 1 to 255 visible ASCII characters", {
      errors: [{ field: "Idempotency-Key", reason: "1 to 255 visible ASCII characters" }],
    });
  }
  // the body's bytes, whatever its content type says (a form body read as text would be logged as suspect);
  // the query is part of the request: `?dryRun=true` asks for something else than the same body without it
  const head = new TextEncoder().encode(`${c.req.method} ${c.req.path}${new URL(c.req.url).search}\n`);
  const body = new Uint8Array(await c.req.arrayBuffer());
  const request = new Uint8Array(head.length + body.length);
  request.set(head);
  request.set(body, head.length);
  const hash = await sha256Hex(request);
  const db = database(c.env.DB);
  const k = { scope, key };
  if (!(await reserveKey(db, k, hash, Date.now()))) {
    const row = await usedKey(db, k);
    if (row && row.requestHash !== hash) {
      return problemResponse(422, "this Idempotency-Key was already used with a different request; send a new key for a new request");
    }
    if (!row || row.status === null) {
      return problemResponse(409, "a request with this Idempotency-Key is in progress; retry shortly", { headers: { "retry-after": "1" } });
    }
    // a done request whose response was not kept: it carried a secret shown once
    if (row.body === null) {
      return problemResponse(
        409,
        `this request was already done with this Idempotency-Key (it answered ${row.status}); its response held a secret that is shown only once and is not stored, so it cannot be shown again. Nothing was done now; for a new one, send the request with a new key`,
      );
    }
    return new Response(row.body, { status: row.status, headers: { "content-type": "application/json", "idempotent-replayed": "true" } });
  }
  let response: Response;
  try {
    response = await run();
  } catch (err) {
    // a refusal thrown on the way: forgotten like any failed request, so it can be retried with its key
    await forgetKey(db, k);
    throw err;
  }
  if (c.get("changedNothing")) await forgetKey(db, k);
  else if (response.status >= 200 && response.status < 300)
    await completeKey(
      db,
      k,
      response.status,
      c.get("shownOnce") ? null : withoutFields(await response.clone().text(), c.get("keptWithout")),
    );
  else await forgetKey(db, k);
  return response;
}

/** The rest of the request, run under its Idempotency-Key in `scope`: for a middleware that knows the caller. */
export function nextIdempotently(c: Context<App>, next: () => Promise<void>, scope: string): Promise<Response> {
  return idempotently(c, scope, async () => {
    await next();
    return c.res;
  });
}

/** Marks the response as carrying a secret shown once: an idempotent retry will not show it again. */
export function shownOnce(c: Context<App>): void {
  c.set("shownOnce", true);
}

/**
 * The response's `fields` are not kept for a replay, which has them null: for a token that the caller
 * can read again elsewhere (a collection's public token, from GET /v1/collections/:id), so that no
 * token is kept in the idempotency table while a retry still learns what was made.
 */
export function keptWithout(c: Context<App>, fields: string[]): void {
  c.set("keptWithout", fields);
}

/** The JSON text with the top-level `fields` set to null (the text as it is when there are none). */
export function withoutFields(text: string, fields: string[] | undefined): string {
  if (!fields?.length) return text;
  const value = JSON.parse(text) as Record<string, unknown>;
  for (const field of fields) if (field in value) value[field] = null;
  return JSON.stringify(value);
}

/**
 * Marks the request as one that changed nothing (a dry run): nothing is kept under its key, so the key
 * stays free for the request that does the work, and a later retry of the dry run estimates again.
 */
export function changedNothing(c: Context<App>): void {
  c.set("changedNothing", true);
}

/** The scopes of callers that are no tenant (see `idempotently`). */
export const adminScope = ":admin";
export const collectionScope = (collectionId: string) => `:collection:${collectionId}`;
