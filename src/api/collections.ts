import { Hono } from "hono";
import { type CollectionRow, type CollectionSettings, findCollection, listCollections, submissions } from "../db/collections";
import { findEvaluation } from "../db/evaluations";
import { database } from "../db/database";
import { finalGrades } from "../evaluations/final-grades";
import { releaseModeOf, releaseTimes } from "../evaluations/releases";
import { readConfig } from "../platform/config";
import { refuseWebhookUrls, withoutCredentials } from "../webhooks/url";
import type { App } from "./context";
import { selfOrigin } from "./public-origin";
import { withStreamSlot } from "./stream-slots";
import { keptWithout } from "./idempotency";
import { encodeCursor, pageParams, pageQuery } from "./cursor";
import * as r from "../contract";
import { collectionBody, collectionLimits, limits } from "../contract";
import { route } from "./route";
import { collectionStub } from "../platform/stubs";
import { ProblemError } from "../platform/problems";
import { openCollection } from "../evaluations/open-collection";

/** Owner side of collections (behind the key): create one, read it with its answers, close it. */
export const collections = new Hono<App>();

route(
  collections,
  {
    method: "post",
    path: "/",
    summary: "An embeddable form that collects answers",
    tag: "collections",
    auth: "key",
    body: collectionBody,
    ok: { 201: { description: "the collection and its embed snippets", schema: r.collection } },
    refusals: [400, 503],
  },
  async (c, input) => {
    const b = await input.body();
    refuseWebhookUrls([["webhook.url", b.webhook?.url]], readConfig(c.env).allowInsecureWebhooks);
    const created = await openCollection(c.env, c.get("tenant"), b);
    keptWithout(c, collectionTokenFields);
    return c.json(await describe(selfOrigin(c), created, c.env), 201);
  },
);

/** The tenant's collections, newest first, a page at a time (the cursor as for evaluations). */
route(
  collections,
  {
    method: "get",
    path: "/",
    summary: "The tenant's collections, newest first",
    tag: "collections",
    auth: "key",
    query: pageQuery,
    ok: { 200: { description: "a page", schema: r.collectionPage } },
    refusals: [400],
  },
  async (c) => {
    const { limit, after } = pageParams(
      { limit: c.req.query("limit"), cursor: c.req.query("cursor") },
      { defaultSize: limits.defaultPageSize, max: limits.maxPageSize },
    );
    const rows = await listCollections(database(c.env.DB), c.get("tenant"), after, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return c.json({
      data: page.map((row) => ({
        id: row.id,
        status: row.status,
        question: (row.settings as CollectionSettings).question,
        answerCount: row.answerCount,
        evaluation: row.evaluationId,
        createdAt: new Date(row.createdAt).toISOString(),
        closedAt: row.closedAt ? new Date(row.closedAt).toISOString() : null,
      })),
      nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, id: last.id }) : null,
    });
  },
);

/** Answers as they arrive, then the closing and the grading's start, as server-sent events (the Collection object's). */
route(
  collections,
  {
    method: "get",
    path: "/:id/events",
    summary: "Answers as they arrive, the closing, the grading's start",
    tag: "collections",
    auth: "key",
    within: "collection",
    ok: { 200: { description: "snapshot, answer, closed, graded or failed", mediaType: "text/event-stream" } },
    refusals: [429],
  },
  async (c) => {
    const row = await findCollection(database(c.env.DB), c.get("tenant"), c.req.param("id"));
    if (!row) throw new ProblemError(404, "no such collection");
    return withStreamSlot(c, () => collectionStub(c.env, row.id).watch());
  },
);

route(
  collections,
  {
    method: "get",
    path: "/:id",
    summary: "A collection with its answers",
    tag: "collections",
    auth: "key",
    within: "collection",
    ok: { 200: { description: "the collection", schema: r.collection } },
  },
  async (c) => {
    const row = await findCollection(database(c.env.DB), c.get("tenant"), c.req.param("id"));
    if (!row) throw new ProblemError(404, "no such collection");
    return c.json(await describe(selfOrigin(c), row, c.env));
  },
);

route(
  collections,
  {
    method: "post",
    path: "/:id/close",
    summary: "Close now and grade",
    tag: "collections",
    auth: "key",
    within: "collection",
    ok: { 200: { description: "the collection", schema: r.collection } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const row = await findCollection(db, c.get("tenant"), c.req.param("id"));
    if (!row) throw new ProblemError(404, "no such collection");
    await collectionStub(c.env, row.id).close("owner");
    keptWithout(c, collectionTokenFields);
    return c.json(await describe(selfOrigin(c), (await findCollection(db, row.tenant, row.id))!, c.env));
  },
);

function isoOrNull(at: number | null): string | null {
  return at === null ? null : new Date(at).toISOString();
}

/** What carries the public token in a collection's description: never kept for an idempotent replay. */
const collectionTokenFields = ["publicToken", "embed"];

/** The embed snippets, both pointing at this service, with the public token that can only submit. */
export function embedSnippets(origin: string, publicToken: string) {
  return {
    script: `<script src="${origin}/embed.js" data-collection="${publicToken}" async></script>`,
    iframe: `<iframe src="${origin}/embed/${publicToken}" title="Answer form" width="100%" height="560" style="border:0;max-width:40rem"></iframe>`,
  };
}

export async function describe(origin: string, row: CollectionRow, env: Env) {
  const db = database(env.DB);
  const answers = await submissions(db, row.id);
  const evaluation = row.evaluationId ? await findEvaluation(db, row.tenant, row.evaluationId) : null;
  const completed = evaluation?.status === "completed" ? evaluation : null;
  const graded = new Map(completed ? (await finalGrades(env, completed)).answers.map((a) => [a.id, a]) : []);
  const released = completed ? await releaseTimes(env, completed, releaseModeOf(row)) : () => null;
  const settings = row.settings as CollectionSettings;
  return {
    id: row.id,
    status: row.status,
    ...settings,
    // collections stored before these settings showed grades at once, ranks included
    release: settings.release ?? "auto",
    showRank: settings.showRank ?? settings.release === undefined,
    closing: { deadline: row.deadline ? new Date(row.deadline).toISOString() : null, maxAnswers: row.maxAnswers },
    allowedOrigins: row.allowedOrigins,
    // a URL stored before the credentials rule may still hold some: they are never shown back
    webhook: row.webhookUrl ? { url: withoutCredentials(row.webhookUrl) } : null,
    publicToken: row.publicToken,
    embed: embedSnippets(origin, row.publicToken),
    limits: { maxAnswerChars: collectionLimits.maxSubmissionChars },
    answerCount: answers.length,
    answers: answers.map((a) => {
      const g = graded.get(a.answerId);
      return {
        id: a.answerId,
        name: a.name,
        text: a.text,
        submittedAt: new Date(a.createdAt).toISOString(),
        ...(g ? { score: g.score, rank: g.rank, finalScore: g.finalScore, finalFrom: g.finalFrom } : {}),
        ...(completed ? { releasedAt: isoOrNull(released(a.answerId)) } : {}),
      };
    }),
    closedAt: row.closedAt ? new Date(row.closedAt).toISOString() : null,
    closedBy: row.closedBy,
    evaluation: evaluation ? { id: evaluation.id, status: evaluation.status } : null,
    error: row.error,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
