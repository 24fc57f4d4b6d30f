import { eq } from "drizzle-orm";
import { createMiddleware } from "hono/factory";
import { database } from "../db/database";
import { findTombstone } from "../db/erasures";
import { apiKeys } from "../db/schema";
import { tombstoneFor } from "../evaluations/erasure";
import { erasablePath, erasedView, type Tombstone } from "../model/erasure";
import { hashToken } from "../platform/tokens";
import { bearer } from "./auth";
import type { App } from "./context";

/**
 * Every route of an erased evaluation, batch or collection answers 410 to its owner, with the
 * tombstone; an erasure cut off in the middle is finished first. Anyone else (no key, another
 * tenant's) goes on to the route, which answers as for something that does not exist. Only a path
 * with an id is looked up, by its primary key; the erase routes answer for themselves.
 */
export const goneIfErased = createMiddleware<App>(async (c, next) => {
  const target = erasablePath(c.req.path);
  if (!target) return next();
  // one lookup by primary key on the way of every such request; the key only for a tombstone
  const db = database(c.env.DB);
  const found = await findTombstone(db, target.id);
  if (!found) return next();
  const key = bearer(c.req.header("authorization"));
  if (!key) return next();
  const row = await db.query.apiKeys.findFirst({ where: eq(apiKeys.keyHash, await hashToken(key)) });
  if (!row || row.revokedAt !== null) return next();
  const tombstone = await tombstoneFor(c.env, row.tenant, target.kind, target.id);
  if (!tombstone) return next();
  return goneResponse(`this ${target.kind} was erased`, tombstone);
});

/** The 410 problem for something erased, with its tombstone as `erased`. */
export function goneResponse(detail: string, tombstone?: Tombstone): Response {
  const body = { type: "about:blank", title: "Gone", status: 410, detail, ...(tombstone ? { erased: erasedView(tombstone) } : {}) };
  return new Response(JSON.stringify(body), { status: 410, headers: { "content-type": "application/problem+json" } });
}
