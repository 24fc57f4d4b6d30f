import { type Agreement, agreement, type Scale } from "./agreement";
// The evaluation report: everything the seed papers measure about a judge, from graded answers.
// Pure: the CLI (or a Worker) gathers the items and usage, this computes, format.ts renders.

import { bootstrapIntervals, resolveBootstrapOptions, type BootstrapOptions, type ConfidenceInterval } from "./bootstrap";
import { splitByRound, splitByTimesGraded, isFirstRoundLoser, isGradedOnce, type RoundCount } from "./by-round";
import { groupByQuestion, isScored, validateItems, type GradedItem, type ScoredItem } from "./items";
import {
  correlationNames,
  examAgreement,
  examLevel,
  itemCorrelations,
  meanOfDefined,
  perQuestionCorrelations,
  meansOverQuestions,
  type CorrelationName,
  type Correlations,
  type ExamineeTotal,
  type QuestionCorrelations,
} from "./levels";
import type { RankingAccuracy, RankingAccuracyOptions } from "./ranking-accuracy";
import { concatRows, correlationsOfRows, pearsonOfRows, scoreTable, type ScoreTable } from "./score-table";

/** Judge spend as the grading service reports it (its `usage` object, summed over evaluations). */
export interface JudgeUsage {
  judgeCalls: number;
  promptTokens: number;
  completionTokens: number;
  retries?: number;
  parseFailures?: number;
}

export interface ReportOptions extends RankingAccuracyOptions {
  /** Label of the assessment method, e.g. "knockout (debiased)". */
  method?: string;
  usage?: JudgeUsage;
  /** Bootstrap settings, or false for point estimates only. Default: 1000 resamples, 95%, seed 1. */
  bootstrap?: BootstrapOptions | false;
  /** The grading scale, for the teacher agreement's exact share and kappa (default: 0-10 in half points). */
  scale?: Scale;
}

/** A point estimate and its bootstrap interval (null when bootstrapping is off or never defined). */
export interface Estimate {
  value: number | null;
  ci: ConfidenceInterval | null;
}

export interface EvaluationReport {
  method: string | null;
  answers: {
    total: number;
    scored: number;
    /** Answers the judge gave no usable score; left out of every number below. */
    withoutJudgeScore: number;
  };
  questions: number;
  questionLevel: {
    /** All answers of all questions in one sample; CIs resample questions. */
    pooled: Record<CorrelationName, Estimate> & { answers: number };
    /** Mean of the per-question coefficients; CIs resample questions. */
    meanOverQuestions: Record<CorrelationName, Estimate & { used: number; skipped: number }>;
    perQuestion: QuestionCorrelations[];
  };
  /** Null when no answer names its examinee. CIs resample examinees. */
  examLevel:
    | null
    | (Record<CorrelationName, Estimate> & {
        examinees: ExamineeTotal[];
        unlabeledAnswers: number;
        unevenCoverage: boolean;
        /** Kocmi's accuracy under the report's policy for human ties (default: left out). */
        rankingAccuracy: Estimate & Omit<RankingAccuracy, "accuracy">;
        /** The thesis's (eq. 4.2): over all pairs of examinees, human ties kept in the denominator. */
        rankingAccuracyAllPairs: Estimate & Omit<RankingAccuracy, "accuracy">;
      });
  /** By elimination round: first-round losers against the rest. Null when no answer carries a round. CIs resample questions. */
  byRound: null | {
    firstRound: Estimate & { answers: number };
    laterRounds: Estimate & { answers: number };
    difference: Estimate;
    perRound: RoundCount[];
    answersWithoutRound: number;
  };
  /** By times graded, the paper's Table 2: graded in one match against several. Null without counts. CIs resample questions. */
  byTimesGraded: null | {
    once: Estimate & { answers: number };
    severalTimes: Estimate & { answers: number };
    difference: Estimate;
    answersWithoutCount: number;
  };
  bootstrap: Required<BootstrapOptions> | null;
  usage: JudgeUsage | null;
  /** The judge's agreement with the teachers' grades, over the answers a dataset gives one (null with fewer than 2). */
  teacherAgreement: Agreement | null;
  /**
   * The judge's scores against the human scores, both rounded to the scale's grades: the exact share and
   * the quadratic weighted kappa a CI gate can hold a run to (`--fail-under qwk=0.6`). Null with fewer than 2.
   */
  humanAgreement: Agreement | null;
}

/** A question as the bootstrap resamples it: its answers' rows in the score table. */
interface QuestionUnit {
  rows: Int32Array;
  firstRoundRows: Int32Array;
  laterRoundRows: Int32Array;
  onceRows: Int32Array;
  severalRows: Int32Array;
  correlations: Correlations;
}

function questionUnits(scored: readonly ScoredItem[], perQuestion: readonly QuestionCorrelations[]): QuestionUnit[] {
  const rowsByQuestion = new Map<string, number[]>();
  scored.forEach((item, row) => {
    const rows = rowsByQuestion.get(item.questionId);
    if (rows) rows.push(row);
    else rowsByQuestion.set(item.questionId, [row]);
  });
  return perQuestion.map((correlations) => {
    const rows = rowsByQuestion.get(correlations.questionId)!;
    const withRound = rows.filter((row) => scored[row].eliminatedInRound !== undefined);
    const counted = rows.filter((row) => (scored[row].timesGraded ?? 0) > 0);
    return {
      rows: Int32Array.from(rows),
      firstRoundRows: Int32Array.from(withRound.filter((row) => isFirstRoundLoser(scored[row]))),
      laterRoundRows: Int32Array.from(withRound.filter((row) => !isFirstRoundLoser(scored[row]))),
      onceRows: Int32Array.from(counted.filter((row) => isGradedOnce(scored[row]))),
      severalRows: Int32Array.from(counted.filter((row) => !isGradedOnce(scored[row]))),
      correlations,
    };
  });
}

function questionStatistics(table: ScoreTable, resample: readonly QuestionUnit[]) {
  const pooled = correlationsOfRows(table, concatRows(resample.map((unit) => unit.rows)));
  const means = meansOverQuestions(resample.map((unit) => unit.correlations));
  return {
    pooledPearson: pooled.pearson,
    pooledSpearman: pooled.spearman,
    pooledKendallTauB: pooled.kendallTauB,
    meanPearson: means.pearson.mean,
    meanSpearman: means.spearman.mean,
    meanKendallTauB: means.kendallTauB.mean,
  };
}

function roundStatistics(table: ScoreTable, resample: readonly QuestionUnit[]) {
  const first = pearsonOfRows(table, concatRows(resample.map((unit) => unit.firstRoundRows)));
  const later = pearsonOfRows(table, concatRows(resample.map((unit) => unit.laterRoundRows)));
  return { first, later, difference: first === null || later === null ? null : later - first };
}

function gradedStatistics(table: ScoreTable, resample: readonly QuestionUnit[]) {
  const once = pearsonOfRows(table, concatRows(resample.map((unit) => unit.onceRows)));
  const several = pearsonOfRows(table, concatRows(resample.map((unit) => unit.severalRows)));
  return { once, several, difference: once === null || several === null ? null : several - once };
}

function examStatistics(resample: readonly ExamineeTotal[], options: RankingAccuracyOptions) {
  const agreement = examAgreement(resample, options);
  return {
    pearson: agreement.pearson,
    spearman: agreement.spearman,
    kendallTauB: agreement.kendallTauB,
    rankingAccuracy: agreement.rankingAccuracy.accuracy,
    rankingAccuracyAllPairs: examAgreement(resample, { humanTies: "include" }).rankingAccuracy.accuracy,
  };
}

/** Runs the bootstrap only when asked to, so the no-CI path never pays for resampling. */
function intervals<T, K extends string>(
  bootstrap: Required<BootstrapOptions> | null,
  units: readonly T[],
  statistics: (resample: readonly T[]) => Record<K, number | null>,
): (name: K) => ConfidenceInterval | null {
  if (bootstrap === null) return () => null;
  const computed = bootstrapIntervals(units, statistics, bootstrap);
  return (name) => computed[name];
}

const capitalized: Record<CorrelationName, "Pearson" | "Spearman" | "KendallTauB"> = {
  pearson: "Pearson",
  spearman: "Spearman",
  kendallTauB: "KendallTauB",
};

/**
 * Builds the full report from graded items. Throws on malformed input (duplicate answers,
 * non-finite human scores, invalid rounds); answers without a judge score are counted, not fatal.
 */
export function buildReport(items: readonly GradedItem[], options: ReportOptions = {}): EvaluationReport {
  validateItems(items);
  const rankingOptions: RankingAccuracyOptions = { humanTies: options.humanTies ?? "exclude" };
  const bootstrap = options.bootstrap === false ? null : resolveBootstrapOptions(options.bootstrap);
  const scored = items.filter(isScored);

  const perQuestion = perQuestionCorrelations(groupByQuestion(scored));
  const units = questionUnits(scored, perQuestion);
  const table = scoreTable(scored);

  const pooled = itemCorrelations(scored);
  const questionCi = intervals(bootstrap, units, (resample) => questionStatistics(table, resample));
  const pooledEstimates = {} as Record<CorrelationName, Estimate>;
  const meanEstimates = {} as Record<CorrelationName, Estimate & { used: number; skipped: number }>;
  for (const name of correlationNames) {
    pooledEstimates[name] = { value: pooled[name], ci: questionCi(`pooled${capitalized[name]}`) };
    const mean = meanOfDefined(perQuestion.map((q) => q[name]));
    meanEstimates[name] = { value: mean.mean, ci: questionCi(`mean${capitalized[name]}`), used: mean.used, skipped: mean.skipped };
  }

  return {
    method: options.method ?? null,
    answers: { total: items.length, scored: scored.length, withoutJudgeScore: items.length - scored.length },
    questions: perQuestion.length,
    questionLevel: {
      pooled: { answers: scored.length, ...pooledEstimates },
      meanOverQuestions: meanEstimates,
      perQuestion,
    },
    examLevel: buildExamLevel(scored, rankingOptions, bootstrap),
    byRound: buildByRound(scored, units, table, bootstrap),
    byTimesGraded: buildByTimesGraded(scored, units, table, bootstrap),
    bootstrap,
    usage: options.usage ?? null,
    teacherAgreement: agreement(
      scored.flatMap((i) => (i.teacherScore !== undefined ? [{ judge: i.judgeScore, teacher: i.teacherScore }] : [])),
      options.scale ?? { maxScore: 10, step: 0.5 },
    ),
    humanAgreement: agreement(
      scored.map((i) => ({ judge: i.judgeScore, teacher: i.humanScore })),
      options.scale ?? { maxScore: 10, step: 0.5 },
    ),
  };
}

function buildExamLevel(
  scored: readonly ScoredItem[],
  rankingOptions: RankingAccuracyOptions,
  bootstrap: Required<BootstrapOptions> | null,
): EvaluationReport["examLevel"] {
  const exam = examLevel(scored, rankingOptions);
  if (exam === null) return null;
  const ci = intervals(bootstrap, exam.examinees, (resample) => examStatistics(resample, rankingOptions));
  const { accuracy, ...rankingCounts } = exam.rankingAccuracy;
  const { accuracy: allPairsAccuracy, ...allPairsCounts } = examAgreement(exam.examinees, { humanTies: "include" }).rankingAccuracy;
  return {
    examinees: exam.examinees,
    unlabeledAnswers: exam.unlabeledAnswers,
    unevenCoverage: exam.unevenCoverage,
    pearson: { value: exam.pearson, ci: ci("pearson") },
    spearman: { value: exam.spearman, ci: ci("spearman") },
    kendallTauB: { value: exam.kendallTauB, ci: ci("kendallTauB") },
    rankingAccuracy: { value: accuracy, ci: ci("rankingAccuracy"), ...rankingCounts },
    rankingAccuracyAllPairs: { value: allPairsAccuracy, ci: ci("rankingAccuracyAllPairs"), ...allPairsCounts },
  };
}

function buildByRound(
  scored: readonly ScoredItem[],
  units: readonly QuestionUnit[],
  table: ScoreTable,
  bootstrap: Required<BootstrapOptions> | null,
): EvaluationReport["byRound"] {
  const split = splitByRound(scored);
  if (split === null) return null;
  const ci = intervals(bootstrap, units, (resample) => roundStatistics(table, resample));
  return {
    firstRound: { answers: split.firstRound.answers, value: split.firstRound.pearson, ci: ci("first") },
    laterRounds: { answers: split.laterRounds.answers, value: split.laterRounds.pearson, ci: ci("later") },
    difference: { value: split.difference, ci: ci("difference") },
    perRound: split.perRound,
    answersWithoutRound: split.answersWithoutRound,
  };
}

function buildByTimesGraded(
  scored: readonly ScoredItem[],
  units: readonly QuestionUnit[],
  table: ScoreTable,
  bootstrap: Required<BootstrapOptions> | null,
): EvaluationReport["byTimesGraded"] {
  const split = splitByTimesGraded(scored);
  if (split === null) return null;
  const ci = intervals(bootstrap, units, (resample) => gradedStatistics(table, resample));
  return {
    once: { answers: split.once.answers, value: split.once.pearson, ci: ci("once") },
    severalTimes: { answers: split.severalTimes.answers, value: split.severalTimes.pearson, ci: ci("several") },
    difference: { value: split.difference, ci: ci("difference") },
    answersWithoutCount: split.answersWithoutCount,
  };
}
