// Agreement with the human experts at the two levels of the seed papers:
//   - question level: answers to the same question compared with each other, reported per
//     question, pooled over all answers of all questions (the paper's "Question-Level" number),
//     and as the mean of the per-question coefficients;
//   - exam level: each examinee's total over the questions (SciEx's exam-level score), compared
//     across examinees.

import { kendallTauB, pearson, spearman } from "./correlation";
import { groupByQuestion, humanScores, judgeScores, type QuestionGroup, type ScoredItem } from "./items";
import { pairwiseRankingAccuracy, type RankingAccuracy, type RankingAccuracyOptions } from "./ranking-accuracy";

export interface Correlations {
  pearson: number | null;
  spearman: number | null;
  kendallTauB: number | null;
}

export type CorrelationName = keyof Correlations;
export const correlationNames: readonly CorrelationName[] = ["pearson", "spearman", "kendallTauB"];

export function correlations(judge: ArrayLike<number>, human: ArrayLike<number>): Correlations {
  return { pearson: pearson(judge, human), spearman: spearman(judge, human), kendallTauB: kendallTauB(judge, human) };
}

export function itemCorrelations(items: readonly ScoredItem[]): Correlations {
  return correlations(judgeScores(items), humanScores(items));
}

export interface QuestionCorrelations extends Correlations {
  questionId: string;
  answers: number;
}

/**
 * Mean of the defined values. Undefined ones (a question whose human scores are all equal, or
 * that has a single answer) are skipped rather than read as 0, and counted so that a mean over
 * 40 of 81 questions does not pass for a mean over all 81.
 */
export interface MeanOfDefined {
  mean: number | null;
  used: number;
  skipped: number;
}

export function meanOfDefined(values: readonly (number | null)[]): MeanOfDefined {
  let sum = 0;
  let used = 0;
  for (const value of values) {
    if (value === null) continue;
    sum += value;
    used++;
  }
  return { mean: used === 0 ? null : sum / used, used, skipped: values.length - used };
}

export interface QuestionLevel {
  perQuestion: QuestionCorrelations[];
  pooled: Correlations & { answers: number };
  /** Plain arithmetic means of the per-question coefficients (no Fisher z-transform). */
  meanOverQuestions: Record<CorrelationName, MeanOfDefined>;
}

export function perQuestionCorrelations(groups: readonly QuestionGroup[]): QuestionCorrelations[] {
  return groups.map(({ questionId, items }) => ({ questionId, answers: items.length, ...itemCorrelations(items) }));
}

export function meansOverQuestions(perQuestion: readonly Correlations[]): Record<CorrelationName, MeanOfDefined> {
  return {
    pearson: meanOfDefined(perQuestion.map((q) => q.pearson)),
    spearman: meanOfDefined(perQuestion.map((q) => q.spearman)),
    kendallTauB: meanOfDefined(perQuestion.map((q) => q.kendallTauB)),
  };
}

export function questionLevel(items: readonly ScoredItem[]): QuestionLevel {
  const perQuestion = perQuestionCorrelations(groupByQuestion(items));
  return {
    perQuestion,
    pooled: { answers: items.length, ...itemCorrelations(items) },
    meanOverQuestions: meansOverQuestions(perQuestion),
  };
}

export interface ExamineeTotal {
  examinee: string;
  judgeTotal: number;
  humanTotal: number;
  /** Distinct questions this examinee has a scored answer to. */
  questionsAnswered: number;
}

/**
 * Sums of 0.1-step scores pick up representation error (0.1 + 0.2 !== 0.3), which would turn equal
 * totals into a spurious order for Spearman, Kendall and ranking accuracy. Twelve significant
 * digits are far beyond any grading scale and far above double rounding noise.
 */
function roundTotal(total: number): number {
  return Number(total.toPrecision(12));
}

/**
 * Each examinee's exam-level score: the sum of its scored answers' scores, judge and human alike,
 * in order of first appearance. Answers without an examinee label are ignored. An examinee that
 * answered fewer questions has a smaller total by construction; `questionsAnswered` shows it.
 */
export function examineeTotals(items: readonly ScoredItem[]): ExamineeTotal[] {
  const totals = new Map<string, { judge: number; human: number; questions: Set<string> }>();
  for (const item of items) {
    if (item.examinee === undefined) continue;
    let total = totals.get(item.examinee);
    if (!total) {
      total = { judge: 0, human: 0, questions: new Set() };
      totals.set(item.examinee, total);
    }
    total.judge += item.judgeScore;
    total.human += item.humanScore;
    total.questions.add(item.questionId);
  }
  return [...totals].map(([examinee, total]) => ({
    examinee,
    judgeTotal: roundTotal(total.judge),
    humanTotal: roundTotal(total.human),
    questionsAnswered: total.questions.size,
  }));
}

export interface ExamAgreement extends Correlations {
  rankingAccuracy: RankingAccuracy;
}

export function examAgreement(totals: readonly ExamineeTotal[], options: RankingAccuracyOptions = {}): ExamAgreement {
  const judge = totals.map((t) => t.judgeTotal);
  const human = totals.map((t) => t.humanTotal);
  return { ...correlations(judge, human), rankingAccuracy: pairwiseRankingAccuracy(judge, human, options) };
}

export interface ExamLevel extends ExamAgreement {
  examinees: ExamineeTotal[];
  /** Scored answers without an examinee label, which no exam-level number includes. */
  unlabeledAnswers: number;
  /** True when examinees answered different numbers of questions, so totals are not like for like. */
  unevenCoverage: boolean;
}

/** Exam-level agreement, or null when no scored answer names its examinee. */
export function examLevel(items: readonly ScoredItem[], options: RankingAccuracyOptions = {}): ExamLevel | null {
  const examinees = examineeTotals(items);
  if (examinees.length === 0) return null;
  const answered = new Set(examinees.map((e) => e.questionsAnswered));
  return {
    examinees,
    unlabeledAnswers: items.filter((item) => item.examinee === undefined).length,
    unevenCoverage: answered.size > 1,
    ...examAgreement(examinees, options),
  };
}
