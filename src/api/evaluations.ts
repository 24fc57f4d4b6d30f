import { Hono } from "hono";
import { evaluationBody, limits } from "../contract";
import { cancelEvaluation } from "../evaluations/cancel";
import { createEvaluation, dryRunEvaluation } from "../evaluations/create";
import { evaluationPage, ownEvaluation, readEvaluation } from "../evaluations/read";
import { ProblemError } from "../problems";
import { tournamentStub } from "../stubs";
import { webhookDeliveries } from "../webhooks/enqueue";
import type { App } from "./context";
import { requireKey } from "./auth";
import { readBody } from "./body";
import { encodeCursor, pageParams } from "./cursor";
import { dryRun } from "./dry-run";
import { withStreamSlot } from "./stream-slots";

export const evaluations = new Hono<App>();
evaluations.use(requireKey);

evaluations.post("/", async (c) => {
  const body = await readBody(c, evaluationBody);
  // ?dryRun=true: validated and estimated, nothing created
  if (dryRun(c)) return c.json(await dryRunEvaluation(c.env, c.get("tenant"), body), 200);
  const { id } = await createEvaluation(c.env, c.get("tenant"), body);
  return c.json({ id, status: "queued" }, 202);
});

/** The live bracket as server-sent events, from the evaluation's Durable Object. */
evaluations.get("/:id/events", async (c) => {
  const row = await ownEvaluation(c.env, c.get("tenant"), c.req.param("id"));
  return withStreamSlot(c, async () => {
    const stream = await tournamentStub(c.env, row.id).events(row.id);
    // the object reads the evaluation from D1; should that fail, the stream can be opened again
    if (!stream)
      throw new ProblemError(503, "the evaluation could not be read; open the stream again in a moment", {
        headers: { "retry-after": "1" },
      });
    return stream;
  });
});

/** The tenant's evaluations, newest first, a page at a time; `nextCursor` is null on the last page. */
evaluations.get("/", async (c) => {
  const { limit, after } = pageParams(
    { limit: c.req.query("limit"), cursor: c.req.query("cursor") },
    { defaultSize: limits.defaultPageSize, max: limits.maxPageSize },
  );
  const page = await evaluationPage(c.env, c.get("tenant"), after, limit);
  return c.json({ data: page.data, nextCursor: page.next ? encodeCursor(page.next) : null });
});

evaluations.get("/:id", async (c) => c.json(await readEvaluation(c.env, c.get("tenant"), c.req.param("id"))));

evaluations.delete("/:id", async (c) => c.json(await cancelEvaluation(c.env, c.get("tenant"), c.req.param("id"))));

/** The webhook delivery log of an evaluation: every attempt, its status or error, and what comes next. */
evaluations.get("/:id/deliveries", async (c) => {
  const row = await ownEvaluation(c.env, c.get("tenant"), c.req.param("id"));
  return c.json({ data: await webhookDeliveries(c.env, row.tenant, row.id) });
});
