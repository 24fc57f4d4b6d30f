import { Hono } from "hono";
import { batchDiagnosedMatches, batchMatches, batchReport, findBatch } from "../db/batches";
import { judgeDiagnostics } from "../core/diagnostics";
import { batchAgreement } from "../evaluations/teacher";
import { database } from "../db/database";
import { batchProgress, examGames } from "../model/exam";
import { parseBatchBody } from "../contract";
import { createBatch, dryRunBatch } from "../evaluations/create";
import { ProblemError } from "../platform/problems";
import { webhookDeliveries } from "../webhooks/enqueue";
import { rateTournament } from "../ratings/index";
import type { App } from "./context";
import { dryRun, dryRunQuery } from "./dry-run";
import { readJson } from "./body";
import * as r from "../contract";
import { batchBody, playerCount, ratingLimits } from "../contract";
import { bootstrapQuery, bootstrapQueryDoc, fittedBootstrap } from "./ratings";
import { route } from "./route";
import { notModified, weakTag } from "../evaluations/etag";

export const batches = new Hono<App>();

route(
  batches,
  {
    method: "post",
    path: "/",
    summary: "Many questions at once (an exam)",
    tag: "batches",
    auth: "key",
    body: batchBody,
    query: dryRunQuery,
    ok: {
      202: { description: "queued", schema: r.batchAccepted },
      200: { description: "with dryRun=true: the estimate", schema: r.estimate },
    },
    refusals: [400, 413, 415, 429, 503],
  },
  // read by parseBatchBody rather than the declared schema: it checks each item on its own, so a
  // refusal names items[i].field, at most 20 of them
  async (c) => {
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
    if (dryRun(c)) return c.json(await dryRunBatch(c.env, c.get("tenant"), body.value), 200);
    const { id, total } = await createBatch(c.env, c.get("tenant"), body.value);
    return c.json({ id, status: "running", total }, 202);
  },
);

route(
  batches,
  {
    method: "get",
    path: "/:id",
    summary: "A batch's progress, exam level, agreement and judge diagnostics",
    tag: "batches",
    auth: "key",
    ok: {
      200: { description: "the batch, with its ETag", schema: r.batch },
      304: { description: "unchanged since the ETag sent as If-None-Match; no body" },
    },
  },
  async (c) => {
    const db = database(c.env.DB);
    const batch = await findBatch(db, c.get("tenant"), c.req.param("id"));
    if (!batch) throw new ProblemError(404, "no such batch");
    const [report, agreement, diagnosed] = await Promise.all([
      batchReport(db, c.env.DB, batch),
      batchAgreement(c.env, batch.id),
      batchDiagnosedMatches(c.env.DB, batch.id),
    ]);
    // tagged by its content, as an evaluation read from D1 is: a poller that sends the tag back gets a
    // 304 without the body (which, for an exam of many questions, is long) until progress or a grade moves
    const json = JSON.stringify({ ...report, agreement, judgeDiagnostics: judgeDiagnostics(diagnosed) });
    const etag = weakTag(json);
    if (notModified(c.req.header("if-none-match"), etag)) return c.body(null, 304, { etag });
    return c.body(json, 200, { etag, "content-type": "application/json" });
  },
);

/** The webhook delivery log of a batch (its `batch.completed`), as for an evaluation. */
route(
  batches,
  {
    method: "get",
    path: "/:id/deliveries",
    summary: "The batch's webhook delivery log",
    tag: "webhooks",
    auth: "key",
    ok: { 200: { description: "every attempt", schema: r.deliveries } },
  },
  async (c) => {
    const batch = await findBatch(database(c.env.DB), c.get("tenant"), c.req.param("id"));
    if (!batch) throw new ProblemError(404, "no such batch");
    return c.json({ data: await webhookDeliveries(c.env, batch.tenant, batch.id) });
  },
);

route(
  batches,
  {
    method: "get",
    path: "/:id/ratings",
    summary: "Examinee ratings from the batch's matches",
    tag: "ratings",
    auth: "key",
    query: bootstrapQueryDoc,
    ok: { 200: { description: "Elo, Bradley-Terry, Glicko-2, TrueSkill", schema: r.ratings } },
    refusals: [400],
  },
  async (c) => {
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
    // a ratings request's own cap on games x samples, with no sample: what one request may cost
    if (games.length > ratingLimits.maxGameSamples)
      throw new ProblemError(409, `the batch's matches make ${games.length} games; ratings take at most ${ratingLimits.maxGameSamples}`);
    const examinees = playerCount(games);
    if (examinees > ratingLimits.maxPlayers)
      throw new ProblemError(409, `the batch's games have ${examinees} examinees; ratings take at most ${ratingLimits.maxPlayers}`);
    const boot = fittedBootstrap(games, undefined, bootstrap.value);
    if (!boot.ok) throw new ProblemError(400, `samples: ${boot.reason}`, { errors: [{ field: "samples", reason: boot.reason }] });
    return c.json({
      batchId: batch.id,
      ...rateTournament(games, { bootstrap: boot.value, bradleyTerryWork: ratingLimits.bradleyTerryWork }),
    });
  },
);
