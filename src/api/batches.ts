import { readConfig } from "../config";
import { Hono } from "hono";
import { batchEvaluations, batchMatches, batchReport, findBatch, insertBatch, markBatchNotStarted } from "../db/batches";
import { database } from "../db/evaluations";
import { batchProgress, examGames } from "../exam";
import { webhookDeliveries } from "../webhooks/enqueue";
import { insecureWebhooksAllowed, webhookUrlErrors } from "../webhooks/url";
import { rateTournament } from "../ratings/index";
import { type App, requireKey } from "./auth";
import { parseBatchBody } from "./batch-body";
import { readJson } from "./body";
import { judgeGate } from "./create-evaluation";
import { evaluationInput } from "./input";
import { problem } from "./problem";
import { bootstrapQuery, bootstrapTooCostly } from "./ratings";

export const batches = new Hono<App>();
batches.use(requireKey);

batches.post("/", async (c) => {
  const json = await readJson(c);
  if (!json.ok) return json.response;
  const body = parseBatchBody(json.value);
  if (!body.ok) return problem(c, 400, body.errors.slice(0, 20).map((e) => `${e.field}: ${e.reason}`).join("; "), { errors: body.errors });
  const badUrls = webhookUrlErrors(
    [["webhook.url", body.value.webhook?.url], ...body.value.items.map((item, i): [string, string | undefined] => [`items[${i}].webhook.url`, item.webhook?.url])],
    insecureWebhooksAllowed(c.env),
  );
  if (badUrls.length) return problem(c, 400, badUrls.map((e) => `${e.field}: ${e.reason}`).join("; "), { errors: badUrls });
  if (!c.env.JUDGE_BASE_URL) return problem(c, 503, "no judge is configured: set JUDGE_BASE_URL");

  const tenant = c.get("tenant");
  const now = Date.now();
  const id = `ba_${crypto.randomUUID().replace(/-/g, "")}`;
  const inputs = body.value.items.map((item, index) => ({ input: evaluationInput(item, tenant, { batch: { id, index }, now, structuredOutputs: readConfig(c.env).structuredOutputs }), metadata: item.metadata ?? null }));
  const db = database(c.env.DB);
  await insertBatch(db, { id, tenant, webhookUrl: body.value.webhook?.url ?? null, metadata: body.value.metadata ?? null, createdAt: now }, inputs);

  // The batch is saved, then queued at the gate in one message; should that fail twice, its questions
  // are marked failed, never left queued with nothing to run them (enqueue is idempotent per id)
  const entries = inputs.map(({ input }) => ({ id: input.id, tenant }));
  try {
    await judgeGate(c.env).enqueue(entries);
  } catch {
    try {
      await judgeGate(c.env).enqueue(entries);
    } catch (err) {
      console.error("could not queue the batch", id, err);
      await markBatchNotStarted(db, id, Date.now());
    }
  }
  return c.json({ id, status: "running", total: inputs.length }, 202);
});

batches.get("/:id", async (c) => {
  const db = database(c.env.DB);
  const batch = await findBatch(db, c.get("tenant"), c.req.param("id"));
  if (!batch) return problem(c, 404, "no such batch");
  return c.json(await batchReport(db, c.env.DB, batch));
});

/** The webhook delivery log of a batch (its `batch.completed`), as for an evaluation. */
batches.get("/:id/deliveries", async (c) => {
  const batch = await findBatch(database(c.env.DB), c.get("tenant"), c.req.param("id"));
  if (!batch) return problem(c, 404, "no such batch");
  return c.json({ data: await webhookDeliveries(c.env, batch.tenant, batch.id) });
});

batches.get("/:id/ratings", async (c) => {
  const db = database(c.env.DB);
  const batch = await findBatch(db, c.get("tenant"), c.req.param("id"));
  if (!batch) return problem(c, 404, "no such batch");
  const bootstrap = bootstrapQuery(c.req.query("samples"), c.req.query("seed"));
  if (!bootstrap.ok) return problem(c, 400, bootstrap.errors.map((e) => `${e.field}: ${e.reason}`).join("; "), { errors: bootstrap.errors });
  const evaluations = await batchEvaluations(db, batch.id);
  if (batchProgress(batch.total, evaluations.map((e) => e.status)).status === "running") {
    return problem(c, 409, "the batch is still running; ratings are computed from its finished matches once every question is done");
  }
  const games = examGames(await batchMatches(c.env.DB, batch.id));
  if (games.length === 0) {
    return problem(c, 409, "no games: ratings need pairwise matches (not method individual) between answers labelled with different examinees");
  }
  const costly = bootstrap.value && bootstrapTooCostly(games.length, bootstrap.value.samples);
  if (costly) return problem(c, 400, `samples: ${costly}`, { errors: [{ field: "samples", reason: costly }] });
  return c.json({ batchId: batch.id, ...rateTournament(games, { bootstrap: bootstrap.value }) });
});
