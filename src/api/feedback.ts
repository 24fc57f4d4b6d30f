import { Hono } from "hono";
import * as r from "../contract";
import { feedbackBody } from "../contract";
import { appendFeedbackEdit, feedbackEditsOf, judgeFeedbackOf } from "../db/feedback";
import { passBackGrades } from "../evaluations/lti-passback";
import { feedbackHistory } from "../teacher/feedback";
import type { App } from "./context";
import { gradable, refuseUnlessCompleted } from "./grades";
import { route } from "./route";

/**
 * The feedback a student reads, as the teacher edits it: set (PUT) and every change kept (GET
 * …/history), like grades. Owner only; only once the evaluation has completed (the judge's feedback is
 * written by then). The judge's own feedback is never changed: an edit is a row of its own.
 */
export const feedback = new Hono<App>();

route(
  feedback,
  {
    method: "put",
    path: "/:id/answers/:answerId/feedback",
    summary: "A teacher's feedback for an answer's student",
    tag: "teacher",
    auth: "key",
    within: "evaluation",
    body: feedbackBody,
    example: { text: "You named LIFO; now give an example of a stack in use." },
    ok: { 200: { description: "the feedback the student now reads", schema: r.feedbackEdited } },
    refusals: [400, 409],
  },
  async (c, input) => {
    const { row, answerId, db } = await gradable(c);
    refuseUnlessCompleted(row.status);
    const { text } = await input.body();
    const editedAt = Date.now();
    await appendFeedbackEdit(db, { tenant: row.tenant, evaluationId: row.id, answerId, text, editedAt }, c.get("actor"));
    // the score's comment in an LTI course's gradebook, once released
    await passBackGrades(c.env, row);
    return c.json({ answerId, feedback: { text, from: "teacher" as const, editedAt: new Date(editedAt).toISOString() } });
  },
);

route(
  feedback,
  {
    method: "get",
    path: "/:id/answers/:answerId/feedback/history",
    summary: "Every version of an answer's feedback",
    tag: "teacher",
    auth: "key",
    within: "evaluation",
    ok: { 200: { description: "oldest first: the judge's, then each edit", schema: r.feedbackHistory } },
  },
  async (c) => {
    const { row, answerId, db } = await gradable(c);
    const [judge, edits] = await Promise.all([judgeFeedbackOf(db, row.id), feedbackEditsOf(db, row.id, answerId)]);
    return c.json({
      answerId,
      data: feedbackHistory(
        judge.find((j) => j.answerId === answerId),
        edits,
      ),
    });
  },
);
