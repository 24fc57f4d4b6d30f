import { Hono } from "hono";
import { type CollectionSettings, collectionById, submissionByReceipt } from "../db/collections";
import { evaluationById } from "../db/evaluations";
import { database } from "../db/database";
import { gradeHistory } from "../db/teacher-grades";
import { finalGrades } from "../evaluations/final-grades";
import { releaseModeOf, releaseTimes } from "../evaluations/releases";
import { updatedAfterRelease } from "../teacher/release";
import type { App } from "./context";
import { hashToken } from "../platform/tokens";
import { ProblemError } from "../platform/problems";
import { receipt } from "../contract";
import { feedbackEditsOf, judgeFeedbackOf } from "../db/feedback";
import { currentFeedback } from "../teacher/feedback";
import { route } from "./route";
import { tokenOfErased } from "../evaluations/erasure";

/**
 * A submitter's receipt: their own answer and, once the teacher has released it (or at once, for a
 * collection released automatically), its final grade; nothing of anyone else's. The page is public:
 * before the release this answer carries nothing of the grade, not even in a field the page hides.
 */
export const receipts = new Hono<App>();

route(
  receipts,
  {
    method: "get",
    path: "/:token",
    summary: "One submitted answer and, once released, its final grade",
    tag: "collections",
    auth: "none",
    ok: { 200: { description: "the receipt", schema: receipt } },
    // 410: the answer was erased
    refusals: [410],
  },
  async (c) => {
    const db = database(c.env.DB);
    const mine = await submissionByReceipt(db, await hashToken(c.req.param("token")));
    if (!mine) {
      if (await tokenOfErased(c.env, c.req.param("token"))) throw new ProblemError(410, "this answer was erased");
      throw new ProblemError(404, "no such receipt");
    }
    const row = (await collectionById(db, mine.collectionId))!;
    const settings = row.settings as CollectionSettings;
    const mode = releaseModeOf(row);
    // collections stored before `showRank` showed the rank
    const showRank = settings.showRank ?? settings.release === undefined;
    const evaluation = row.evaluationId ? await evaluationById(db, row.evaluationId) : null;
    const completed = evaluation?.status === "completed" ? evaluation : null;
    const released = completed ? (await releaseTimes(c.env, completed, mode))(mine.answerId) : null;
    let result = null;
    if (completed && released !== null) {
      const grades = await finalGrades(c.env, completed);
      const graded = grades.answers.find((a) => a.id === mine.answerId);
      const lastChange = (await gradeHistory(db, completed.id, mine.answerId)).at(-1)?.gradedAt ?? null;
      const updated = updatedAfterRelease(released, lastChange);
      // the student's own feedback only: the judge's, or the teacher's last edit of it
      const [judge, edits] = await Promise.all([judgeFeedbackOf(db, completed.id), feedbackEditsOf(db, completed.id, mine.answerId)]);
      const feedback = currentFeedback(judge, edits).get(mine.answerId)?.feedback ?? null;
      result = {
        finalScore: graded?.finalScore ?? null,
        maxScore: completed.maxScore,
        ...(showRank && graded?.rank != null ? { rank: graded.rank, of: grades.of } : {}),
        releasedAt: new Date(released).toISOString(),
        updatedAt: updated === null ? null : new Date(updated).toISOString(),
        feedback,
      };
    }
    const status =
      row.status === "open"
        ? "collecting"
        : row.error
          ? "not graded"
          : evaluation?.status === "failed"
            ? "failed"
            : result
              ? "graded"
              : // with a manual release the judge's progress is not the student's business: one word until the release
                mode === "manual" || completed
                ? "in review"
                : "grading";
    c.header("cache-control", "no-store");
    return c.json({
      question: settings.question,
      status,
      ...(row.error ? { reason: row.error } : {}),
      answer: { text: mine.text, name: mine.name, submittedAt: new Date(mine.createdAt).toISOString() },
      result,
    });
  },
);
