import { Hono } from "hono";
import * as r from "../contract";
import { shareBody } from "../contract";
import { findEvaluation, readOutcome } from "../db/evaluations";
import { database } from "../db/database";
import { findSharedEvaluation, insertShareLink, revokeShareLinks } from "../db/shares";
import { finalGrades } from "../evaluations/final-grades";
import type { App } from "./context";
import { shownOnce } from "./idempotency";
import { hashToken, newToken } from "../platform/tokens";
import { ProblemError } from "../platform/problems";
import { selfOrigin } from "./public-origin";
import { route } from "./route";
import { tokenOfErased } from "../evaluations/erasure";

/** Owner side, under /v1/evaluations (behind the key): make and revoke read-only links. */
export const shareLinks = new Hono<App>();

route(
  shareLinks,
  {
    method: "post",
    path: "/:id/share",
    summary: "A read-only share link",
    tag: "sharing",
    auth: "key",
    // the grade page's Share button sends none: then the defaults hold
    body: shareBody,
    bodyOptional: true,
    ok: { 201: { description: "the link, its token shown once", schema: r.shareCreated } },
    refusals: [409],
  },
  async (c, input) => {
    const db = database(c.env.DB);
    const row = await findEvaluation(db, c.get("tenant"), c.req.param("id"));
    if (!row) throw new ProblemError(404, "no such evaluation");
    if (row.status !== "completed") throw new ProblemError(409, `only a completed evaluation can be shared; this one is ${row.status}`);
    const { includeExaminee } = await input.body();
    const token = newToken("sh_");
    await insertShareLink(
      db,
      {
        tokenHash: await hashToken(token),
        evaluationId: row.id,
        tenant: row.tenant,
        includeExaminee,
        now: Date.now(),
      },
      c.get("actor"),
    );
    shownOnce(c);
    return c.json({ url: new URL(`/share/${token}`, selfOrigin(c)).href, token }, 201);
  },
);

route(
  shareLinks,
  {
    method: "delete",
    path: "/:id/share",
    summary: "Revoke the share links",
    tag: "sharing",
    auth: "key",
    ok: { 200: { description: "how many", schema: r.revoked } },
  },
  async (c) => {
    const db = database(c.env.DB);
    const row = await findEvaluation(db, c.get("tenant"), c.req.param("id"));
    if (!row) throw new ProblemError(404, "no such evaluation");
    return c.json({ revoked: await revokeShareLinks(db, row.tenant, row.id, Date.now(), c.get("actor")) });
  },
);

/** Public side: the one evaluation the token names, read-only, and nothing else. */
export const shared = new Hono<App>();

route(
  shared,
  {
    method: "get",
    path: "/:token",
    summary: "A shared evaluation, read-only",
    tag: "sharing",
    auth: "none",
    ok: { 200: { description: "the evaluation with its texts and final grades, without feedback", schema: r.shared } },
    // 410: the evaluation was erased
    refusals: [410],
  },
  async (c) => {
    const db = database(c.env.DB);
    const link = await findSharedEvaluation(db, await hashToken(c.req.param("token")));
    if (!link) {
      if (await tokenOfErased(c.env, c.req.param("token"))) throw new ProblemError(410, "what this link showed was erased");
      throw new ProblemError(404, "this share link does not exist or was revoked");
    }
    const row = link.evaluation;
    const outcome = await readOutcome(db, row);
    // the grade each student is given, as the owner sees it; the feedback stays out (it is its student's)
    const finals = new Map((await finalGrades(c.env, row)).answers.map((a) => [a.id, a]));
    const answers = outcome.answers.map((a) => ({
      ...a,
      finalScore: finals.get(a.id)?.finalScore ?? null,
      finalFrom: finals.get(a.id)?.finalFrom ?? null,
    }));
    c.header("cache-control", "no-store");
    return c.json({
      question: row.question,
      reference: row.reference,
      maxScore: row.maxScore,
      method: row.method,
      status: row.status,
      champion: outcome.champion,
      answers: link.includeExaminee ? answers : answers.map(({ examinee: _, ...answer }) => answer),
      // which of the department's servers answered is the tenant's business, not the link's holder's
      matches: outcome.matches.map((m) => ({
        ...m,
        calls: m.calls.map(({ endpoint: _, votes, ...call }) => ({
          ...call,
          ...(votes ? { votes: votes.map((v) => ("endpoint" in v ? (({ endpoint: _e, ...rest }) => rest)(v) : v)) } : {}),
        })),
      })),
      completedAt: row.completedAt ? new Date(row.completedAt).toISOString() : undefined,
    });
  },
);
