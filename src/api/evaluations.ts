import { Hono } from "hono";
import { database, findEvaluation, readOutcome, usageOf } from "../db/evaluations";
import { type App, requireKey } from "./auth";
import { createEvaluation } from "./create-evaluation";
import { readBody } from "./body";
import { problem } from "./problem";
import { evaluationBody } from "./schemas";

export const evaluations = new Hono<App>();
evaluations.use(requireKey);

evaluations.post("/", async (c) => {
  const body = await readBody(c, evaluationBody);
  if (!body.ok) return body.response;
  const created = await createEvaluation(c.env, c.get("tenant"), body.value);
  if (!created.ok) return problem(c, created.status, created.detail);
  return c.json({ id: created.id, status: "queued" }, 202);
});

/** The live bracket as server-sent events, from the evaluation's Durable Object (see its fetch). */
evaluations.get("/:id/events", async (c) => {
  const row = await findEvaluation(database(c.env.DB), c.get("tenant"), c.req.param("id"));
  if (!row) return problem(c, 404, "no such evaluation");
  const stream = await c.env.TOURNAMENT.get(c.env.TOURNAMENT.idFromName(row.id)).fetch(new Request("https://tournament/events"));
  // the row is written just before its object starts: for that moment there is nothing to stream yet
  if (stream.status === 404) return problem(c, 503, "the evaluation is starting; open the stream again in a moment", { headers: { "retry-after": "1" } });
  return stream;
});

evaluations.get("/:id", async (c) => {
  const db = database(c.env.DB);
  const row = await findEvaluation(db, c.get("tenant"), c.req.param("id"));
  if (!row) return problem(c, 404, "no such evaluation");
  const head = {
    id: row.id,
    method: row.method,
    debias: row.debias,
    template: row.template,
    maxScore: row.maxScore,
    seed: row.seed,
    ...(row.rubric ? { rubric: row.rubric } : {}),
    ...(row.batchId ? { batchId: row.batchId } : {}),
    metadata: row.metadata ?? undefined,
    createdAt: new Date(row.createdAt).toISOString(),
  };
  if (row.status === "completed" || row.status === "failed") {
    const outcome = await readOutcome(db, row);
    return c.json({
      ...head,
      status: row.status,
      champion: outcome.champion,
      answers: outcome.answers,
      matches: outcome.matches,
      usage: usageOf(row),
      ...(row.error ? { error: row.error } : {}),
      completedAt: row.completedAt ? new Date(row.completedAt).toISOString() : undefined,
    });
  }
  // still running: the Durable Object has the live tournament
  const live = await c.env.TOURNAMENT.get(c.env.TOURNAMENT.idFromName(row.id)).snapshot();
  if (!live) return c.json({ ...head, status: row.status, champion: null, answers: [], matches: [], usage: usageOf(row) });
  return c.json({
    ...head,
    // the DO may have finished a moment before D1 has it: its status is the fresher one
    status: live.status,
    champion: live.outcome.champion,
    answers: live.outcome.answers,
    matches: live.outcome.matches,
    usage: live.usage,
    ...(live.error ? { error: live.error } : {}),
  });
});
