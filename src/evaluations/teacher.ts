import { database } from "../db/evaluations";
import { type CurrentGrade, gradesOfBatch, gradesOfEvaluation } from "../db/teacher-grades";
import { scoreStep } from "../judge/expected";
import type { Template } from "../judge/templates";
import { agreement, level } from "../teacher/agreement";
import { withTeacher } from "../teacher/view";

interface Head {
  id: string;
  status: string;
  maxScore: number;
  template: string;
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
  });
  return { ...view, ...teacher };
}

export function pairsOf(grades: readonly CurrentGrade[]): { judge: number; teacher: number }[] {
  return grades.flatMap((g) => (g.judgeScore !== null ? [{ judge: g.judgeScore, teacher: g.teacherScore }] : []));
}

/**
 * The agreement over every graded answer of a batch. Questions on one scale are pooled as they are; when
 * the graded questions' scales differ, both grades are taken as shares of their question's maxScore
 * (`scale: "share"`, `mae` then a share too), each pair counts as exact on its own question's steps, and
 * `qwk`, which needs one set of grades, is null.
 */
export async function batchAgreement(env: Env, batchId: string) {
  const grades = (await gradesOfBatch(database(env.DB), batchId)).filter((g) => g.judgeScore !== null);
  const scales = new Set(grades.map((g) => `${g.maxScore}/${scoreStep(g.template as Template)}`));
  if (scales.size <= 1) {
    const first = grades[0];
    const scale = first ? { maxScore: first.maxScore, step: scoreStep(first.template as Template) } : { maxScore: 1, step: 1 };
    const pooled = agreement(pairsOf(grades), scale);
    return pooled && { ...pooled, scale: "points" as const };
  }
  const shares = grades.map((g) => ({ judge: g.judgeScore! / g.maxScore, teacher: g.teacherScore / g.maxScore }));
  const pooled = agreement(shares, { maxScore: 1, step: 1e-9 });
  if (!pooled) return null;
  const exact = grades.filter((g) => {
    const scale = { maxScore: g.maxScore, step: scoreStep(g.template as Template) };
    return level(g.judgeScore!, scale) === level(g.teacherScore, scale);
  }).length;
  return { ...pooled, exact: exact / grades.length, qwk: null, scale: "share" as const };
}
