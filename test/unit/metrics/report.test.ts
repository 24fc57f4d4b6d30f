import { describe, expect, it } from "vitest";
import type { GradedItem } from "../../../src/metrics/items";
import { formatComparison, formatReport } from "../../../src/metrics/format";
import { buildReport } from "../../../src/metrics/report";
import { pearson } from "../../../src/metrics/correlation";
import { fixtureItems } from "./fixture";

// Expected coefficients: [scipy] 1.17.1 via test/unit/metrics/reference_values.py ("fixture ...").

const unscored: GradedItem = { questionId: "q3", answerId: "q3-D", examinee: "D", judgeScore: null, humanScore: 1 };
const usage = { judgeCalls: 8, promptTokens: 12345, completionTokens: 678, retries: 1, parseFailures: 0 };

describe("buildReport", () => {
  const report = buildReport([...fixtureItems, unscored], { method: "knockout", usage, bootstrap: { resamples: 300, seed: 5 } });

  it("counts answers and leaves out those without a judge score", () => {
    expect(report.answers).toEqual({ total: 12, scored: 11, withoutJudgeScore: 1 });
    expect(report.questions).toBe(3);
    expect(report.examLevel!.examinees.find((e) => e.examinee === "D")!.questionsAnswered).toBe(2);
  });

  it("reports every level with the reference values", () => {
    expect(report.questionLevel.pooled.pearson.value).toBeCloseTo(0.8611478967328787, 12);
    expect(report.questionLevel.pooled.kendallTauB.value).toBeCloseTo(0.7769677791040541, 12);
    expect(report.questionLevel.meanOverQuestions.pearson).toMatchObject({ used: 3, skipped: 0 });
    expect(report.questionLevel.perQuestion).toHaveLength(3);
    expect(report.examLevel!.pearson.value).toBeCloseTo(0.9724546017099602, 12);
    expect(report.examLevel!.rankingAccuracy).toMatchObject({ value: 1, agreeingPairs: 5, countedPairs: 5, humanTies: "exclude" });
    expect(report.byRound!.firstRound).toMatchObject({ answers: 5 });
    expect(report.byRound!.firstRound.value).toBeCloseTo(0.5041841733655161, 12);
    expect(report.byRound!.laterRounds.value).toBeCloseTo(0.7650920556760059, 12);
    expect(report.byRound!.difference.value).toBeCloseTo(0.7650920556760059 - 0.5041841733655161, 12);
    expect(report.usage).toEqual(usage);
    expect(report.method).toBe("knockout");
  });

  it("attaches bootstrap intervals that contain the pooled estimates", () => {
    expect(report.bootstrap).toEqual({ resamples: 300, confidence: 0.95, seed: 5 });
    for (const estimate of [
      report.questionLevel.pooled.pearson,
      report.questionLevel.meanOverQuestions.pearson,
      report.examLevel!.pearson,
    ]) {
      expect(estimate.ci).not.toBeNull();
      expect(estimate.ci!.low).toBeLessThanOrEqual(estimate.value!);
      expect(estimate.ci!.high).toBeGreaterThanOrEqual(estimate.value!);
    }
    expect(report.byRound!.difference.ci).not.toBeNull();
  });

  it("fills bootstrap defaults and rejects bad settings up front", () => {
    expect(buildReport(fixtureItems, { bootstrap: { seed: undefined } }).bootstrap).toEqual({ resamples: 1000, confidence: 0.95, seed: 1 });
    expect(() => buildReport(fixtureItems, { bootstrap: { confidence: 95 } })).toThrow(RangeError);
  });

  it("is deterministic for a seed", () => {
    const again = buildReport([...fixtureItems, unscored], { method: "knockout", usage, bootstrap: { resamples: 300, seed: 5 } });
    expect(again).toEqual(report);
  });

  it("skips the bootstrap on request and omits sections without data", () => {
    const bare = fixtureItems.map(({ examinee: _e, eliminatedInRound: _r, ...rest }) => rest);
    const plain = buildReport(bare, { bootstrap: false });
    expect(plain.bootstrap).toBeNull();
    expect(plain.questionLevel.pooled.pearson.ci).toBeNull();
    expect(plain.examLevel).toBeNull();
    expect(plain.byRound).toBeNull();
    expect(plain.usage).toBeNull();
  });

  it("handles no items at all", () => {
    const empty = buildReport([], {});
    expect(empty.questionLevel.pooled.pearson).toEqual({ value: null, ci: null });
    expect(empty.questions).toBe(0);
    expect(formatReport(empty)).toContain("n/a");
  });

  it("rejects malformed items", () => {
    const [first] = fixtureItems;
    expect(() => buildReport([first, { ...first }])).toThrow(/appears twice/);
    expect(() => buildReport([{ ...first, humanScore: Number.NaN }])).toThrow(/human score/);
    expect(() => buildReport([{ ...first, eliminatedInRound: 0 }])).toThrow(/eliminatedInRound/);
  });
});

describe("formatReport", () => {
  const text = formatReport(buildReport([...fixtureItems, unscored], { method: "knockout", usage, bootstrap: { resamples: 200 } }));

  it("renders every section with its numbers", () => {
    expect(text).toContain("Evaluation report: knockout");
    expect(text).toContain("Answers: 11 scored of 12 (1 without a judge score), 3 questions");
    expect(text).toContain("Judge: 8 calls, 12,345 prompt + 678 completion tokens, 1 retries, 0 parse failures");
    expect(text).toMatch(/Pearson, pooled over 11 answers\s+0\.861\s+\[-?\d\.\d{3}, \d\.\d{3}\]/);
    expect(text).toMatch(/Pairwise ranking accuracy, human ties left out, 5 of 5 pairs\s+1\.000/);
    expect(text).toMatch(/Pairwise ranking accuracy over all pairs, human ties included \(the thesis's\), 5 of 6\s+0\.833/);
    expect(text).toContain("1 human-tied pairs left out; 0 judge-only ties count as wrong");
    expect(text).toMatch(/First-round losers, 5 answers\s+0\.504/);
    expect(text).toMatch(/Difference \(later - first\)\s+\+0\.261/);
    expect(text).toMatch(/champion\s+3\s+/);
    expect(text).toContain("answered 2 to 3 questions, so totals are not like for like");
  });

  it("lists questions on request", () => {
    expect(formatReport(buildReport(fixtureItems, { bootstrap: false }), { perQuestion: true })).toMatch(
      /q3\s+3\s+0\.996\s+1\.000\s+1\.000/,
    );
  });
});

describe("formatComparison", () => {
  it("puts methods side by side and marks what a method lacks", () => {
    const knockout = buildReport(fixtureItems, { usage, bootstrap: false });
    const individual = buildReport(
      fixtureItems.map(({ eliminatedInRound: _r, ...rest }) => ({ ...rest, judgeScore: rest.humanScore! * 2 })),
      { bootstrap: false },
    );
    const lines = formatComparison({ knockout, individual }).split("\n");
    expect(lines[0]).toMatch(/^\s+knockout\s+individual$/);
    expect(lines.find((l) => l.startsWith("Question level, Pearson (pooled)"))).toMatch(/0\.861\s+1\.000$/);
    expect(lines.find((l) => l.startsWith("Pearson, first-round losers"))).toMatch(/0\.504\s+-$/);
    expect(lines.find((l) => l.startsWith("Judge calls"))).toMatch(/8\s+-$/);
  });

  it("leaves out rows no method has", () => {
    const bare = buildReport(
      fixtureItems.map(({ examinee: _e, eliminatedInRound: _r, ...rest }) => rest),
      { bootstrap: false },
    );
    const text = formatComparison({ a: bare, b: bare });
    expect(text).not.toContain("Exam level");
    expect(text).not.toContain("first-round");
  });
});

describe("both ways of splitting by round, and ranking accuracy with and without human ties", () => {
  // Who was graded how often in the fixture's tournaments: round-1 losers once; in q3 C had the bye and
  // lost in round 2, so it was eliminated in a later round but graded once; everyone else twice.
  const times: Record<string, number> = {
    "q1-A": 2,
    "q1-B": 2,
    "q1-C": 1,
    "q1-D": 1,
    "q2-A": 2,
    "q2-B": 2,
    "q2-C": 1,
    "q2-D": 1,
    "q3-A": 2,
    "q3-B": 1,
    "q3-C": 1,
  };
  const items = fixtureItems.map((item) => ({ ...item, timesGraded: times[item.answerId] }));
  const report = buildReport(items, { bootstrap: { resamples: 200, seed: 3 } });
  const pearsonOf = (ids: string[]) => {
    const chosen = items.filter((i) => ids.includes(i.answerId));
    return pearson(
      chosen.map((i) => i.judgeScore!),
      chosen.map((i) => i.humanScore),
    );
  };

  it("the paper's Table 2 split by times graded differs from the split by elimination round where a bye answer lost its first match", () => {
    const once = ["q1-C", "q1-D", "q2-C", "q2-D", "q3-B", "q3-C"];
    const several = ["q1-A", "q1-B", "q2-A", "q2-B", "q3-A"];
    expect(report.byTimesGraded!.once.answers).toBe(6);
    expect(report.byTimesGraded!.severalTimes.answers).toBe(5);
    expect(report.byTimesGraded!.once.value).toBeCloseTo(pearsonOf(once)!, 12);
    expect(report.byTimesGraded!.severalTimes.value).toBeCloseTo(pearsonOf(several)!, 12);
    expect(report.byTimesGraded!.difference.value).toBeCloseTo(pearsonOf(several)! - pearsonOf(once)!, 12);
    expect(report.byTimesGraded!.difference.ci).not.toBeNull();
    // by elimination round q3-C is a later-round answer: 5 first-round losers, not 6
    expect(report.byRound!.firstRound.answers).toBe(5);
    expect(report.byRound!.difference.value).not.toBeCloseTo(report.byTimesGraded!.difference.value!, 3);
  });

  it("both splits are printed, the paper's labelled as its Table 2, and side by side in a comparison", () => {
    const text = formatReport(report);
    expect(text).toContain("By elimination round, Pearson");
    expect(text).toContain("By times graded, Pearson: the paper's Table 2");
    expect(text).toMatch(/Graded once, 6 answers\s+-?\d\.\d{3}/);
    const table = formatComparison({ knockout: report });
    expect(table).toContain("Pearson, graded once (paper's Table 2)");
    expect(table).toContain("Pearson, first-round losers");
    // no counts, no section
    expect(buildReport(fixtureItems, { bootstrap: false }).byTimesGraded).toBeNull();
    expect(formatReport(buildReport(fixtureItems, { bootstrap: false }))).not.toContain("times graded");
  });

  it("ranking accuracy both ways: human ties left out (Kocmi), and over all pairs with ties in (the thesis's eq. 4.2)", () => {
    // exam totals: human A 14, B 9, C 6, D 6 (a tie); judge C 11, D 9
    expect(report.examLevel!.rankingAccuracy).toMatchObject({ value: 1, countedPairs: 5, humanTies: "exclude" });
    expect(report.examLevel!.rankingAccuracyAllPairs).toMatchObject({ agreeingPairs: 5, countedPairs: 6, humanTies: "include" });
    expect(report.examLevel!.rankingAccuracyAllPairs.value).toBeCloseTo(5 / 6, 12);
    expect(formatComparison({ knockout: report })).toMatch(/ranking accuracy over all pairs \(thesis, human ties in\)\s+0\.833/);
  });

  it("refuses a count that is not a whole number", () => {
    expect(() => buildReport([{ ...items[0], timesGraded: 1.5 }])).toThrow(/timesGraded/);
  });
});

describe("agreement with the teachers' grades", () => {
  it("is computed over the answers that have a teacher grade and printed; absent without them", () => {
    const items: GradedItem[] = [
      { questionId: "q", answerId: "a", judgeScore: 2, humanScore: 2, teacherScore: 2.5 },
      { questionId: "q", answerId: "b", judgeScore: 4, humanScore: 4, teacherScore: 4 },
      { questionId: "q", answerId: "c", judgeScore: 6.2, humanScore: 6, teacherScore: 6 },
      { questionId: "q", answerId: "d", judgeScore: 8, humanScore: 8 },
    ];
    const report = buildReport(items, { bootstrap: false, scale: { maxScore: 10, step: 0.5 } });
    expect(report.teacherAgreement).toMatchObject({ n: 3, spearman: 1, exact: 2 / 3 });
    expect(report.teacherAgreement!.mae).toBeCloseTo(0.7 / 3, 12);
    expect(report.teacherAgreement!.qwk).toBeCloseTo(1 - 1 / 57, 12);
    expect(formatReport(report)).toMatch(/Agreement with the teachers' grades \(3 graded answers\)\n {2}Pearson 0\.99\d+, Spearman 1\.000/);
    const none = buildReport(
      items.map(({ teacherScore: _t, ...i }) => i),
      { bootstrap: false },
    );
    expect(none.teacherAgreement).toBeNull();
    expect(formatReport(none)).not.toMatch(/teachers' grades/);
  });
});
