import { z } from "zod";
import { batchEnvelope } from "../../evaluations/batch-body";
import { evaluationBody, evaluationFields } from "../../evaluations/body";
import { collectionBody, submissionBody } from "../collection-schemas";
import { gradeBody } from "../grades";
import { keyBody } from "../keys";
import { ratingsBody } from "../ratings";
import * as r from "./responses";

/**
 * Every `/v1` route, with the zod schemas that validate its request (imported from where the route
 * uses them, never copied) and what it answers. `GET /openapi.json` is generated from this table
 * (./document.ts), and a test holds it equal to the app's own routes, so neither can change alone.
 */
export interface RouteDoc {
  method: "get" | "post" | "put" | "delete" | "options";
  /** OpenAPI style: `{id}`, not `:id`. */
  path: string;
  summary: string;
  tag: string;
  /** Who may call it: a tenant's API key, the admin token, or anyone. */
  auth: "key" | "admin" | "none";
  query?: Record<string, { schema: z.ZodType; description: string }>;
  body?: z.ZodType;
  /** An example body: the README's own, held equal to it by the README replay test. */
  example?: unknown;
  /** The success answers, by status: a JSON schema, or a media type other than JSON. */
  ok: Record<number, { description: string; schema?: z.ZodType; mediaType?: string }>;
  /** The refusals it can give besides 401 (and 404 for a route with an id), each problem+json. */
  refusals?: number[];
}

const listQuery = {
  limit: { schema: z.number().int().min(1).max(100), description: "page size, 1 to 100 (default 20)" },
  cursor: { schema: z.string(), description: "the previous page's nextCursor" },
};
const dryRun = {
  dryRun: { schema: z.enum(["true", "false"]), description: '"true": validate and estimate, create nothing (200 with the estimate)' },
};
/** The README's Quick start body (test/workers/openapi.test.ts holds the two equal). */
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

/** A batch's body as its parser reads it: each item an evaluation's body laid over `defaults`. */
const batchBody = batchEnvelope.extend({ defaults: evaluationFields.partial().optional(), items: z.array(evaluationBody) });

export const routes: RouteDoc[] = [
  {
    method: "post",
    path: "/v1/keys",
    summary: "An API key for a tenant",
    tag: "keys",
    auth: "admin",
    body: keyBody,
    example: { tenant: "my-course" },
    ok: { 201: { description: "the key, shown once", schema: r.keyCreated } },
    refusals: [400],
  },
  {
    method: "post",
    path: "/v1/webhook-secret/rotate",
    summary: "A new webhook signing secret (the old one signs too for a while)",
    tag: "webhooks",
    auth: "key",
    ok: { 201: { description: "the new secret, shown once", schema: r.secretRotated } },
  },
  {
    method: "post",
    path: "/v1/evaluations",
    summary: "Grade the answers to one question",
    tag: "evaluations",
    auth: "key",
    body: evaluationBody,
    example: quickStartExample,
    query: dryRun,
    ok: { 202: { description: "queued", schema: r.accepted }, 200: { description: "with dryRun=true: the estimate", schema: r.estimate } },
    refusals: [400, 409, 413, 415, 422, 429, 503],
  },
  {
    method: "get",
    path: "/v1/evaluations",
    summary: "The tenant's evaluations, newest first",
    tag: "evaluations",
    auth: "key",
    query: listQuery,
    ok: { 200: { description: "a page", schema: r.page } },
    refusals: [400],
  },
  {
    method: "get",
    path: "/v1/evaluations/{id}",
    summary: "The result",
    tag: "evaluations",
    auth: "key",
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
  {
    method: "delete",
    path: "/v1/evaluations/{id}",
    summary: "Cancel a queued or running evaluation",
    tag: "evaluations",
    auth: "key",
    ok: { 200: { description: "its status now", schema: r.cancelled } },
    refusals: [409],
  },
  {
    method: "get",
    path: "/v1/evaluations/{id}/events",
    summary: "The live bracket as server-sent events",
    tag: "evaluations",
    auth: "key",
    ok: { 200: { description: "snapshot, progress, match-text, end", mediaType: "text/event-stream" } },
    refusals: [503],
  },
  {
    method: "get",
    path: "/v1/evaluations/{id}/deliveries",
    summary: "The webhook delivery log",
    tag: "webhooks",
    auth: "key",
    ok: { 200: { description: "every attempt", schema: r.deliveries } },
  },
  {
    method: "post",
    path: "/v1/evaluations/{id}/share",
    summary: "A read-only share link",
    tag: "sharing",
    auth: "key",
    ok: { 201: { description: "the link, its token shown once", schema: r.shareCreated } },
    refusals: [409],
  },
  {
    method: "delete",
    path: "/v1/evaluations/{id}/share",
    summary: "Revoke the share links",
    tag: "sharing",
    auth: "key",
    ok: { 200: { description: "how many", schema: r.revoked } },
  },
  {
    method: "put",
    path: "/v1/evaluations/{id}/answers/{answerId}/grade",
    summary: "A teacher's grade of an answer",
    tag: "teacher",
    auth: "key",
    body: gradeBody,
    example: { score: 4.5, note: "clear, but no example" },
    ok: { 200: { description: "the grade", schema: r.grade } },
    refusals: [400, 409],
  },
  {
    method: "delete",
    path: "/v1/evaluations/{id}/answers/{answerId}/grade",
    summary: "Withdraw the teacher's grade",
    tag: "teacher",
    auth: "key",
    ok: { 200: { description: "withdrawn", schema: r.grade } },
    refusals: [409],
  },
  {
    method: "get",
    path: "/v1/evaluations/{id}/answers/{answerId}/grade/history",
    summary: "Every change to an answer's grade",
    tag: "teacher",
    auth: "key",
    ok: { 200: { description: "oldest first", schema: r.gradeHistory } },
  },
  {
    method: "post",
    path: "/v1/batches",
    summary: "Many questions at once (an exam)",
    tag: "batches",
    auth: "key",
    body: batchBody,
    query: dryRun,
    ok: {
      202: { description: "queued", schema: r.batchAccepted },
      200: { description: "with dryRun=true: the estimate", schema: r.estimate },
    },
    refusals: [400, 413, 415, 429, 503],
  },
  {
    method: "get",
    path: "/v1/batches/{id}",
    summary: "A batch's progress, exam level and agreement",
    tag: "batches",
    auth: "key",
    ok: {
      200: { description: "the batch, with its ETag", schema: r.batch },
      304: { description: "unchanged since the ETag sent as If-None-Match; no body" },
    },
  },
  {
    method: "get",
    path: "/v1/batches/{id}/deliveries",
    summary: "The batch's webhook delivery log",
    tag: "webhooks",
    auth: "key",
    ok: { 200: { description: "every attempt", schema: r.deliveries } },
  },
  {
    method: "get",
    path: "/v1/batches/{id}/ratings",
    summary: "Examinee ratings from the batch's matches",
    tag: "ratings",
    auth: "key",
    query: {
      samples: { schema: z.number().int().min(0), description: "bootstrap samples (0: none)" },
      seed: { schema: z.number().int().min(0), description: "bootstrap seed" },
    },
    ok: { 200: { description: "Elo, Bradley-Terry, Glicko-2, TrueSkill", schema: r.ratings } },
    refusals: [400],
  },
  {
    method: "post",
    path: "/v1/ratings",
    summary: "Rate players from games or outcomes",
    tag: "ratings",
    auth: "key",
    body: ratingsBody,
    ok: { 200: { description: "the ratings", schema: r.ratings } },
    refusals: [400],
  },
  {
    method: "get",
    path: "/v1/shared/{token}",
    summary: "A shared evaluation, read-only",
    tag: "sharing",
    auth: "none",
    ok: { 200: { description: "the evaluation with its texts", schema: r.shared } },
  },
  {
    method: "get",
    path: "/v1/meta",
    summary: "The methods, templates and limits the API validates against",
    tag: "meta",
    auth: "none",
    ok: { 200: { description: "the lists", schema: r.meta } },
  },
  {
    method: "get",
    path: "/v1/judges",
    summary: "The judge pool now: each endpoint's model, cap, load, counts, latency and circuit",
    tag: "meta",
    auth: "key",
    ok: { 200: { description: "the pool", schema: r.judges } },
    refusals: [503],
  },
  {
    method: "post",
    path: "/v1/collections",
    summary: "An embeddable form that collects answers",
    tag: "collections",
    auth: "key",
    body: collectionBody,
    ok: { 201: { description: "the collection and its embed snippets", schema: r.collection } },
    refusals: [400, 503],
  },
  {
    method: "get",
    path: "/v1/collections",
    summary: "The tenant's collections, newest first",
    tag: "collections",
    auth: "key",
    query: listQuery,
    ok: { 200: { description: "a page", schema: r.page } },
    refusals: [400],
  },
  {
    method: "get",
    path: "/v1/collections/{id}",
    summary: "A collection with its answers",
    tag: "collections",
    auth: "key",
    ok: { 200: { description: "the collection", schema: r.collection } },
  },
  {
    method: "get",
    path: "/v1/collections/{id}/events",
    summary: "Answers as they arrive, the closing, the grading's start",
    tag: "collections",
    auth: "key",
    ok: { 200: { description: "snapshot, answer, closed, graded or failed", mediaType: "text/event-stream" } },
  },
  {
    method: "post",
    path: "/v1/collections/{id}/close",
    summary: "Close now and grade",
    tag: "collections",
    auth: "key",
    ok: { 200: { description: "the collection", schema: r.collection } },
  },
  {
    method: "get",
    path: "/v1/public/collections/{token}",
    summary: "A collection's question, for its form",
    tag: "collections",
    auth: "none",
    ok: { 200: { description: "the question", schema: r.publicCollection } },
    refusals: [403],
  },
  {
    method: "options",
    path: "/v1/public/collections/{token}/answers",
    summary: "CORS preflight of the form",
    tag: "collections",
    auth: "none",
    ok: { 204: { description: "allowed" } },
    refusals: [403],
  },
  {
    method: "post",
    path: "/v1/public/collections/{token}/answers",
    summary: "Submit an answer",
    tag: "collections",
    auth: "none",
    body: submissionBody,
    ok: { 201: { description: "the receipt, its token shown once", schema: r.submitted } },
    refusals: [400, 403, 409, 413, 429],
  },
  {
    method: "get",
    path: "/v1/receipts/{token}",
    summary: "One submitted answer and, once graded, its score and rank",
    tag: "collections",
    auth: "none",
    ok: { 200: { description: "the receipt", schema: r.receipt } },
  },
];
