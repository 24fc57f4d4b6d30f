import { database } from "../db/database";
import { type CurrentGrade, gradesOfBatch, gradesOfEvaluation } from "../db/teacher-grades";
import { scoreStep } from "../judge/expected";
import type { Template } from "../judge/templates";
import { pooledAgreement } from "../teacher/pooled";
import { withTeacher } from "../teacher/view";

interface Head {
  id: string;
  status: string;
  maxScore: number;
  template: string;
  /** The step final grades are rounded to. */
  gradeStep: number;
  batchId?: string;
}

/**
 * The result with the teacher's part (src/teacher/view.ts). Grades exist only once an evaluation has
 * completed, so only then is D1 asked. The calibration of a batch's question is fitted on the grades of
 * every question of the batch with the same scale (an exam graded by one teacher): a handful of grades
 * per question are too few for a fit of their own (see the calibration bench in docs/benchmarks.md).
 */
export async function withTeacherGrades<
  V extends Head & { answers: { id: string; score: number | null; review: null | { reasons: string[] } }[] },
>(env: Env, view: V) {
  const graded = view.status === "completed";
  const db = database(env.DB);
  // a batch question's own grades are among its batch's: one query either way
  const batchGrades = graded && view.batchId ? await gradesOfBatch(db, view.batchId) : null;
  const own = batchGrades ? batchGrades.filter((g) => g.evaluationId === view.id) : graded ? await gradesOfEvaluation(db, view.id) : [];
  const pool = batchGrades ? batchGrades.filter((g) => g.maxScore === view.maxScore) : own;
  const teacher = withTeacher(view.answers, {
    grades: new Map(own.map((g) => [g.answerId, g.teacherScore])),
    fitOn: pairsOf(pool),
    scope: view.batchId ? "batch" : "evaluation",
    scale: { maxScore: view.maxScore, step: scoreStep(view.template as Template) },
    gradeStep: view.gradeStep,
  });
  return { ...view, ...teacher };
}

export function pairsOf(grades: readonly CurrentGrade[]): { judge: number; teacher: number }[] {
  return grades.flatMap((g) => (g.judgeScore !== null ? [{ judge: g.judgeScore, teacher: g.teacherScore }] : []));
}

/** The agreement over every graded answer of a batch (src/teacher/pooled.ts). */
export async function batchAgreement(env: Env, batchId: string) {
  const grades = await gradesOfBatch(database(env.DB), batchId);
  return pooledAgreement(
    grades.flatMap((g) =>
      g.judgeScore !== null
        ? [{ judge: g.judgeScore, teacher: g.teacherScore, scale: { maxScore: g.maxScore, step: scoreStep(g.template as Template) } }]
        : [],
    ),
  );
}
