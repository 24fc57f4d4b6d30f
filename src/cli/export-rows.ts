// `knockout-judge export`: one row per answer of a graded evaluation, for a gradebook or a spreadsheet.
// Pure: the evaluation (and a collection's student names) in, rows and the file's text out.

import type { Evaluation } from "../contract/index.ts";
// the web front's cell writer, so the CLI neutralises formulas exactly as the review page's CSV does
import { csvText } from "../../public/js/csv-cell.js";

export const EXPORT_FORMATS = ["csv", "json"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The columns, in order: the CSV's header and the JSON rows' keys, so both formats say the same. */
export const EXPORT_COLUMNS = [
  "id",
  "examinee",
  "rank",
  "judge_score",
  "calibrated",
  "teacher_score",
  "final_score",
  "final_from",
  "released_at",
  "feedback",
  "feedback_from",
] as const;

export type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | number | null>;

/**
 * The rows of an evaluation, best rank first (the review page's CSV order). `examinee` is the answer's
 * examinee, else its student's name from `names` (a collection's form asks for one); `final_score` is
 * what the student is given (issue 25: every export uses it), `feedback` the current text (the
 * teacher's edit, else the judge's).
 */
export function exportRows(evaluation: Pick<Evaluation, "answers">, names: ReadonlyMap<string, string> = new Map()): ExportRow[] {
  return [...evaluation.answers]
    .sort((x, y) => x.rank - y.rank)
    .map((a) => ({
      id: a.id,
      examinee: a.examinee ?? names.get(a.id) ?? null,
      rank: a.rank,
      judge_score: a.score,
      calibrated: a.calibrated ?? null,
      teacher_score: a.teacherScore ?? null,
      final_score: a.finalScore ?? null,
      final_from: a.finalFrom ?? null,
      released_at: a.releasedAt ?? null,
      feedback: a.feedback?.text ?? null,
      feedback_from: a.feedback?.from ?? null,
    }));
}

/** The file: CSV with every cell through the shared csvCell (formulas neutralised), or JSON as the rows are. */
export function exportText(evaluation: Evaluation, format: ExportFormat, names?: ReadonlyMap<string, string>): string {
  const rows = exportRows(evaluation, names);
  if (format === "csv")
    return csvText(
      EXPORT_COLUMNS,
      rows.map((r) => EXPORT_COLUMNS.map((c) => r[c])),
    );
  // the scale travels with the JSON, so a gradebook import knows what final_score is out of
  const number = (x: unknown) => (typeof x === "number" ? x : null);
  const head = { evaluation: evaluation.id, maxScore: number(evaluation.maxScore), gradeStep: number(evaluation.gradeStep) };
  return `${JSON.stringify({ ...head, answers: rows }, null, 2)}\n`;
}
