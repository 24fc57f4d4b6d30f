import { defaultGradeStep } from "../contract";
import { gradedAnswers } from "../db/collections";
import { database } from "../db/database";
import type { FinalGrade } from "../teacher/final-grade";
import { withTeacherGrades } from "./teacher";

/** What the final grades of an evaluation are read from: its D1 row's head. */
export interface GradedHead {
  id: string;
  status: string;
  maxScore: number;
  template: string;
  gradeStep: number | null;
  batchId: string | null;
}

/**
 * Each answer's final grade (src/teacher/final-grade.ts) with the judge's score and rank, read from the
 * answer rows alone: what a receipt, a release and a webhook need, without the matches and the
 * judge's words a full result reads.
 */
export async function finalGrades(env: Env, row: GradedHead) {
  const rows = await gradedAnswers(database(env.DB), row.id);
  const view = await withTeacherGrades(env, {
    id: row.id,
    status: row.status,
    maxScore: row.maxScore,
    template: row.template,
    gradeStep: row.gradeStep ?? defaultGradeStep(row.template, row.maxScore),
    ...(row.batchId ? { batchId: row.batchId } : {}),
    answers: [...rows.values()]
      .sort((a, b) => a.position - b.position)
      .map((r) => ({ id: r.answerId, score: r.score, rank: r.rank, review: null })),
  });
  // the spread of a generic view types its answers as the view's: they carry the teacher's part too
  const answers = view.answers as ((typeof view.answers)[number] & FinalGrade & { teacherScore: number | null })[];
  return { answers, of: rows.size };
}
