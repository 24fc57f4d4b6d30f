import { Hono } from "hono";
import { evaluationBody, limits } from "../evaluations/body";
import { cancelEvaluation } from "../evaluations/cancel";
import { createEvaluation, dryRunEvaluation } from "../evaluations/create";
import { evaluationPage, ownEvaluation, readEvaluation } from "../evaluations/read";
import { textsWanted } from "../evaluations/texts";
import { ProblemError } from "../problems";
import { tournamentStub } from "../stubs";
import { webhookDeliveries } from "../webhooks/enqueue";
import type { App } from "./context";
import { requireKey } from "./auth";
import { readBody } from "./body";
import { encodeCursor, pageParams } from "./cursor";
import { dryRun } from "./dry-run";

/** How long a poller of a running evaluation is asked to wait before reading it again. */
const POLL_AFTER_SECONDS = 1;

export const evaluations = new Hono<App>();
evaluations.use(requireKey);

evaluations.post("/", async (c) => {
  const body = await readBody(c, evaluationBody);
  // ?dryRun=true: validated and estimated, nothing created
  if (dryRun(c.req.query("dryRun"))) return c.json(await dryRunEvaluation(c.env, c.get("tenant"), body), 200);
  const { id } = await createEvaluation(c.env, c.get("tenant"), body);
  return c.json({ id, status: "queued" }, 202);
});

/** The live bracket as server-sent events, from the evaluation's Durable Object. */
evaluations.get("/:id/events", async (c) => {
  const row = await ownEvaluation(c.env, c.get("tenant"), c.req.param("id"));
  const stream = await tournamentStub(c.env, row.id).events(row.id);
  // the object reads the evaluation from D1; should that fail, the stream can be opened again
  if (!stream)
    throw new ProblemError(503, "the evaluation could not be read; open the stream again in a moment", { headers: { "retry-after": "1" } });
  return stream;
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

/**
 * The result, tagged: a poller that sends its ETag back as If-None-Match is answered 304 with no body
 * until the evaluation changes; `?exclude=texts` leaves out the texts (most of a large result). A queued
 * or running evaluation says how soon reading again is worth it (Retry-After, in seconds): its state
 * changes with each judge result, but no page needs it faster; the event stream is for watching live.
 * A key that reads a running evaluation in full faster than its byte budget allows is answered 429
 * with the Retry-After its budget needs (Tournament.read): its tournament is not made to wait for it.
 */
evaluations.get("/:id", async (c) => {
  const texts = textsWanted(c.req.query("exclude"));
  const read = await readEvaluation(c.env, c.get("tenant"), c.req.param("id"), {
    texts,
    ifNoneMatch: c.req.header("if-none-match"),
    reader: c.get("keyId"),
  });
  const headers: Record<string, string> = { etag: read.etag, ...(read.running ? { "retry-after": String(POLL_AFTER_SECONDS) } : {}) };
  if (read.json === null) return c.body(null, 304, headers);
  return c.body(read.json, 200, { ...headers, "content-type": "application/json" });
});

evaluations.delete("/:id", async (c) => c.json(await cancelEvaluation(c.env, c.get("tenant"), c.req.param("id"))));

/** The webhook delivery log of an evaluation: every attempt, its status or error, and what comes next. */
evaluations.get("/:id/deliveries", async (c) => {
  const row = await ownEvaluation(c.env, c.get("tenant"), c.req.param("id"));
  return c.json({ data: await webhookDeliveries(c.env, row.tenant, row.id) });
});
