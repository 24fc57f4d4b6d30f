// Plain-text rendering of evaluation reports for a terminal: one report in full, or several
// methods side by side like the seed paper's Table 1. ASCII only, so it survives any terminal
// and log file.

import { quantileOfSorted, type ConfidenceInterval } from "./bootstrap";
import type { CorrelationName } from "./levels";
import type { Estimate, EvaluationReport } from "./report";

export interface FormatOptions {
  /** List every question's coefficients, not just their distribution. Default false. */
  perQuestion?: boolean;
}

const labels: Record<CorrelationName, string> = { pearson: "Pearson", spearman: "Spearman", kendallTauB: "Kendall tau-b" };
const names: readonly CorrelationName[] = ["pearson", "spearman", "kendallTauB"];

/** Undefined coefficients print as "n/a"; sections that do not apply print as "-". */
function num(value: number | null, signed = false): string {
  if (value === null) return "n/a";
  const text = value.toFixed(3);
  return signed && value >= 0 ? `+${text}` : text;
}

function interval(ci: ConfidenceInterval | null, signed = false): string {
  return ci === null ? "" : `[${num(ci.low, signed)}, ${num(ci.high, signed)}]`;
}

function estimate(e: Estimate, signed = false): string {
  const ci = interval(e.ci, signed);
  return ci === "" ? num(e.value, signed) : `${num(e.value, signed)} ${ci}`;
}

/** Digit grouping without Intl, so output does not depend on the runtime's locale data. */
function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Columns padded to their widest cell; the first column left-aligned, the others right-aligned. */
function table(rows: readonly (readonly string[])[], indent = "  "): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows.map(
    (row) =>
      indent +
      row
        .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])))
        .join("   ")
        .trimEnd(),
  );
}

function quartiles(values: number[]): string {
  if (values.length === 0) return "none defined";
  const sorted = Float64Array.from(values).sort();
  const at = (p: number) => num(quantileOfSorted(sorted, p));
  return `min ${at(0)}, quartiles ${at(0.25)} / ${at(0.5)} / ${at(0.75)}, max ${at(1)}`;
}

function headerLines(report: EvaluationReport): string[] {
  const lines = [`Evaluation report${report.method ? `: ${report.method}` : ""}`];
  const { total, scored, withoutJudgeScore } = report.answers;
  lines.push(
    `Answers: ${count(scored)} scored of ${count(total)} (${count(withoutJudgeScore)} without a judge score), ${count(report.questions)} questions`,
  );
  if (report.usage) {
    const u = report.usage;
    const extras = [
      u.retries === undefined ? "" : `, ${count(u.retries)} retries`,
      u.parseFailures === undefined ? "" : `, ${count(u.parseFailures)} parse failures`,
    ];
    lines.push(
      `Judge: ${count(u.judgeCalls)} calls, ${count(u.promptTokens)} prompt + ${count(u.completionTokens)} completion tokens${extras.join("")}`,
    );
  }
  if (report.bootstrap) {
    const b = report.bootstrap;
    lines.push(`Intervals: ${Math.round(b.confidence * 100)}% percentile bootstrap, ${count(b.resamples)} resamples, seed ${b.seed}`);
  } else {
    lines.push("Intervals: none (bootstrap off)");
  }
  return lines;
}

function valueHeader(report: EvaluationReport): string[] {
  return ["", "value", report.bootstrap ? `${Math.round(report.bootstrap.confidence * 100)}% CI` : ""];
}

function questionLines(report: EvaluationReport, options: FormatOptions): string[] {
  const q = report.questionLevel;
  const rows: string[][] = [valueHeader(report)];
  for (const name of names) {
    const label = name === "pearson" ? `${labels[name]}, pooled over ${count(q.pooled.answers)} answers` : `${labels[name]}, pooled`;
    rows.push([label, num(q.pooled[name].value), interval(q.pooled[name].ci)]);
  }
  for (const name of names) {
    const m = q.meanOverQuestions[name];
    const skipped = m.skipped > 0 ? ` (${count(m.skipped)} undefined)` : "";
    rows.push([`${labels[name]}, mean over ${count(m.used)} questions${skipped}`, num(m.value), interval(m.ci)]);
  }
  const perQuestionPearson = q.perQuestion.map((p) => p.pearson).filter((r): r is number => r !== null);
  const lines = [
    `Question level (intervals resample questions)`,
    ...table(rows),
    `  Per-question Pearson: ${quartiles(perQuestionPearson)}`,
  ];
  if (options.perQuestion) {
    const perQuestionRows = q.perQuestion.map((p) => [
      p.questionId,
      String(p.answers),
      num(p.pearson),
      num(p.spearman),
      num(p.kendallTauB),
    ]);
    lines.push("", ...table([["question", "answers", "Pearson", "Spearman", "Kendall tau-b"], ...perQuestionRows], "    "));
  }
  return lines;
}

function examLines(report: EvaluationReport): string[] {
  const exam = report.examLevel;
  if (exam === null) return ["Exam level: no examinee labels"];
  const answered = [...new Set(exam.examinees.map((e) => e.questionsAnswered))].sort((a, b) => a - b);
  const coverage = exam.unevenCoverage
    ? `answered ${answered[0]} to ${answered.at(-1)} questions, so totals are not like for like`
    : `each answered ${answered[0]} questions`;
  const r = exam.rankingAccuracy;
  const rows: string[][] = [valueHeader(report)];
  for (const name of names) rows.push([`${labels[name]} of exam totals`, num(exam[name].value), interval(exam[name].ci)]);
  const tiesLabel = r.humanTies === "exclude" ? "human ties left out" : "human ties included";
  rows.push([
    `Pairwise ranking accuracy, ${tiesLabel}, ${count(r.agreeingPairs)} of ${count(r.countedPairs)} pairs`,
    num(r.value),
    interval(r.ci),
  ]);
  const all = exam.rankingAccuracyAllPairs;
  if (r.humanTies === "exclude") {
    rows.push([
      `Pairwise ranking accuracy over all pairs, human ties included (the thesis's), ${count(all.agreeingPairs)} of ${count(all.countedPairs)}`,
      num(all.value),
      interval(all.ci),
    ]);
  }
  const lines = [`Exam level: ${exam.examinees.length} examinees, ${coverage} (intervals resample examinees)`, ...table(rows)];
  const tieNote = r.humanTies === "exclude" ? "left out" : "kept (agreeing only if the judge ties too)";
  lines.push(
    `  Ranking accuracy: ${count(r.humanTiedPairs)} human-tied pairs ${tieNote}; ${count(r.judgeOnlyTiedPairs)} judge-only ties count as wrong`,
  );
  if (exam.unlabeledAnswers > 0) lines.push(`  ${count(exam.unlabeledAnswers)} answers without an examinee label are not in any total`);
  const byHuman = [...exam.examinees].sort((a, b) => b.humanTotal - a.humanTotal);
  const examineeRows = byHuman.map((e) => [e.examinee, e.judgeTotal.toFixed(2), e.humanTotal.toFixed(2), String(e.questionsAnswered)]);
  lines.push("", ...table([["examinee", "judge total", "human total", "questions"], ...examineeRows], "    "));
  return lines;
}

function roundLines(report: EvaluationReport): string[] {
  const split = report.byRound;
  if (split === null) return ["By elimination round: no round information"];
  const rows: string[][] = [
    valueHeader(report),
    [`First-round losers, ${count(split.firstRound.answers)} answers`, num(split.firstRound.value), interval(split.firstRound.ci)],
    [
      `Later rounds and champions, ${count(split.laterRounds.answers)} answers`,
      num(split.laterRounds.value),
      interval(split.laterRounds.ci),
    ],
    ["Difference (later - first)", num(split.difference.value, true), interval(split.difference.ci, true)],
  ];
  const lines = ["By elimination round, Pearson (intervals resample questions)", ...table(rows)];
  if (split.answersWithoutRound > 0)
    lines.push(`  ${count(split.answersWithoutRound)} answers without round information are in neither group`);
  const roundRows = split.perRound.map((p) => [p.round === null ? "champion" : String(p.round), String(p.answers), num(p.pearson)]);
  lines.push("", ...table([["round", "answers", "Pearson"], ...roundRows], "    "));
  return lines;
}

function gradedLines(report: EvaluationReport): string[] {
  const split = report.byTimesGraded;
  if (split === null) return [];
  const rows: string[][] = [
    valueHeader(report),
    [`Graded once, ${count(split.once.answers)} answers`, num(split.once.value), interval(split.once.ci)],
    [`Graded several times, ${count(split.severalTimes.answers)} answers`, num(split.severalTimes.value), interval(split.severalTimes.ci)],
    ["Difference (several - once)", num(split.difference.value, true), interval(split.difference.ci, true)],
  ];
  const lines = ["By times graded, Pearson: the paper's Table 2 (intervals resample questions)", ...table(rows)];
  lines.push("  A bye in round 1 and a loss in round 2 is a later-round elimination but one grading: the two splits differ there.");
  if (split.answersWithoutCount > 0) lines.push(`  ${count(split.answersWithoutCount)} answers without a count are in neither group`);
  return lines;
}

/** The judge against the teachers' own grades, where the dataset has them. */
function teacherLines(report: EvaluationReport): string[] {
  const a = report.teacherAgreement;
  if (!a) return [];
  return [
    `Agreement with the teachers' grades (${count(a.n)} graded answers)`,
    `  Pearson ${num(a.pearson)}, Spearman ${num(a.spearman)}, mean absolute error ${num(a.mae)}, exact ${num(a.exact)}, quadratic weighted kappa ${num(a.qwk)}`,
  ];
}

/** The human scores as grades on the scale: what `--fail-under exact=..,qwk=..` holds a run to. */
function humanLines(report: EvaluationReport): string[] {
  const a = report.humanAgreement;
  if (!a) return [];
  return [`Agreement with the human scores as grades on the scale: exact ${num(a.exact)}, quadratic weighted kappa ${num(a.qwk)}`];
}

/** The full report as plain text, sections separated by blank lines. */
export function formatReport(report: EvaluationReport, options: FormatOptions = {}): string {
  return [
    headerLines(report),
    questionLines(report, options),
    examLines(report),
    roundLines(report),
    gradedLines(report),
    humanLines(report),
    teacherLines(report),
  ]
    .filter((section) => section.length > 0)
    .map((section) => section.join("\n"))
    .join("\n\n");
}

type Row = [label: string, cell: (report: EvaluationReport) => string | null];

const comparisonRows: Row[] = [
  ...names.map((name): Row => [`Question level, ${labels[name]} (pooled)`, (r) => estimate(r.questionLevel.pooled[name])]),
  ...names.map(
    (name): Row => [`Question level, ${labels[name]} (mean over questions)`, (r) => estimate(r.questionLevel.meanOverQuestions[name])],
  ),
  ...names.map((name): Row => [`Exam level, ${labels[name]}`, (r) => (r.examLevel ? estimate(r.examLevel[name]) : null)]),
  ["Exam level, pairwise ranking accuracy", (r) => (r.examLevel ? estimate(r.examLevel.rankingAccuracy) : null)],
  [
    "Exam level, ranking accuracy over all pairs (thesis, human ties in)",
    (r) => (r.examLevel ? estimate(r.examLevel.rankingAccuracyAllPairs) : null),
  ],
  ["Pearson, first-round losers", (r) => (r.byRound ? estimate(r.byRound.firstRound) : null)],
  ["Pearson, later rounds", (r) => (r.byRound ? estimate(r.byRound.laterRounds) : null)],
  ["Pearson, difference (later - first)", (r) => (r.byRound ? estimate(r.byRound.difference, true) : null)],
  ["Pearson, graded once (paper's Table 2)", (r) => (r.byTimesGraded ? estimate(r.byTimesGraded.once) : null)],
  ["Pearson, graded several times (paper's Table 2)", (r) => (r.byTimesGraded ? estimate(r.byTimesGraded.severalTimes) : null)],
  ["Pearson, difference (several - once)", (r) => (r.byTimesGraded ? estimate(r.byTimesGraded.difference, true) : null)],
  ["Human scores as grades, exact", (r) => (r.humanAgreement ? num(r.humanAgreement.exact) : null)],
  ["Human scores as grades, quadratic weighted kappa", (r) => (r.humanAgreement ? num(r.humanAgreement.qwk) : null)],
  ["Answers scored", (r) => `${count(r.answers.scored)} of ${count(r.answers.total)}`],
  ["Judge calls", (r) => (r.usage ? count(r.usage.judgeCalls) : null)],
  ["Tokens (prompt + completion)", (r) => (r.usage ? count(r.usage.promptTokens + r.usage.completionTokens) : null)],
];

/**
 * Several methods' reports side by side, one column per method in the order given. Rows that no
 * method has (e.g. exam level on a dataset without examinees) are left out; a method lacking a row
 * others have shows "-".
 */
export function formatComparison(reports: Readonly<Record<string, EvaluationReport>>): string {
  const methods = Object.keys(reports);
  const rows: string[][] = [["", ...methods]];
  for (const [label, cell] of comparisonRows) {
    const cells = methods.map((method) => cell(reports[method]));
    if (cells.every((c) => c === null)) continue;
    rows.push([label, ...cells.map((c) => c ?? "-")]);
  }
  const first = Object.values(reports)[0];
  const note = first?.bootstrap
    ? `Values with ${Math.round(first.bootstrap.confidence * 100)}% bootstrap intervals; n/a = undefined, - = not applicable.`
    : "n/a = undefined, - = not applicable.";
  return [...table(rows, ""), "", note].join("\n");
}

/** One cell of the paper's Table 1: a method's report on one dataset. */
export interface Table1Cell {
  method: string;
  dataset: string;
  report: EvaluationReport;
}

/**
 * The seed paper's Table 1 layout: methods as rows (in order of first appearance), datasets as columns,
 * and an Overall column that is, as in the paper, the mean of the row's dataset values. The values are
 * the pooled question-level Pearson; a second block gives the judge calls each spent (Overall: their
 * sum). A missing cell prints "-" and leaves Overall out ("n/a"): a mean over fewer datasets would not
 * compare with the other rows.
 */
export function formatTable1(cells: readonly Table1Cell[]): string {
  const methods = [...new Set(cells.map((c) => c.method))];
  const datasets = [...new Set(cells.map((c) => c.dataset))];
  const at = (method: string, dataset: string) => cells.find((c) => c.method === method && c.dataset === dataset)?.report ?? null;
  const block = (value: (r: EvaluationReport) => number | null, overall: (values: number[]) => number, show: (x: number) => string) =>
    methods.map((method) => {
      const values = datasets.map((d) => {
        const r = at(method, d);
        return r ? value(r) : null;
      });
      const complete = values.every((x): x is number => x !== null);
      return [method, ...values.map((x) => (x === null ? "-" : show(x))), complete ? show(overall(values)) : "n/a"];
    });
  const header = ["", ...datasets, "Overall"];
  const pearsonRows = block(
    (r) => r.questionLevel.pooled.pearson.value,
    (xs) => xs.reduce((s, x) => s + x, 0) / xs.length,
    (x) => num(x),
  );
  const callRows = block(
    (r) => r.usage?.judgeCalls ?? null,
    (xs) => xs.reduce((s, x) => s + x, 0),
    count,
  );
  return [
    "Pearson with the human scores, pooled over each dataset's answers (the paper's Table 1 layout; Overall = mean of the datasets)",
    ...table([header, ...pearsonRows], ""),
    "",
    "Judge calls (Overall = total)",
    ...table([header, ...callRows], ""),
  ].join("\n");
}
