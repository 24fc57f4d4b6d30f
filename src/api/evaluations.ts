import { Hono } from "hono";
import { defaults } from "../config";
import { randomSeed } from "../core/random";
import { database, deleteEvaluation, findEvaluation, insertEvaluation, readOutcome, usageOf } from "../db/evaluations";
import type { EvaluationInput } from "../evaluation";
import { type App, requireKey } from "./auth";
import { readBody } from "./body";
import { problem } from "./problem";
import { evaluationBody } from "./schemas";

export const evaluations = new Hono<App>();
evaluations.use(requireKey);

evaluations.post("/", async (c) => {
  const body = await readBody(c, evaluationBody);
  if (!body.ok) return body.response;
  if (!c.env.JUDGE_BASE_URL) return problem(c, 503, "no judge is configured: set JUDGE_BASE_URL");
  const b = body.value;
  const input: EvaluationInput = {
    id: `ev_${crypto.randomUUID().replace(/-/g, "")}`,
    tenant: c.get("tenant"),
    question: b.question,
    reference: b.reference ?? null,
    maxScore: b.maxScore,
    template: b.template,
    method: b.method,
    debias: b.debias,
    pairing: b.pairing,
    seed: b.seed ?? randomSeed(),
    judge: { model: b.judge?.model ?? null, temperature: b.judge?.temperature ?? defaults.temperature },
    answers: b.answers,
    createdAt: Date.now(),
  };
  const db = database(c.env.DB);
  await insertEvaluation(db, input, { webhookUrl: b.webhook?.url ?? null, metadata: b.metadata ?? null });
  try {
    await c.env.TOURNAMENT.get(c.env.TOURNAMENT.idFromName(input.id)).start(input);
  } catch (err) {
    await deleteEvaluation(db, input.id);
    console.error("could not start the tournament", input.id, err);
    return problem(c, 503, "the evaluation could not be started; nothing was saved, try again");
  }
  return c.json({ id: input.id, status: "queued" }, 202);
});

evaluations.get("/:id", async (c) => {
  const db = database(c.env.DB);
  const row = await findEvaluation(db, c.get("tenant"), c.req.param("id"));
  if (!row) return problem(c, 404, "no such evaluation");
  const head = {
    id: row.id,
    method: row.method,
    debias: row.debias,
    pairing: row.pairing,
    template: row.template,
    maxScore: row.maxScore,
    seed: row.seed,
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
