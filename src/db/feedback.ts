import { and, asc, eq, isNotNull, or } from "drizzle-orm";
import { withAudit } from "./audit";
import type { Db } from "./database";
import { answers, feedbackEdits } from "./schema";

/** The judge's feedback of each answer of an evaluation that asked for it, as written when it ended. */
export async function judgeFeedbackOf(db: Db, evaluationId: string) {
  return db
    .select({ answerId: answers.answerId, text: answers.feedback, error: answers.feedbackError, at: answers.feedbackAt })
    .from(answers)
    .where(and(eq(answers.evaluationId, evaluationId), or(isNotNull(answers.feedback), isNotNull(answers.feedbackError))));
}

/**
 * A teacher's edit of an answer's feedback: appended, never replacing an earlier one; its audit line in
 * the same batch, which names the answer but never carries the text.
 */
export async function appendFeedbackEdit(
  db: Db,
  row: { tenant: string; evaluationId: string; answerId: string; text: string; editedAt: number },
  who: string,
): Promise<void> {
  const line = {
    tenant: row.tenant,
    who,
    what: "feedback.edit",
    at: row.editedAt,
    evaluationId: row.evaluationId,
    answerId: row.answerId,
  } as const;
  await withAudit(db, [db.insert(feedbackEdits).values(row)], [line]);
}

/** Every teacher edit of an evaluation's feedback, oldest first (the last of an answer is its feedback). */
export async function feedbackEditsOf(db: Db, evaluationId: string, answerId?: string) {
  return db
    .select({ answerId: feedbackEdits.answerId, text: feedbackEdits.text, editedAt: feedbackEdits.editedAt })
    .from(feedbackEdits)
    .where(
      answerId === undefined
        ? eq(feedbackEdits.evaluationId, evaluationId)
        : and(eq(feedbackEdits.evaluationId, evaluationId), eq(feedbackEdits.answerId, answerId)),
    )
    .orderBy(asc(feedbackEdits.seq));
}
