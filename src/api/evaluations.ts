import { Hono } from "hono";
import { z } from "zod";
import * as r from "../contract";
import { evaluationBody, limits } from "../contract";
import { cancelEvaluation } from "../evaluations/cancel";
import { createEvaluation, dryRunEvaluation } from "../evaluations/create";
import { evaluationPage, ownEvaluation, readEvaluation } from "../evaluations/read";
import { rerunEvaluation } from "../evaluations/rerun";
import { textsWanted } from "../evaluations/texts";
import { ProblemError } from "../platform/problems";
import { tournamentStub } from "../platform/stubs";
import { webhookDeliveries } from "../webhooks/enqueue";
import type { App } from "./context";
import { encodeCursor, pageParams, pageQuery } from "./cursor";
import { dryRun, dryRunQuery } from "./dry-run";
import { route } from "./route";
import { withStreamSlot } from "./stream-slots";

/** The README's quick start body (test/workers/openapi.test.ts holds the two equal). */
export const quickStartExample = {
  question: "What is a stack?",
  reference: "A stack is a last-in, first-out (LIFO) data structure: push adds an element on top, pop removes the top element.",
  maxScore: 5,
  answers: [
    { id: "ana", text: "A LIFO structure: push puts an element on top, pop takes the top element off." },
    { id: "ben", text: "A list where the first element in is the first out." },
    { id: "cleo", text: "A data structure with push and pop, last in first out." },
    { id: "dev", text: "Memory used by the CPU." },
    { id: "eve", text: "Stack: elements are added and removed at the top, so the last one pushed is the first one popped." },
  ],
};

/** How long a poller of a running evaluation is asked to wait before reading it again. */
const POLL_AFTER_SECONDS = 1;

export const evaluations = new Hono<App>();

route(
  evaluations,
  {
    method: "post",
    path: "/",
    summary: "Grade the answers to one question",
    tag: "evaluations",
    auth: "key",
    body: evaluationBody,
    example: quickStartExample,
    query: dryRunQuery,
    ok: { 202: { description: "queued", schema: r.accepted }, 200: { description: "with dryRun=true: the estimate", schema: r.estimate } },
    refusals: [400, 409, 413, 415, 422, 429, 503],
  },
  async (c, input) => {
    const body = await input.body();
    // ?dryRun=true: validated and estimated, nothing created
    if (dryRun(c)) return c.json(await dryRunEvaluation(c.env, c.get("tenant"), body), 200);
    const { id } = await createEvaluation(c.env, c.get("tenant"), body);
    return c.json({ id, status: "queued" }, 202);
  },
);

/** The live bracket as server-sent events, from the evaluation's Durable Object. */
route(
  evaluations,
  {
    method: "get",
    path: "/:id/events",
    summary: "The live bracket as server-sent events",
    tag: "evaluations",
    auth: "key",
    within: "evaluation",
    ok: { 200: { description: "snapshot, progress, match-text, end", mediaType: "text/event-stream" } },
    refusals: [429, 503],
  },
  async (c) => {
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
  },
);

/** The tenant's evaluations, newest first, a page at a time; `nextCursor` is null on the last page. */
route(
  evaluations,
  {
    method: "get",
    path: "/",
    summary: "The tenant's evaluations, newest first",
    tag: "evaluations",
    auth: "key",
    query: pageQuery,
    ok: { 200: { description: "a page", schema: r.evaluationPage } },
    refusals: [400],
  },
  async (c) => {
    const { limit, after } = pageParams(
      { limit: c.req.query("limit"), cursor: c.req.query("cursor") },
      { defaultSize: limits.defaultPageSize, max: limits.maxPageSize },
    );
    const page = await evaluationPage(c.env, c.get("tenant"), after, limit);
    return c.json({ data: page.data, nextCursor: page.next ? encodeCursor(page.next) : null });
  },
);

/**
 * The result, tagged: a poller that sends its ETag back as If-None-Match is answered 304 with no body
 * until the evaluation changes; `?exclude=texts` leaves out the texts (most of a large result). A queued
 * or running evaluation says how soon reading again is worth it (Retry-After, in seconds): its state
 * changes with each judge result, but no page needs it faster; the event stream is for watching live.
 * A key that reads a running evaluation in full faster than its byte budget allows is answered 429
 * with the Retry-After its budget needs (Tournament.read): its tournament is not made to wait for it.
 */
route(
  evaluations,
  {
    method: "get",
    path: "/:id",
    summary: "The result",
    tag: "evaluations",
    auth: "key",
    within: "evaluation",
    query: {
      exclude: {
        schema: z.enum(["texts"]),
        description: "\"texts\": without each answer's `text` and each judge call's `raw` (most of a large result)",
      },
    },
    ok: {
      200: { description: "the evaluation, with its ETag (and Retry-After while queued or running)", schema: r.evaluation },
      304: { description: "unchanged since the ETag sent as If-None-Match; no body" },
    },
    // 429: a running evaluation read in full past the key's byte budget (LIVE_READ_BYTES_PER_S)
    refusals: [429, 503],
  },
  async (c) => {
    const texts = textsWanted(c.req.query("exclude"));
    const read = await readEvaluation(c.env, c.get("tenant"), c.req.param("id"), {
      texts,
      ifNoneMatch: c.req.header("if-none-match"),
      reader: c.get("keyId"),
    });
    const headers: Record<string, string> = { etag: read.etag, ...(read.running ? { "retry-after": String(POLL_AFTER_SECONDS) } : {}) };
    if (read.json === null) return c.body(null, 304, headers);
    return c.body(read.json, 200, { ...headers, "content-type": "application/json" });
  },
);

/**
 * A replay: a new evaluation with the same settings (its seed, so every judge call sends the same
 * sampling seed) and answers; once both have completed, its result's `rerun` counts the matches that
 * came out differently.
 */
route(
  evaluations,
  {
    method: "post",
    path: "/:id/rerun",
    summary: "Rerun an evaluation with the same settings and answers",
    tag: "evaluations",
    auth: "key",
    // no `within`: a key limited to a collection may not make evaluations outside it
    ok: { 202: { description: "the rerun, queued", schema: r.rerunAccepted } },
    refusals: [409, 429, 503],
  },
  async (c) => {
    const of = c.req.param("id");
    const { id } = await rerunEvaluation(c.env, c.get("tenant"), of);
    return c.json({ id, status: "queued" as const, rerunOf: of }, 202);
  },
);

route(
  evaluations,
  {
    method: "delete",
    path: "/:id",
    summary: "Cancel a queued or running evaluation",
    tag: "evaluations",
    auth: "key",
    within: "evaluation",
    ok: { 200: { description: "its status now", schema: r.cancelled } },
    refusals: [409],
  },
  async (c) => c.json(await cancelEvaluation(c.env, c.get("tenant"), c.req.param("id"))),
);

/** The webhook delivery log of an evaluation: every attempt, its status or error, and what comes next. */
route(
  evaluations,
  {
    method: "get",
    path: "/:id/deliveries",
    summary: "The webhook delivery log",
    tag: "webhooks",
    auth: "key",
    within: "evaluation",
    ok: { 200: { description: "every attempt", schema: r.deliveries } },
  },
  async (c) => {
    const row = await ownEvaluation(c.env, c.get("tenant"), c.req.param("id"));
    return c.json({ data: await webhookDeliveries(c.env, row.tenant, row.id) });
  },
);
