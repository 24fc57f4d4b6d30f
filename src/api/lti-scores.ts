import { Hono } from "hono";
import { ltiRoster, ltiScores, ltiScoresRetried } from "../contract";
import { findCollection } from "../db/collections";
import { database } from "../db/database";
import { linkOf } from "../db/lti-links";
import { scoreLog } from "../evaluations/lti-course-state";
import { courseRoster } from "../evaluations/lti-roster";
import { passbackState } from "../lti/scores";
import { ProblemError } from "../platform/problems";
import { ltiScoresStub } from "../platform/stubs";
import type { App } from "./context";
import { route } from "./route";

/**
 * What an LTI course sees of a collection, for its instructor: the scores posted to the gradebook,
 * with each learner's delivery log (AGS), and the course's learners with whether they answered (NRPS).
 */
export const ltiCollectionRoutes = new Hono<App>();

async function ownCollection(c: { env: Env; get(key: "tenant"): string; req: { param(name: string): string } }) {
  const row = await findCollection(database(c.env.DB), c.get("tenant"), c.req.param("id"));
  if (!row) throw new ProblemError(404, "no such collection");
  return row;
}

route(
  ltiCollectionRoutes,
  {
    method: "get",
    path: "/:id/lti-scores",
    summary: "The scores posted to the LMS gradebook, with each learner's delivery log",
    tag: "lti",
    auth: "key",
    within: "collection",
    ok: { 200: { description: "one entry per learner who answered", schema: ltiScores } },
  },
  async (c) => {
    const row = await ownCollection(c);
    const db = database(c.env.DB);
    const link = await linkOf(db, row.id);
    const { data, counts } = await scoreLog(c.env, row.id, link);
    c.header("cache-control", "no-store");
    return c.json({
      collectionId: row.id,
      passback: passbackState(link),
      lineItemUrl: link?.lineItemUrl ?? null,
      counts,
      data,
    });
  },
);

route(
  ltiCollectionRoutes,
  {
    method: "post",
    path: "/:id/lti-scores/retry",
    summary: "Send again the scores the LMS refused, once what was wrong is fixed",
    tag: "lti",
    auth: "key",
    within: "collection",
    ok: { 200: { description: "how many were queued again", schema: ltiScoresRetried } },
  },
  async (c) => {
    const row = await ownCollection(c);
    const requeued = (await linkOf(database(c.env.DB), row.id)) ? await ltiScoresStub(c.env, row.id).retryFailed() : 0;
    return c.json({ collectionId: row.id, requeued });
  },
);

route(
  ltiCollectionRoutes,
  {
    method: "get",
    path: "/:id/lti-roster",
    summary: "The course's learners, and who has not answered yet (LTI Names and Roles)",
    tag: "lti",
    auth: "key",
    within: "collection",
    ok: { 200: { description: "the course's active learners, in the platform's order", schema: ltiRoster } },
    // 409: the collection is not in a course whose launches offered the roster; 502: the platform did not give it
    refusals: [409, 502],
  },
  async (c) => {
    const row = await ownCollection(c);
    const db = database(c.env.DB);
    const data = await courseRoster(c.env, await linkOf(db, row.id));
    if ("refusal" in data)
      throw new ProblemError(
        data.refusal === "failed" ? 502 : 409,
        data.refusal === "failed" ? `the course's roster could not be read: ${data.error}` : data.error,
      );
    const answered = data.filter((d) => d.answered).length;
    c.header("cache-control", "no-store");
    return c.json({ collectionId: row.id, data, answered, notAnswered: data.length - answered });
  },
);
