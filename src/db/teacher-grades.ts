import { and, asc, eq, sql } from "drizzle-orm";
import { withAudit } from "./audit";
import type { Db } from "./database";
import { answers, evaluations, teacherGrades } from "./schema";

/** A teacher's current grade of one answer, beside the judge's score of it. */
export interface CurrentGrade {
  evaluationId: string;
  answerId: string;
  teacherScore: number;
  note: string | null;
  gradedAt: number;
  /** The judge's score of the answer (null if it never got one). */
  judgeScore: number | null;
  maxScore: number;
  template: string;
}

/** Appends one change: a grade, or (score null) its withdrawal; with its audit line, in one batch. */
export async function appendGrade(
  db: Db,
  row: { tenant: string; evaluationId: string; answerId: string; score: number | null; note: string | null; gradedAt: number },
  who: string,
): Promise<void> {
  const what = row.score === null ? "grade.withdraw" : "grade.set";
  const line = { tenant: row.tenant, who, what, at: row.gradedAt, evaluationId: row.evaluationId, answerId: row.answerId } as const;
  await withAudit(db, [db.insert(teacherGrades).values(row)], [line]);
}

/** Every change to an answer's grade, oldest first. */
export async function gradeHistory(db: Db, evaluationId: string, answerId: string) {
  return db
    .select({ score: teacherGrades.score, note: teacherGrades.note, gradedAt: teacherGrades.gradedAt })
    .from(teacherGrades)
    .where(and(eq(teacherGrades.evaluationId, evaluationId), eq(teacherGrades.answerId, answerId)))
    .orderBy(asc(teacherGrades.seq));
}

// the latest row of each answer is its grade; a withdrawn one (score null) is no grade
const latest = sql`${teacherGrades.seq} = (SELECT MAX(u.seq) FROM teacher_grades u
  WHERE u.evaluation_id = ${teacherGrades.evaluationId} AND u.answer_id = ${teacherGrades.answerId})`;

function currentGrades(db: Db) {
  return db
    .select({
      evaluationId: teacherGrades.evaluationId,
      answerId: teacherGrades.answerId,
      teacherScore: sql<number>`${teacherGrades.score}`,
      note: teacherGrades.note,
      gradedAt: teacherGrades.gradedAt,
      judgeScore: answers.score,
      maxScore: evaluations.maxScore,
      template: evaluations.template,
    })
    .from(teacherGrades)
    .innerJoin(evaluations, eq(evaluations.id, teacherGrades.evaluationId))
    .innerJoin(answers, and(eq(answers.evaluationId, teacherGrades.evaluationId), eq(answers.answerId, teacherGrades.answerId)));
}

/** The current grades of one evaluation's answers. */
export async function gradesOfEvaluation(db: Db, evaluationId: string): Promise<CurrentGrade[]> {
  return currentGrades(db).where(and(eq(teacherGrades.evaluationId, evaluationId), latest, sql`${teacherGrades.score} IS NOT NULL`));
}

/** The current grades of every question of a batch. */
export async function gradesOfBatch(db: Db, batchId: string): Promise<CurrentGrade[]> {
  return currentGrades(db).where(and(eq(evaluations.batchId, batchId), latest, sql`${teacherGrades.score} IS NOT NULL`));
}
