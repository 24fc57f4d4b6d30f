import { Hono } from "hono";
import { and, eq } from "drizzle-orm";
import * as r from "../contract";
import { gradeBody } from "../contract";
import { database } from "../db/database";
import { answers } from "../db/schema";
import { appendGrade, gradeHistory, gradesOfEvaluation } from "../db/teacher-grades";
import { passBackGrades } from "../evaluations/lti-passback";
import { ownEvaluation } from "../evaluations/read";
import { ProblemError } from "../platform/problems";
import type { App } from "./context";
import { route } from "./route";

/**
 * A teacher's grades of an evaluation's answers: set (PUT), withdrawn (DELETE), and every change kept
 * (GET …/history). Owner only; only once the evaluation has completed (the judge's scores are final
 * then); the judge's own record is never changed.
 */
export const grades = new Hono<App>();

/** The evaluation (the caller's own, completed) and the answer of the path, or the refusal. */
export async function gradable(c: { env: Env; get(key: "tenant"): string; req: { param(name: string): string } }) {
  const row = await ownEvaluation(c.env, c.get("tenant"), c.req.param("id"));
  // ids are kept in NFC (src/contract/identifier.ts): an id sent decomposed names the same answer
  const answerId = c.req.param("answerId").normalize("NFC");
  const db = database(c.env.DB);
  const [answer] = await db
    .select({ id: answers.answerId })
    .from(answers)
    .where(and(eq(answers.evaluationId, row.id), eq(answers.answerId, answerId)));
  if (!answer) throw new ProblemError(404, `no answer "${answerId}" in this evaluation`);
  return { row, answerId, db };
}

export function refuseUnlessCompleted(status: string): void {
  if (status !== "completed")
    throw new ProblemError(409, `the evaluation is ${status}: a teacher grades the answers of a completed evaluation`);
}

route(
  grades,
  {
    method: "put",
    path: "/:id/answers/:answerId/grade",
    summary: "A teacher's grade of an answer",
    tag: "teacher",
    auth: "key",
    within: "evaluation",
    body: gradeBody,
    example: { score: 4.5, note: "clear, but no example" },
    ok: { 200: { description: "the grade", schema: r.grade } },
    refusals: [400, 409],
  },
  async (c, input) => {
    const { row, answerId, db } = await gradable(c);
    refuseUnlessCompleted(row.status);
    const body = await input.body();
    if (body.score < 0 || body.score > row.maxScore) {
      const reason = `must be from 0 to the evaluation's maxScore (${row.maxScore})`;
      throw ProblemError.fields([{ field: "score", reason }]);
    }
    const gradedAt = Date.now();
    await appendGrade(
      db,
      { tenant: row.tenant, evaluationId: row.id, answerId, score: body.score, note: body.note ?? null, gradedAt },
      c.get("actor"),
    );
    // a released grade that changed goes to an LTI course's gradebook again
    await passBackGrades(c.env, row);
    return c.json({ answerId, teacherScore: body.score, note: body.note ?? null, gradedAt: new Date(gradedAt).toISOString() });
  },
);

route(
  grades,
  {
    method: "delete",
    path: "/:id/answers/:answerId/grade",
    summary: "Withdraw the teacher's grade",
    tag: "teacher",
    auth: "key",
    within: "evaluation",
    ok: { 200: { description: "withdrawn", schema: r.grade } },
    refusals: [409],
  },
  async (c) => {
    const { row, answerId, db } = await gradable(c);
    refuseUnlessCompleted(row.status);
    const current = (await gradesOfEvaluation(db, row.id)).find((g) => g.answerId === answerId);
    if (!current) throw new ProblemError(404, `answer "${answerId}" has no teacher grade to withdraw`);
    const gradedAt = Date.now();
    await appendGrade(db, { tenant: row.tenant, evaluationId: row.id, answerId, score: null, note: null, gradedAt }, c.get("actor"));
    await passBackGrades(c.env, row);
    return c.json({ answerId, teacherScore: null, note: null, gradedAt: new Date(gradedAt).toISOString() });
  },
);

route(
  grades,
  {
    method: "get",
    path: "/:id/answers/:answerId/grade/history",
    summary: "Every change to an answer's grade",
    tag: "teacher",
    auth: "key",
    within: "evaluation",
    ok: { 200: { description: "oldest first", schema: r.gradeHistory } },
  },
  async (c) => {
    const { row, answerId, db } = await gradable(c);
    const history = await gradeHistory(db, row.id, answerId);
    return c.json({
      answerId,
      data: history.map((h) => ({
        action: h.score === null ? "withdrawn" : "graded",
        teacherScore: h.score,
        note: h.note,
        gradedAt: new Date(h.gradedAt).toISOString(),
      })),
    });
  },
);
