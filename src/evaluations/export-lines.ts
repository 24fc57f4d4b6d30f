import type { CollectionSnapshot, EvaluationSnapshot } from "../db/export";
import { currentFeedback } from "../teacher/feedback";

/**
 * The NDJSON lines of one exported item (GET /v1/tenant/export, /v1/subjects/export), each a JSON
 * object with a `type`: an evaluation, then each of its answers, each answer's teacher grade and the
 * feedback its student reads (as GET /v1/evaluations/:id shows them); a collection, then each answer
 * submitted to it. Pure: the stream reads the snapshot, this writes it.
 */
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const line = (value: unknown) => `${JSON.stringify(value)}\n`;

export function evaluationLines(s: EvaluationSnapshot): string[] {
  const e = s.evaluation;
  const id = e.id;
  const lines = [
    line({
      type: "evaluation",
      id,
      status: e.status,
      question: e.question,
      reference: e.reference,
      maxScore: e.maxScore,
      method: e.method,
      template: e.template,
      batchId: e.batchId,
      metadata: e.metadata === null ? null : JSON.parse(e.metadata),
      createdAt: iso(e.createdAt),
      completedAt: iso(e.completedAt),
    }),
  ];
  for (const a of s.answers)
    lines.push(
      line({ type: "answer", evaluationId: id, id: a.answerId, examinee: a.examinee, text: a.text, score: a.score, rank: a.rank }),
    );
  for (const g of s.grades)
    lines.push(
      line({ type: "grade", evaluationId: id, answerId: g.answerId, teacherScore: g.score, note: g.note, gradedAt: iso(g.gradedAt) }),
    );
  // the feedback a student reads: the teacher's last edit, else the judge's (src/teacher/feedback.ts)
  const judge =
    e.feedbackMode === "judge"
      ? s.answers.map((a) => ({ answerId: a.answerId, text: a.feedback, error: a.feedbackError, at: a.feedbackAt }))
      : [];
  const edits = e.status === "completed" ? s.edits : [];
  for (const [answerId, f] of currentFeedback(judge, edits))
    if (f.feedback) lines.push(line({ type: "feedback", evaluationId: id, answerId, ...f.feedback }));
  return lines;
}

export function collectionLines(s: CollectionSnapshot): string[] {
  const c = s.collection;
  const settings = JSON.parse(c.settings) as { question?: string };
  return [
    line({
      type: "collection",
      id: c.id,
      status: c.status,
      question: settings.question ?? null,
      evaluationId: c.evaluationId,
      createdAt: iso(c.createdAt),
      closedAt: iso(c.closedAt),
    }),
    ...s.answers.map((a) =>
      line({ type: "collection-answer", collectionId: c.id, id: a.answerId, name: a.name, text: a.text, submittedAt: iso(a.createdAt) }),
    ),
  ];
}
