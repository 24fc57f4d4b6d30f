import { Hono } from "hono";
import { z } from "zod";
import * as r from "../contract";
import { limits } from "../contract";
import { auditLines } from "../db/audit";
import { database } from "../db/database";
import { ProblemError } from "../platform/problems";
import type { App } from "./context";
import { encodeCursor, pageParams, pageQuery } from "./cursor";
import { route } from "./route";

/**
 * The tenant's audit trail (src/db/audit.ts): who graded, edited feedback, released, made or revoked a
 * key, rotated a secret or shared, oldest first from `since`. A tenant's admin reads it: it names every
 * key's doings, so a read-only or a course assistant's key does not.
 */
export const auditTrail = new Hono<App>();

route(
  auditTrail,
  {
    method: "get",
    path: "/",
    summary: "The tenant's audit trail, oldest first",
    tag: "audit",
    auth: "key",
    scope: "admin",
    query: {
      since: { schema: z.string(), description: "ISO 8601 date-time: lines from then on (default: all)" },
      ...pageQuery,
    },
    ok: { 200: { description: "a page of lines", schema: r.auditPage } },
    refusals: [400, 403],
  },
  async (c) => {
    const since = sinceParam(c.req.query("since"));
    const { limit, after } = pageParams(
      { limit: c.req.query("limit"), cursor: c.req.query("cursor") },
      { defaultSize: limits.defaultPageSize, max: limits.maxPageSize },
    );
    // the cursor's id is the line's seq (audit lines have no other id)
    const seq = after ? Number(after.id) : null;
    if (after && !Number.isSafeInteger(seq)) throw ProblemError.fields([{ field: "cursor", reason: "not a cursor from this API" }]);
    const rows = await auditLines(database(c.env.DB), c.get("tenant"), since, after && { at: after.createdAt, seq: seq! }, limit);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return c.json({
      data: page.map((row) => ({
        id: String(row.seq),
        at: new Date(row.at).toISOString(),
        who: row.who,
        what: row.what,
        evaluationId: row.evaluationId,
        answerId: row.answerId,
        collectionId: row.collectionId,
        keyId: row.keyId,
        detail: row.detail,
      })),
      nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.at, id: String(last.seq) }) : null,
    });
  },
);

/** `since` as unix ms (0 when left out), or a 400 naming it. */
function sinceParam(text: string | undefined): number {
  if (text === undefined || text === "") return 0;
  const ms = z.iso.datetime({ offset: true }).safeParse(text).success ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(ms)) throw ProblemError.fields([{ field: "since", reason: "must be an ISO 8601 date-time, e.g. 2026-01-01T00:00:00Z" }]);
  return ms;
}
