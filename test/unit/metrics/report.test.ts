import { describe, expect, it } from "vitest";
import type { GradedItem } from "../../../src/metrics/items";
import { buildReport, formatComparison, formatReport } from "../../../src/metrics/report";
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
    for (const estimate of [report.questionLevel.pooled.pearson, report.questionLevel.meanOverQuestions.pearson, report.examLevel!.pearson]) {
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
    expect(text).toMatch(/Pairwise ranking accuracy, 5 of 5 pairs\s+1\.000/);
    expect(text).toContain("1 human-tied pairs left out; 0 judge-only ties count as wrong");
    expect(text).toMatch(/First-round losers, 5 answers\s+0\.504/);
    expect(text).toMatch(/Difference \(later - first\)\s+\+0\.261/);
    expect(text).toMatch(/champion\s+3\s+/);
    expect(text).toContain("answered 2 to 3 questions, so totals are not like for like");
  });

  it("lists questions on request", () => {
    expect(formatReport(buildReport(fixtureItems, { bootstrap: false }), { perQuestion: true })).toMatch(/q3\s+3\s+0\.996\s+1\.000\s+1\.000/);
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
    const bare = buildReport(fixtureItems.map(({ examinee: _e, eliminatedInRound: _r, ...rest }) => rest), { bootstrap: false });
    const text = formatComparison({ a: bare, b: bare });
    expect(text).not.toContain("Exam level");
    expect(text).not.toContain("first-round");
  });
});
