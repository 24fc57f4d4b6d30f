import type { z } from "zod";
import type { receipt } from "../contract";
import { type CollectionSettings, collectionById, type submissionByReceipt } from "../db/collections";
import { database } from "../db/database";
import { evaluationById } from "../db/evaluations";
import { feedbackEditsOf, judgeFeedbackOf } from "../db/feedback";
import { gradeHistory } from "../db/teacher-grades";
import { currentFeedback } from "../teacher/feedback";
import { updatedAfterRelease } from "../teacher/release";
import { finalGrades } from "./final-grades";
import { releaseModeOf, releaseTimes } from "./releases";

type Submission = NonNullable<Awaited<ReturnType<typeof submissionByReceipt>>>;

/**
 * A submitter's receipt: their own answer and, once the teacher has released it (or at once, for a
 * collection released automatically), its final grade; nothing of anyone else's. Before the release the
 * answer carries nothing of the grade, not even in a field a page hides. What GET /v1/receipts/:token
 * answers, and what an LTI learner's page shows.
 */
export async function receiptOf(env: Env, mine: Submission): Promise<z.infer<typeof receipt>> {
  const db = database(env.DB);
  const row = (await collectionById(db, mine.collectionId))!;
  const settings = row.settings as CollectionSettings;
  const mode = releaseModeOf(row);
  // collections stored before `showRank` showed the rank
  const showRank = settings.showRank ?? settings.release === undefined;
  const evaluation = row.evaluationId ? await evaluationById(db, row.evaluationId) : null;
  const completed = evaluation?.status === "completed" ? evaluation : null;
  const released = completed ? (await releaseTimes(env, completed, mode))(mine.answerId) : null;
  let result = null;
  if (completed && released !== null) {
    const grades = await finalGrades(env, completed);
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
  return {
    question: settings.question,
    status,
    ...(row.error ? { reason: row.error } : {}),
    answer: { text: mine.text, name: mine.name, submittedAt: new Date(mine.createdAt).toISOString() },
    result,
  };
}
