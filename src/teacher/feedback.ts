import type { Feedback } from "../contract/responses";

/**
 * The feedback a student reads, from the judge's (written when the evaluation ended) and the teacher's
 * edits (append-only, oldest first). Pure: the routes read D1 and pass the rows in.
 */

export interface JudgeFeedbackRow {
  answerId: string;
  text: string | null;
  error: string | null;
  at: number | null;
}

export interface FeedbackEditRow {
  answerId: string;
  text: string;
  editedAt: number;
}

/** What an answer of the result carries: its feedback (null: none yet, or its call failed) and, if it failed, why. */
export interface AnswerFeedback {
  feedback: Feedback | null;
  feedbackError?: string;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Every change to one answer's feedback, oldest first: the judge's, then each teacher edit. */
export function feedbackHistory(judge: JudgeFeedbackRow | undefined, edits: readonly FeedbackEditRow[]): Feedback[] {
  const first: Feedback[] = judge?.text != null ? [{ text: judge.text, from: "judge", editedAt: iso(judge.at ?? 0) }] : [];
  return [...first, ...edits.map((e): Feedback => ({ text: e.text, from: "teacher", editedAt: iso(e.editedAt) }))];
}

/**
 * Each answer's current feedback: the teacher's last edit, else the judge's. An answer whose judge call
 * failed carries `feedbackError` until a teacher writes one; an answer with neither is left out.
 */
export function currentFeedback(judge: readonly JudgeFeedbackRow[], edits: readonly FeedbackEditRow[]): Map<string, AnswerFeedback> {
  const out = new Map<string, AnswerFeedback>();
  for (const j of judge) {
    if (j.text !== null) out.set(j.answerId, { feedback: { text: j.text, from: "judge", editedAt: iso(j.at ?? 0) } });
    else out.set(j.answerId, { feedback: null, feedbackError: j.error ?? "the judge wrote no feedback" });
  }
  for (const e of edits) out.set(e.answerId, { feedback: { text: e.text, from: "teacher", editedAt: iso(e.editedAt) } });
  return out;
}

/**
 * The answers with their feedback, when the evaluation asked for it (`mode` "judge"): every answer
 * then has the field, null until its feedback is written. Without it, the answers are as they were.
 */
export function withFeedback<A extends { id: string }>(
  answers: readonly A[],
  mode: "none" | "judge",
  feedback: ReadonlyMap<string, AnswerFeedback>,
): (A & Partial<AnswerFeedback>)[] {
  if (mode !== "judge" && feedback.size === 0) return [...answers];
  return answers.map((a) => ({ ...a, ...(feedback.get(a.id) ?? { feedback: null }) }));
}
