import { Hono } from "hono";
import { database, findEvaluation, listEvaluations, readOutcome, usageOf } from "../db/evaluations";
import { webhookDeliveries } from "../webhooks/enqueue";
import { insecureWebhooksAllowed, webhookUrlErrors } from "../webhooks/url";
import { type App, requireKey } from "./auth";
import { createEvaluation } from "./create-evaluation";
import { readBody } from "./body";
import { decodeCursor, encodeCursor } from "./cursor";
import { problem } from "./problem";
import { evaluationBody, limits } from "./schemas";

export const evaluations = new Hono<App>();
evaluations.use(requireKey);

const finished = new Set(["completed", "failed", "cancelled"]);

evaluations.post("/", async (c) => {
  const body = await readBody(c, evaluationBody);
  if (!body.ok) return body.response;
  const b = body.value;
  const badUrls = webhookUrlErrors([["webhook.url", b.webhook?.url]], insecureWebhooksAllowed(c.env));
  if (badUrls.length) return problem(c, 400, badUrls.map((e) => `${e.field}: ${e.reason}`).join("; "), { errors: badUrls });
  const created = await createEvaluation(c.env, c.get("tenant"), b);
  if (!created.ok) return problem(c, created.status, created.detail);
  return c.json({ id: created.id, status: "queued" }, 202);
});

/** The live bracket as server-sent events, from the evaluation's Durable Object (see its fetch). */
evaluations.get("/:id/events", async (c) => {
  const row = await findEvaluation(database(c.env.DB), c.get("tenant"), c.req.param("id"));
  if (!row) return problem(c, 404, "no such evaluation");
  const stream = await c.env.TOURNAMENT.get(c.env.TOURNAMENT.idFromName(row.id)).fetch(new Request(`https://tournament/events?id=${encodeURIComponent(row.id)}`));
  // the object reads the evaluation from D1; should that fail, the stream can be opened again
  if (stream.status === 404) return problem(c, 503, "the evaluation could not be read; open the stream again in a moment", { headers: { "retry-after": "1" } });
  return stream;
});

/** The tenant's evaluations, newest first, a page at a time; `nextCursor` is null on the last page. */
evaluations.get("/", async (c) => {
  const limitText = c.req.query("limit");
  const limit = limitText === undefined ? limits.defaultPageSize : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > limits.maxPageSize) {
    return problem(c, 400, `limit: must be an integer from 1 to ${limits.maxPageSize}`, { errors: [{ field: "limit", reason: `an integer from 1 to ${limits.maxPageSize}` }] });
  }
  const cursorText = c.req.query("cursor");
  const after = cursorText === undefined || cursorText === "" ? null : decodeCursor(cursorText);
  if (cursorText && !after) return problem(c, 400, "cursor: not a cursor from this API", { errors: [{ field: "cursor", reason: "not a cursor from this API" }] });
  const rows = await listEvaluations(database(c.env.DB), c.get("tenant"), after, limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return c.json({
    data: page.map((r) => ({
      id: r.id,
      status: r.status,
      method: r.method,
      champion: r.champion,
      metadata: r.metadata ?? undefined,
      createdAt: new Date(r.createdAt).toISOString(),
      completedAt: r.completedAt ? new Date(r.completedAt).toISOString() : undefined,
    })),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
  });
});

evaluations.get("/:id", async (c) => {
  const db = database(c.env.DB);
  const row = await findEvaluation(db, c.get("tenant"), c.req.param("id"));
  if (!row) return problem(c, 404, "no such evaluation");
  if (finished.has(row.status)) return c.json(await finishedView(db, row));
  // running: the Durable Object has the live tournament. Queued: no object runs it yet, and asking would
  // make one for nothing.
  const live = row.status === "queued" ? null : await c.env.TOURNAMENT.get(c.env.TOURNAMENT.idFromName(row.id)).snapshot().catch(() => undefined);
  if (live === undefined) {
    // the object was let go while asked: it had just ended, and D1 has the outcome by then
    const again = await findEvaluation(db, c.get("tenant"), row.id);
    if (again && finished.has(again.status)) return c.json(await finishedView(db, again));
    return problem(c, 503, "the evaluation could not be read; try again in a moment", { headers: { "retry-after": "1" } });
  }
  if (!live) return c.json({ ...headOf(row), status: row.status, champion: null, answers: [], matches: [], usage: usageOf(row) });
  return c.json({
    ...headOf(row),
    // the DO may have finished a moment before D1 has it: its status is the fresher one
    status: live.status,
    champion: live.outcome.champion,
    answers: live.outcome.answers,
    matches: live.outcome.matches,
    usage: live.usage,
    ...(live.error ? { error: live.error } : {}),
  });
});

type Row = NonNullable<Awaited<ReturnType<typeof findEvaluation>>>;

function headOf(row: Row) {
  return {
    id: row.id,
    method: row.method,
    debias: row.debias,
    pairing: row.pairing,
    template: row.template,
    maxScore: row.maxScore,
    seed: row.seed,
    ...(row.rubric ? { rubric: row.rubric } : {}),
    ...(row.batchId ? { batchId: row.batchId } : {}),
    metadata: row.metadata ?? undefined,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}

async function finishedView(db: ReturnType<typeof database>, row: Row) {
  const outcome = await readOutcome(db, row);
  return {
    ...headOf(row),
    status: row.status,
    champion: outcome.champion,
    answers: outcome.answers,
    matches: outcome.matches,
    usage: usageOf(row),
    ...(row.error ? { error: row.error } : {}),
    completedAt: row.completedAt ? new Date(row.completedAt).toISOString() : undefined,
  };
}

/**
 * Cancels a queued or running evaluation: calls in flight are abandoned and nothing more is sent to the
 * judge; results recorded so far stay readable. Cancelling again is a no-op; a finished one is a 409.
 */
evaluations.delete("/:id", async (c) => {
  const row = await findEvaluation(database(c.env.DB), c.get("tenant"), c.req.param("id"));
  if (!row) return problem(c, 404, "no such evaluation");
  // D1 has the final status before the object does, and a finished object is let go a moment later:
  // asking it then was a 500
  const status = finished.has(row.status) ? row.status : await c.env.TOURNAMENT.get(c.env.TOURNAMENT.idFromName(row.id)).cancel(row.id);
  if (status === "cancelled") return c.json({ id: row.id, status });
  return problem(c, 409, `the evaluation has already ${status === "failed" ? "failed" : "completed"}; there is nothing to cancel`);
});

/** The webhook delivery log of an evaluation: every attempt, its status or error, and what comes next. */
evaluations.get("/:id/deliveries", async (c) => {
  const row = await findEvaluation(database(c.env.DB), c.get("tenant"), c.req.param("id"));
  if (!row) return problem(c, 404, "no such evaluation");
  return c.json({ data: await webhookDeliveries(c.env, row.tenant, row.id) });
});
