import { networkOf } from "../limits/network";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { type CollectionRow, type CollectionSettings, collectionByPublicToken } from "../db/collections";
import { database } from "../db/database";
import type { App } from "./context";
import * as r from "../contract";
import { collectionLimits, submissionBody } from "../contract";
import { tokenOfErased } from "../evaluations/erasure";
import { ProblemError } from "../platform/problems";
import { collectionScope, idempotently, shownOnce } from "./idempotency";
import { selfOrigin } from "./public-origin";
import { collectionStub } from "../platform/stubs";
import { problemResponse } from "../platform/problems";
import { route, type RouteInput } from "./route";

/**
 * The public side of a collection, reached with its public token and no key. A browser may call it
 * from the collection's allowed origins (the script embed) or from this service's own embed page (the
 * iframe, itself framed only by the allowed origins); CORS is answered for exactly those origins.
 */
export const publicCollections = new Hono<App>();

/** The longest answer and name, 4 bytes a character in UTF-8 at most, plus room for the JSON around them. */
const maxBodyBytes = (collectionLimits.maxSubmissionChars + collectionLimits.maxNameChars) * 4 + 1024;

/** The collection the token names, and the CORS headers its answers get; 404 or 403 thrown otherwise. */
async function access(
  c: Context<App>,
  needOrigin: boolean,
  preflight = false,
): Promise<{ row: CollectionRow; cors: Record<string, string> }> {
  const row = await collectionByPublicToken(database(c.env.DB), c.req.param("token") ?? "");
  if (!row) {
    if (await tokenOfErased(c.env, c.req.param("token") ?? "")) throw new ProblemError(410, "this question was erased");
    throw new ProblemError(404, "no such collection");
  }
  const origin = c.req.header("origin");
  // a browser sends Origin with every POST; same-origin GETs (the iframe page) come without one
  if (!origin) {
    if (needOrigin) throw new ProblemError(403, "answers are taken only from a web page: the Origin header is missing");
    return { row, cors: {} };
  }
  if (origin !== selfOrigin(c) && !row.allowedOrigins.includes(origin)) {
    // readable by the refused page (CORS on the refusal alone), so its form can say why instead of
    // "could not be loaded"; it tells that page nothing but that it is refused. A preflight gets none:
    // the refused site's browser must not send the answer at all
    throw new ProblemError(403, `the site ${origin} is not allowed to collect answers for this question`, {
      headers: preflight ? {} : { "access-control-allow-origin": origin, vary: "Origin" },
    });
  }
  return { row, cors: { "access-control-allow-origin": origin, vary: "Origin" } };
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  const out = new Response(response.body, response);
  for (const [k, v] of Object.entries(headers)) out.headers.set(k, v);
  return out;
}

/** What the form shows: the question and whether it still takes answers; nothing of the answers. */
route(
  publicCollections,
  {
    method: "get",
    path: "/:token",
    summary: "A collection's question, for its form",
    tag: "collections",
    auth: "none",
    ok: { 200: { description: "the question", schema: r.publicCollection } },
    refusals: [403, 410],
  },
  async (c) => {
    const a = await access(c, false);
    const s = a.row.settings as CollectionSettings;
    return withHeaders(
      c.json({
        question: s.question,
        maxScore: s.maxScore,
        open: a.row.status === "open",
        deadline: a.row.deadline ? new Date(a.row.deadline).toISOString() : null,
        limits: { maxAnswerChars: collectionLimits.maxSubmissionChars, maxNameChars: collectionLimits.maxNameChars },
      }),
      { ...a.cors, "cache-control": "no-store" },
    );
  },
);

route(
  publicCollections,
  {
    method: "options",
    path: "/:token/answers",
    summary: "CORS preflight of the form",
    tag: "collections",
    auth: "none",
    ok: { 204: { description: "allowed" } },
    refusals: [403, 410],
  },
  async (c) => {
    const a = await access(c, true, true);
    return new Response(null, {
      status: 204,
      headers: {
        ...a.cors,
        "access-control-allow-methods": "POST",
        "access-control-allow-headers": "content-type, idempotency-key",
        "access-control-max-age": "600",
      },
    });
  },
);

route(
  publicCollections,
  {
    method: "post",
    path: "/:token/answers",
    summary: "Submit an answer",
    tag: "collections",
    auth: "none",
    body: submissionBody,
    ok: { 201: { description: "the receipt, its token shown once", schema: r.submitted } },
    refusals: [400, 403, 409, 410, 413, 429],
  },
  async (c, input) => {
    const a = await access(c, true);
    if (a.row.status !== "open") return withHeaders(problemResponse(409, "this question is closed: it no longer takes answers"), a.cors);
    // anyone may post here: a body far beyond the longest answer is refused, by its Content-Length before
    // it is read, or as soon as a streamed (chunked) one passes the size, not at the service's 8 MB
    const limited = bodyLimit({
      maxSize: maxBodyBytes,
      onError: () => withHeaders(problemResponse(413, `the body is larger than ${maxBodyBytes} bytes`), a.cors),
    });
    let answered: Response | undefined;
    const refused = await limited(c, async () => {
      // the answerers have no key: an Idempotency-Key is theirs within this collection
      answered = await idempotently(c, collectionScope(a.row.id), () => submit(c, a.row, input));
    });
    return refused ?? withHeaders(answered!, a.cors);
  },
);

async function submit(c: Context<App>, row: CollectionRow, input: RouteInput<typeof submissionBody>): Promise<Response> {
  // a refused body is answered here, not thrown: the caller adds the CORS headers, so the form can read why
  const body = await input.body().catch((err: unknown) => {
    if (err instanceof ProblemError) return err.getResponse();
    throw err;
  });
  if (body instanceof Response) return body;
  // Cloudflare sets CF-Connecting-IP at its edge, so a client cannot choose its own; an IPv6 client
  // can choose any address of its /64, which counts as one
  const client = networkOf(c.req.header("cf-connecting-ip") ?? "unknown");
  const submitted = await collectionStub(c.env, row.id).submit({ text: body.text, name: body.name || null, client });
  if (!submitted.ok && submitted.reason === "closed") return problemResponse(409, "this question is closed: it no longer takes answers");
  if (!submitted.ok) {
    return problemResponse(429, `too many answers from your network; try again in ${submitted.retryAfterSeconds} s`, {
      headers: { "retry-after": String(submitted.retryAfterSeconds) },
    });
  }
  const receiptUrl = new URL(`/receipt/${submitted.receiptToken}`, selfOrigin(c)).href;
  shownOnce(c);
  return c.json({ receiptUrl, receiptToken: submitted.receiptToken }, 201);
}
