import { describe, expect, it } from "vitest";
import { groupByQuestion, isScored, type GradedItem, type ScoredItem } from "../../../src/metrics/items";
import { examineeTotals, examLevel, meanOfDefined, questionLevel } from "../../../src/metrics/levels";
import { fixtureItems } from "./fixture";

// Expected values: totals [hand] from fixture.ts; correlations [scipy] 1.17.1 as printed by
// test/unit/metrics/reference_values.py ("fixture ..." lines).

const scored = fixtureItems.filter(isScored);

describe("question level", () => {
  const level = questionLevel(scored);

  it("computes each question's coefficients", () => {
    expect(level.perQuestion.map((q) => [q.questionId, q.answers])).toEqual([
      ["q1", 4],
      ["q2", 4],
      ["q3", 3],
    ]);
    expect(level.perQuestion[0].pearson).toBeCloseTo(0.9544271444636668, 12);
    expect(level.perQuestion[1].spearman).toBeCloseTo(0.9486832980505139, 12);
    expect(level.perQuestion[1].kendallTauB).toBeCloseTo(0.912870929175277, 12);
    expect(level.perQuestion[2].pearson).toBeCloseTo(0.9958705948858224, 12);
  });

  it("pools all answers of all questions", () => {
    expect(level.pooled.answers).toBe(11);
    expect(level.pooled.pearson).toBeCloseTo(0.8611478967328787, 12);
    expect(level.pooled.spearman).toBeCloseTo(0.8917574875210129, 12);
    expect(level.pooled.kendallTauB).toBeCloseTo(0.7769677791040541, 12);
  });

  it("averages per-question coefficients", () => {
    const mean = (0.9544271444636668 + 0.9486832980505137 + 0.9958705948858224) / 3;
    expect(level.meanOverQuestions.pearson).toMatchObject({ used: 3, skipped: 0 });
    expect(level.meanOverQuestions.pearson.mean).toBeCloseTo(mean, 12);
  });

  it("skips and counts questions whose coefficient is undefined", () => {
    const items: ScoredItem[] = [
      ...scored,
      // Every answer got the same human score: Pearson undefined for this question.
      { questionId: "flat", answerId: "f1", judgeScore: 1, humanScore: 2 },
      { questionId: "flat", answerId: "f2", judgeScore: 3, humanScore: 2 },
      // A single answer: undefined too.
      { questionId: "single", answerId: "s1", judgeScore: 1, humanScore: 1 },
    ];
    const withUndefined = questionLevel(items);
    expect(withUndefined.meanOverQuestions.pearson).toMatchObject({ used: 3, skipped: 2 });
    expect(withUndefined.meanOverQuestions.pearson.mean).toBeCloseTo(level.meanOverQuestions.pearson.mean!, 12);
  });
});

describe("meanOfDefined", () => {
  it("ignores nulls and is null when nothing is defined", () => {
    expect(meanOfDefined([0.5, null, 0.7])).toEqual({ mean: 0.6, used: 2, skipped: 1 });
    expect(meanOfDefined([null, null])).toEqual({ mean: null, used: 0, skipped: 2 });
    expect(meanOfDefined([])).toEqual({ mean: null, used: 0, skipped: 0 });
  });
});

describe("exam level", () => {
  it("sums each examinee's scores and counts the questions it answered", () => {
    // [hand] A: 8+7+9, 4+5+5; B: 6+7+5, 3+4+2; C: 3+2+6, 1+2+3; D: 5+4, 3+3.
    expect(examineeTotals(scored)).toEqual([
      { examinee: "A", judgeTotal: 24, humanTotal: 14, questionsAnswered: 3 },
      { examinee: "B", judgeTotal: 18, humanTotal: 9, questionsAnswered: 3 },
      { examinee: "C", judgeTotal: 11, humanTotal: 6, questionsAnswered: 3 },
      { examinee: "D", judgeTotal: 9, humanTotal: 6, questionsAnswered: 2 },
    ]);
  });

  it("correlates totals across examinees and ranks pairs", () => {
    const exam = examLevel(scored)!;
    expect(exam.pearson).toBeCloseTo(0.9724546017099602, 12); // [scipy]
    expect(exam.spearman).toBeCloseTo(0.9486832980505139, 12); // [scipy]
    expect(exam.kendallTauB).toBeCloseTo(0.9128709291752769, 12); // [scipy]
    // [python] C and D tie on human total 6: excluded -> 5 of 5; included -> 5 of 6.
    expect(exam.rankingAccuracy).toMatchObject({ accuracy: 1, agreeingPairs: 5, countedPairs: 5, humanTiedPairs: 1 });
    expect(examLevel(scored, { humanTies: "include" })!.rankingAccuracy.accuracy).toBeCloseTo(5 / 6, 14);
    expect(exam.unevenCoverage).toBe(true);
    expect(exam.unlabeledAnswers).toBe(0);
  });

  it("rounds away floating-point noise so equal totals tie", () => {
    const items: ScoredItem[] = [
      { questionId: "q1", answerId: "a", examinee: "X", judgeScore: 0.1, humanScore: 0.1 },
      { questionId: "q2", answerId: "a", examinee: "X", judgeScore: 0.2, humanScore: 0.2 },
      { questionId: "q1", answerId: "b", examinee: "Y", judgeScore: 0.3, humanScore: 0.3 },
      { questionId: "q2", answerId: "b", examinee: "Y", judgeScore: 0, humanScore: 0 },
    ];
    const totals = examineeTotals(items);
    expect(totals[0].humanTotal).toBe(totals[1].humanTotal); // 0.1 + 0.2 !== 0.3 in doubles
    expect(examLevel(items)!.rankingAccuracy).toMatchObject({ humanTiedPairs: 1, accuracy: null });
  });

  it("is null without examinee labels and counts unlabeled answers", () => {
    const unlabeled: GradedItem[] = scored.map(({ examinee: _examinee, ...rest }) => rest);
    expect(examLevel(unlabeled.filter(isScored))).toBeNull();
    const mixed = [...scored, { questionId: "q9", answerId: "x", judgeScore: 1, humanScore: 1 }];
    expect(examLevel(mixed)!.unlabeledAnswers).toBe(1);
  });
});

describe("groupByQuestion", () => {
  it("keeps questions in order of first appearance", () => {
    const shuffled = [scored[8], scored[0], scored[5], scored[1]];
    expect(groupByQuestion(shuffled).map((g) => [g.questionId, g.items.length])).toEqual([
      ["q3", 1],
      ["q1", 2],
      ["q2", 1],
    ]);
  });
});
