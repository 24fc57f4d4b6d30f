import { Hono } from "hono";
import { ltiRoster, ltiScores, ltiScoresRetried } from "../contract";
import { findCollection } from "../db/collections";
import { database } from "../db/database";
import { platformById } from "../db/lti";
import { linkOf, ltiLearnersWithAnswers } from "../db/lti-links";
import { courseLearners } from "../evaluations/lti-roster";
import { rosterOf } from "../lti/memberships";
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
    const learners = link ? await ltiLearnersWithAnswers(db, row.id) : [];
    const logs = learners.length > 0 ? await ltiScoresStub(c.env, row.id).deliveries() : [];
    const logOf = new Map(logs.map((l) => [l.sub, l]));
    const data = learners.map((l) => {
      const versions = logOf.get(l.sub)?.versions ?? [];
      return {
        userId: l.sub,
        name: l.name,
        answerId: l.answerId as string,
        state: versions.at(-1)?.state ?? ("not-sent" as const),
        versions,
      };
    });
    const count = (state: string) => data.filter((d) => d.state === state).length;
    c.header("cache-control", "no-store");
    return c.json({
      collectionId: row.id,
      passback: passbackState(link),
      lineItemUrl: link?.lineItemUrl ?? null,
      counts: { queued: count("queued"), posted: count("posted"), failed: count("failed") },
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
    const link = await linkOf(db, row.id);
    if (!link?.membershipsUrl)
      throw new ProblemError(
        409,
        "this collection's course did not offer its roster (no LTI Names and Role Provisioning service in its launches)",
      );
    const platform = await platformById(db, link.platformId);
    if (!platform) throw new ProblemError(409, "the LTI platform of this collection's course is no longer registered");
    const members = await courseLearners(c.env, platform, link.membershipsUrl);
    if ("error" in members) throw new ProblemError(502, `the course's roster could not be read: ${members.error}`);
    const answers = new Map((await ltiLearnersWithAnswers(db, row.id)).map((l) => [l.sub, l.answerId as string]));
    const data = rosterOf(members, answers);
    const answered = data.filter((d) => d.answered).length;
    c.header("cache-control", "no-store");
    return c.json({ collectionId: row.id, data, answered, notAnswered: data.length - answered });
  },
);
