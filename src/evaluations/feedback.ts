import { database } from "../db/database";
import { feedbackEditsOf, judgeFeedbackOf } from "../db/feedback";
import { currentFeedback, withFeedback } from "../teacher/feedback";

/**
 * An ended evaluation's answers with the feedback their students read (src/teacher/feedback.ts): the
 * judge's, written when it ended, or the teacher's last edit. A teacher may write feedback where the
 * judge wrote none (`feedback: "none"`), so the edits are read either way; only a completed
 * evaluation has any.
 */
export async function withStudentFeedback<V extends { id: string; status: string; answers: { id: string }[] }>(
  env: Env,
  mode: "none" | "judge",
  view: V,
) {
  const db = database(env.DB);
  const [judge, edits] = await Promise.all([
    mode === "judge" ? judgeFeedbackOf(db, view.id) : [],
    view.status === "completed" ? feedbackEditsOf(db, view.id) : [],
  ]);
  return { ...view, answers: withFeedback(view.answers, mode, currentFeedback(judge, edits)) };
}
