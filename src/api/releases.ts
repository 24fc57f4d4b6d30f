import { Hono } from "hono";
import * as r from "../contract";
import { releaseBody } from "../contract";
import { database } from "../db/database";
import { appendReleases } from "../db/releases";
import { finalGrades } from "../evaluations/final-grades";
import { passBackGrades } from "../evaluations/lti-passback";
import { ownEvaluation } from "../evaluations/read";
import { collectionOf, releaseModeOf, releaseTimes } from "../evaluations/releases";
import { ProblemError } from "../platform/problems";
import { planRelease } from "../teacher/release";
import { enqueueWebhook } from "../webhooks/enqueue";
import type { App } from "./context";
import { route } from "./route";

/**
 * Releasing answers to their students (POST …/release) and withdrawing a release (DELETE). Owner
 * only, a completed evaluation only; every release and withdrawal is kept (src/db/releases.ts).
 * Doing either twice changes nothing and answers the same.
 */
export const releases = new Hono<App>();

type Action = "release" | "withdraw";

for (const action of ["release", "withdraw"] as const) {
  route(
    releases,
    {
      method: action === "release" ? "post" : "delete",
      path: "/:id/release",
      summary: action === "release" ? "Release answers' grades to their students" : "Withdraw a release",
      tag: "teacher",
      auth: "key",
      within: "evaluation",
      body: releaseBody,
      bodyOptional: true,
      // the docs' own (docs/api.md, replayed by the docs test)
      example: { answers: ["ana"] },
      ok: { 200: { description: "the answers asked about, as they stand now", schema: r.releaseState } },
      refusals: [400, 409],
    },
    async (c, input) => {
      const row = await ownEvaluation(c.env, c.get("tenant"), c.req.param("id"));
      if (row.status !== "completed")
        throw new ProblemError(409, `the evaluation is ${row.status}: only a completed evaluation's answers are released`);
      const body = await input.body();
      return c.json(await releaseAnswers(c.env, row, action, body.answers, c.get("actor")));
    },
  );
}

type Row = Awaited<ReturnType<typeof ownEvaluation>>;

async function releaseAnswers(env: Env, row: Row, action: Action, asked: string[] | undefined, who: string) {
  const collection = await collectionOf(env, row);
  const before = await releaseTimes(env, row, releaseModeOf(collection));
  const { answers } = await finalGrades(env, row);
  const plan = planRelease(
    action,
    asked,
    answers.map((a) => ({ id: a.id, releasedAt: before(a.id) })),
  );
  if (plan.kind === "unknown")
    throw ProblemError.fields(
      plan.ids.map((id) => ({ field: `answers[${asked?.indexOf(id)}]`, reason: `no answer "${id}" in this evaluation` })),
    );
  const now = Date.now();
  const changed = new Set(plan.ids);
  await appendReleases(
    database(env.DB),
    {
      tenant: row.tenant,
      evaluationId: row.id,
      answerIds: plan.ids,
      action: action === "release" ? "released" : "withdrawn",
      at: now,
    },
    who,
  );
  const after = (id: string) => (changed.has(id) ? (action === "release" ? now : null) : before(id));
  const view = answers.map((a) => {
    const at = after(a.id);
    return { id: a.id, finalScore: a.finalScore, finalFrom: a.finalFrom, releasedAt: at === null ? null : new Date(at).toISOString() };
  });
  if (action === "release" && changed.size > 0 && row.webhookUrl) {
    const releasedAt = new Date(now).toISOString();
    const payload = { status: "completed", maxScore: row.maxScore, answers: view.filter((a) => changed.has(a.id)), releasedAt };
    await enqueueWebhook(env, {
      tenant: row.tenant,
      url: row.webhookUrl,
      ...(collection
        ? { type: "collection.released", data: { id: collection.id, evaluation: row.id, ...payload } }
        : { type: "evaluation.released", data: { id: row.id, ...payload } }),
      // on the evaluation, so its delivery log lists it; one message per release
      subject: row.id,
      occurrence: `${now}_${crypto.randomUUID().slice(0, 8)}`,
    });
  }
  // the gradebook of an LTI course: queued whether or not this request changed anything, so a release
  // asked again after a failure here queues what the first could not (a sync queues each grade once)
  await passBackGrades(env, row);
  const wanted = asked ? new Set(asked) : null;
  return {
    id: row.id,
    maxScore: row.maxScore,
    answers: wanted ? view.filter((a) => wanted.has(a.id)) : view,
    released: view.filter((a) => a.releasedAt !== null).length,
    of: view.length,
  };
}
