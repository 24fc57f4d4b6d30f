import { Hono } from "hono";
import { batchMatches, batchReport, findBatch } from "../db/batches";
import { batchAgreement } from "../evaluations/teacher";
import { database } from "../db/evaluations";
import { batchProgress, examGames } from "../exam";
import { parseBatchBody } from "../evaluations/batch-body";
import { createBatch, dryRunBatch } from "../evaluations/create";
import { ProblemError } from "../problems";
import { webhookDeliveries } from "../webhooks/enqueue";
import { rateTournament } from "../ratings/index";
import type { App } from "./context";
import { requireKey } from "./auth";
import { dryRun } from "./dry-run";
import { readJson } from "./body";
import { bootstrapQuery, bootstrapTooCostly } from "./ratings";
import { notModified, weakTag } from "../evaluations/etag";

export const batches = new Hono<App>();
batches.use(requireKey);

batches.post("/", async (c) => {
  const body = parseBatchBody(await readJson(c));
  if (!body.ok)
    throw new ProblemError(
      400,
      body.errors
        .slice(0, 20)
        .map((e) => `${e.field}: ${e.reason}`)
        .join("; "),
      { errors: body.errors },
    );
  if (dryRun(c.req.query("dryRun"))) return c.json(await dryRunBatch(c.env, c.get("tenant"), body.value), 200);
  const { id, total } = await createBatch(c.env, c.get("tenant"), body.value);
  return c.json({ id, status: "running", total }, 202);
});

batches.get("/:id", async (c) => {
  const db = database(c.env.DB);
  const batch = await findBatch(db, c.get("tenant"), c.req.param("id"));
  if (!batch) throw new ProblemError(404, "no such batch");
  const [report, agreement] = await Promise.all([batchReport(db, c.env.DB, batch), batchAgreement(c.env, batch.id)]);
  // tagged by its content, as an evaluation read from D1 is: a poller that sends the tag back gets a
  // 304 without the body (which, for an exam of many questions, is long) until progress or a grade moves
  const json = JSON.stringify({ ...report, agreement });
  const etag = weakTag(json);
  if (notModified(c.req.header("if-none-match"), etag)) return c.body(null, 304, { etag });
  return c.body(json, 200, { etag, "content-type": "application/json" });
});

/** The webhook delivery log of a batch (its `batch.completed`), as for an evaluation. */
batches.get("/:id/deliveries", async (c) => {
  const batch = await findBatch(database(c.env.DB), c.get("tenant"), c.req.param("id"));
  if (!batch) throw new ProblemError(404, "no such batch");
  return c.json({ data: await webhookDeliveries(c.env, batch.tenant, batch.id) });
});

batches.get("/:id/ratings", async (c) => {
  const db = database(c.env.DB);
  const batch = await findBatch(db, c.get("tenant"), c.req.param("id"));
  if (!batch) throw new ProblemError(404, "no such batch");
  const bootstrap = bootstrapQuery(c.req.query("samples"), c.req.query("seed"));
  if (!bootstrap.ok)
    throw new ProblemError(400, bootstrap.errors.map((e) => `${e.field}: ${e.reason}`).join("; "), { errors: bootstrap.errors });
  if (batchProgress(batch.total, batch).status === "running") {
    throw new ProblemError(409, "the batch is still running; ratings are computed from its finished matches once every question is done");
  }
  const games = examGames(await batchMatches(c.env.DB, batch.id));
  if (games.length === 0) {
    throw new ProblemError(
      409,
      "no games: ratings need pairwise matches (not method individual) between answers labelled with different examinees",
    );
  }
  const costly = bootstrap.value && bootstrapTooCostly(games.length, bootstrap.value.samples);
  if (costly) throw new ProblemError(400, `samples: ${costly}`, { errors: [{ field: "samples", reason: costly }] });
  return c.json({ batchId: batch.id, ...rateTournament(games, { bootstrap: bootstrap.value }) });
});
