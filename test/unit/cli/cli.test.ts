import { describe, expect, it } from "vitest";
import { parseCli, type CliOptions } from "../../../src/cli/args";
import { datasetName, parseDataset, withExaminees } from "../../../src/cli/dataset";
import { evaluationRequest, gradedItems, methodLabel, sumUsage, type EvaluationResult } from "../../../src/cli/items";
import { extraCallsFor, parseVariant, variantFields, variantLabel } from "../../../src/cli/variants";
import { formatTable1 } from "../../../src/metrics/format";
import { buildReport } from "../../../src/metrics/report";
import { pool } from "../../../src/cli/service";

const line = (o: unknown) => JSON.stringify(o);
const mohlerLike = [
  line({
    question_id: "1.1",
    question: "What is a prototype?",
    reference: "A simulation.",
    max_score: 5,
    min_score: 0,
    ignored_in_published_work: false,
    answers: [
      { id: "1.1.0", text: "A model.", human_score: 3.5, grader_ta_raw: 3 },
      { id: "1.1.1", text: "", human_score: 0 },
    ],
  }),
  "",
  line({
    question_id: "1.2",
    question: "Q2",
    reference: "",
    max_score: 5,
    min_score: 0,
    ignored_in_published_work: true,
    answers: [
      { id: "1.2.0", text: "x", human_score: 1 },
      { id: "1.2.1", text: "y", human_score: 2 },
    ],
  }),
].join("\n");
const wmtLike = [
  line({
    question_id: "ted-1",
    question: "Hello.",
    source_lang: "English",
    target_lang: "German",
    max_score: 0,
    min_score: -25,
    answers: [
      { id: "sysA", text: "Hallo.", human_score: 0 },
      { id: "sysB", text: "Hi.", human_score: -1 },
    ],
  }),
  line({
    question_id: "ted-2",
    question: "Bye.",
    source_lang: "English",
    target_lang: "German",
    max_score: 0,
    min_score: -25,
    answers: [
      { id: "sysA", text: "Tschüss.", human_score: -5 },
      { id: "sysB", text: "Bye.", human_score: -25 },
    ],
  }),
].join("\n");

describe("dataset parsing (the schema of the shared datasets)", () => {
  it("reads questions, references, scales and answers; an empty reference is none; flags translations and ignored questions", () => {
    const [q1, q2] = parseDataset(mohlerLike);
    expect(q1).toEqual({
      questionId: "1.1",
      question: "What is a prototype?",
      reference: "A simulation.",
      maxScore: 5,
      minScore: 0,
      translation: false,
      ignored: false,
      answers: [
        { id: "1.1.0", text: "A model.", humanScore: 3.5 },
        { id: "1.1.1", text: "", humanScore: 0 },
      ],
    });
    expect(q2.reference).toBeUndefined();
    expect(q2.ignored).toBe(true);
    expect(parseDataset(wmtLike)[0].translation).toBe(true);
  });

  it("names the line of every error", () => {
    expect(() => parseDataset(`${line({ question_id: "a", question: "Q", answers: [] })}\n{oops`)).toThrow(/^line 2: not valid JSON/);
    expect(() => parseDataset(line({ question: "Q", answers: [] }))).toThrow("line 1: question_id is missing");
    expect(() => parseDataset(line({ question_id: "a", question: "Q", answers: [{ id: "x", text: "t", human_score: "high" }] }))).toThrow(
      "line 1: answers[0]: human_score must be a number",
    );
    expect(() =>
      parseDataset(
        line({
          question_id: "a",
          question: "Q",
          answers: [
            { id: "x", text: "t", human_score: 1 },
            { id: "x", text: "u", human_score: 1 },
          ],
        }),
      ),
    ).toThrow(/answers\[1\]: id x appears twice/);
    expect(() =>
      parseDataset(
        [line({ question_id: "a", question: "Q", answers: [] }), line({ question_id: "a", question: "Q", answers: [] })].join("\n"),
      ),
    ).toThrow("line 2: question_id a appears twice");
  });

  it("examinees: the answers' own field, else the ids when they recur across questions (WMT systems), else none", () => {
    const wmt = withExaminees(parseDataset(wmtLike), "auto");
    expect(wmt.flatMap((q) => q.answers.map((a) => a.examinee))).toEqual(["sysA", "sysB", "sysA", "sysB"]);
    const mohler = withExaminees(parseDataset(mohlerLike), "auto");
    expect(mohler.flatMap((q) => q.answers.map((a) => a.examinee))).toEqual([undefined, undefined, undefined, undefined]);
    expect(withExaminees(parseDataset(wmtLike), "none")[0].answers[0].examinee).toBeUndefined();
    const labelled = parseDataset(
      line({
        question_id: "a",
        question: "Q",
        answers: [
          { id: "1", text: "t", human_score: 1, examinee: "ann" },
          { id: "2", text: "u", human_score: 1 },
        ],
      }),
    );
    expect(withExaminees(labelled, "auto")[0].answers.map((a) => a.examinee)).toEqual(["ann", undefined]);
    expect(withExaminees(labelled, "id")[0].answers.map((a) => a.examinee)).toEqual(["1", "2"]);
  });
});

describe("request bodies and report items", () => {
  const settings = { method: "knockout" as const, debias: true, template: null, maxScore: null, seed: 10 };

  it("an exam question keeps its scale and reference; a translation uses the translation prompts' 0..100", () => {
    const [q1] = parseDataset(mohlerLike);
    expect(evaluationRequest(q1, 2, settings)).toEqual({
      question: "What is a prototype?",
      reference: "A simulation.",
      maxScore: 5,
      template: "exam",
      method: "knockout",
      debias: true,
      seed: 12,
      answers: [
        { id: "1.1.0", text: "A model." },
        { id: "1.1.1", text: "" },
      ],
      metadata: { questionId: "1.1" },
    });
    const [t] = withExaminees(parseDataset(wmtLike), "auto");
    const body = evaluationRequest(t, 0, { ...settings, method: "individual" });
    expect(body.template).toBe("translation");
    expect(body.maxScore).toBeUndefined();
    expect(body.answers).toEqual([
      { id: "sysA", text: "Hallo.", examinee: "sysA" },
      { id: "sysB", text: "Hi.", examinee: "sysB" },
    ]);
    expect(evaluationRequest(t, 0, { ...settings, template: "exam", maxScore: 7 })).toMatchObject({ template: "exam", maxScore: 7 });
  });

  it("a panel goes in the judge settings, beside a variant's scoreFrom", () => {
    const [q1] = parseDataset(mohlerLike);
    const panel = { models: ["judge-a", "judge-b"], mode: "all" as const };
    expect(evaluationRequest(q1, 0, { ...settings, panel }).judge).toEqual({ panel: ["judge-a", "judge-b"], panelMode: "all" });
    expect(evaluationRequest(q1, 0, { ...settings, scoreFrom: "logprobs", panel }).judge).toEqual({
      scoreFrom: "logprobs",
      panel: ["judge-a", "judge-b"],
      panelMode: "all",
    });
    expect(evaluationRequest(q1, 0, settings).judge).toBeUndefined();
  });

  it("items carry judge and human scores, examinees, and the elimination round only for a knockout", () => {
    const [t] = withExaminees(parseDataset(wmtLike), "auto");
    const usage = { judgeCalls: 2, promptTokens: 100, completionTokens: 10, retries: 1, parseFailures: 0 };
    const knockout: EvaluationResult = {
      status: "completed",
      method: "knockout",
      usage,
      answers: [
        { id: "sysB", score: 40, eliminatedInRound: 1 },
        { id: "sysA", score: 80, eliminatedInRound: null },
      ],
    };
    expect(gradedItems(t, knockout)).toEqual([
      { questionId: "ted-1", answerId: "sysA", examinee: "sysA", judgeScore: 80, humanScore: 0, eliminatedInRound: null },
      { questionId: "ted-1", answerId: "sysB", examinee: "sysB", judgeScore: 40, humanScore: -1, eliminatedInRound: 1 },
    ]);
    const individual = { ...knockout, method: "individual" };
    expect(gradedItems(t, individual)[1]).toEqual({
      questionId: "ted-1",
      answerId: "sysB",
      examinee: "sysB",
      judgeScore: 40,
      humanScore: -1,
    });
    // a failed question: no judge scores (left out and counted by the report), never zeros
    expect(gradedItems(t, { ...knockout, status: "failed" }).map((i) => i.judgeScore)).toEqual([null, null]);
    expect(gradedItems(t, null).map((i) => i.judgeScore)).toEqual([null, null]);
    expect(sumUsage([knockout, null, knockout])).toEqual({
      judgeCalls: 4,
      promptTokens: 200,
      completionTokens: 20,
      retries: 2,
      parseFailures: 0,
    });
    expect(methodLabel({ method: "knockout", debias: true })).toBe("knockout (debiased)");
    expect(methodLabel({ method: "individual", debias: true })).toBe("individual");
  });

  it("a knockout's items carry how many times each answer was graded (its match scores), for the paper's Table 2", () => {
    const [t] = withExaminees(parseDataset(wmtLike), "auto");
    const usage = { judgeCalls: 2, promptTokens: 100, completionTokens: 10, retries: 1, parseFailures: 0 };
    const answers = [
      { id: "sysB", score: 40, eliminatedInRound: 2, scores: [40] },
      { id: "sysA", score: 80, eliminatedInRound: null, scores: [70, 90] },
    ];
    const items = gradedItems(t, { status: "completed", method: "knockout", usage, answers });
    expect(items.map((i) => [i.answerId, i.eliminatedInRound, i.timesGraded])).toEqual([
      ["sysA", null, 2],
      ["sysB", 2, 1],
    ]);
    expect(gradedItems(t, { status: "completed", method: "pairwise", usage, answers }).every((i) => i.timesGraded === undefined)).toBe(
      true,
    );
  });
});

describe("command line", () => {
  const base = ["eval", "data.jsonl", "--url", "http://localhost:8787/", "--key", "kj_x"];

  it("defaults: debiased knockout, 8 in flight, seed 1, 1000 resamples; the URL loses its trailing slash", () => {
    const r = parseCli(base);
    expect(r).toMatchObject({
      ok: true,
      options: {
        datasets: ["data.jsonl"],
        url: "http://localhost:8787",
        debias: true,
        concurrency: 8,
        seed: 1,
        bootstrap: 1000,
        limit: null,
        examinee: "auto",
      },
    });
    expect((r as { options: CliOptions }).options.variants.map((v) => [v.method, v.debias])).toEqual([["knockout", true]]);
  });

  it("--compare, --no-debias, --limit and the environment", () => {
    const r = parseCli(["eval", "d.jsonl", "--compare", "knockout,individual,pairwise", "--no-debias", "--limit", "40"], {
      KNOCKOUT_JUDGE_URL: "http://x",
      KNOCKOUT_JUDGE_KEY: "k",
    });
    expect(r).toMatchObject({ ok: true, options: { debias: false, limit: 40, url: "http://x", key: "k", batch: false } });
    expect((r as { options: CliOptions }).options.variants.map((v) => [v.method, v.debias])).toEqual([
      ["knockout", false],
      ["individual", false],
      ["pairwise", false],
    ]);
    expect(parseCli([...base, "--batch"])).toMatchObject({ ok: true, options: { batch: true } });
  });

  it("--panel and --panel-mode: a panel of judges for every question, cycle by default, its models checked only for repeats", () => {
    expect(parseCli(base)).toMatchObject({ ok: true, options: { panel: null } });
    expect(parseCli([...base, "--panel", "judge-a, judge-b"])).toMatchObject({
      ok: true,
      options: { panel: { models: ["judge-a", "judge-b"], mode: "cycle" } },
    });
    expect(parseCli([...base, "--panel", "a,b,c", "--panel-mode", "all"])).toMatchObject({ ok: true, options: { panel: { mode: "all" } } });
    const error = (argv: string[]) => (parseCli(argv) as { error: string }).error;
    expect(error([...base, "--panel", "a,b", "--panel-mode", "some"])).toBe("--panel-mode must be cycle or all");
    expect(error([...base, "--panel-mode", "all"])).toBe("--panel-mode needs --panel");
    expect(error([...base, "--panel", "a,b,a"])).toBe("--panel names a model twice");
    expect(error([...base, "--panel", " , "])).toBe("--panel needs at least one model");
  });

  it("says what is wrong", () => {
    const error = (argv: string[]) => (parseCli(argv) as { error: string }).error;
    expect(error(["grade", "d"])).toMatch(/unknown command "grade"/);
    expect(error(["eval"])).toMatch(/missing DATASET/);
    expect(error(["eval", "d.jsonl", "--key", "k"])).toMatch(/--url is required/);
    expect(error([...base, "--method", "swiss"])).toMatch(/unknown method "swiss"/);
    expect(error([...base, "--method", "knockout", "--compare", "individual"])).toMatch(/not both/);
    expect(error([...base, "--limit", "0"])).toMatch(/--limit must be an integer >= 1/);
    expect(error([...base, "--template", "poem"])).toMatch(/--template must be one of/);
    expect(error([...base, "--colour"])).toMatch(/colour/);
  });

  it("--compare takes variants, so the paper's Table 1 rows run in one go (knockout with and without debiasing were refused)", () => {
    const r = parseCli([
      ...base,
      "--compare",
      "individual,knockout:no-debias,knockout,knockout:logprobs,knockout:logprobs:extra=2N,knockout:adaptive",
    ]);
    if (!r.ok) throw new Error(r.error);
    expect(r.options.variants.map((v) => variantLabel(v))).toEqual([
      "individual",
      "knockout (no debiasing)",
      "knockout (debiased)",
      "knockout (debiased, logprobs)",
      "knockout (debiased, logprobs, extra 2N)",
      "knockout (adaptive debiasing)",
    ]);
    const error = (argv: string[]) => (parseCli(argv) as { error: string }).error;
    expect(error([...base, "--compare", "knockout,knockout"])).toMatch(/twice/);
    expect(error([...base, "--compare", "knockout:sideways"])).toMatch(/unknown modifier "sideways"/);
    expect(error([...base, "--compare", "individual:adaptive"])).toMatch(/does not apply/);
    expect(error([...base, "--compare", "pairwise:extra=N"])).toMatch(/knockout's/);
    expect(error([...base, "--compare", "knockout:extra=lots"])).toMatch(/extra= takes/);
    expect(error([...base, "--method", "knockout:logprobs"])).toMatch(/give variants to --compare/);
  });

  it("several datasets: each is a column of Table 1", () => {
    const r = parseCli(["eval", "a/mohler.jsonl", "b/zhen.jsonl", "--url", "http://x", "--key", "k"]);
    expect(r).toMatchObject({ ok: true, options: { datasets: ["a/mohler.jsonl", "b/zhen.jsonl"] } });
    expect((parseCli(["eval", "a.jsonl", "a.jsonl", "--url", "http://x", "--key", "k"]) as { error: string }).error).toMatch(/twice/);
    expect(datasetName("../shared/datasets/wmt_mqm_ted/mqm_ted_zhen.jsonl")).toBe("mqm_ted_zhen");
  });
});

describe("variants' request fields", () => {
  const variant = (spec: string) => {
    const r = parseVariant(spec, true);
    if (!r.ok) throw new Error(r.error);
    return r.variant;
  };

  it("set debias, the judge's score source and the extra calls for the question's N (at most 4N)", () => {
    expect(variantFields(variant("knockout:no-debias"), 10)).toEqual({ method: "knockout", debias: false });
    expect(variantFields(variant("knockout:logprobs:extra=N/2"), 11)).toEqual({
      method: "knockout",
      debias: true,
      judge: { scoreFrom: "logprobs" },
      extraCalls: 5,
    });
    expect(variantFields(variant("knockout:adaptive:extra=2N"), 10)).toEqual({ method: "knockout", debias: "adaptive", extraCalls: 20 });
    expect(variantFields(variant("knockout:extra=8"), 10)).toEqual({ method: "knockout", debias: true, extraCalls: 8 });
    expect(extraCallsFor(variant("knockout:extra=9N"), 10)).toBe(40);
    expect(variantFields(variant("knockout:text"), 10)).toEqual({ method: "knockout", debias: true, judge: { scoreFrom: "text" } });
  });

  it("go into the evaluation request", () => {
    const [q] = parseDataset(mohlerLike);
    const v = variant("knockout:logprobs:extra=N");
    const body = evaluationRequest(q, 0, {
      method: v.method,
      debias: v.debias,
      scoreFrom: v.scoreFrom,
      extraCalls: v.extraCalls,
      template: null,
      maxScore: null,
      seed: 1,
    });
    expect(body).toMatchObject({ method: "knockout", debias: true, judge: { scoreFrom: "logprobs" }, extraCalls: 2 });
  });
});

describe("Table 1", () => {
  it("methods as rows, datasets as columns, Overall the mean of the row (calls: the total)", () => {
    const report = (pearsonValue: number, judgeCalls: number) => {
      const r = buildReport([], { bootstrap: false, usage: { judgeCalls, promptTokens: 0, completionTokens: 0 } });
      return {
        ...r,
        questionLevel: { ...r.questionLevel, pooled: { ...r.questionLevel.pooled, pearson: { value: pearsonValue, ci: null } } },
      };
    };
    const text = formatTable1([
      { method: "individual", dataset: "mohler", report: report(0.5, 100) },
      { method: "individual", dataset: "zhen", report: report(0.2, 50) },
      { method: "knockout (debiased)", dataset: "mohler", report: report(0.6, 300) },
      { method: "knockout (debiased)", dataset: "zhen", report: report(0.3, 150) },
      { method: "knockout (no debiasing)", dataset: "mohler", report: report(0.55, 150) },
    ]);
    const lines = text.split("\n");
    expect(lines[1]).toMatch(/^\s+mohler\s+zhen\s+Overall$/);
    expect(lines[2]).toMatch(/^individual\s+0\.500\s+0\.200\s+0\.350$/);
    expect(lines[3]).toMatch(/^knockout \(debiased\)\s+0\.600\s+0\.300\s+0\.450$/);
    expect(lines[4]).toMatch(/^knockout \(no debiasing\)\s+0\.550\s+-\s+n\/a$/);
    expect(text).toMatch(/knockout \(debiased\)\s+300\s+150\s+450/);
  });
});

describe("the request pool", () => {
  it("keeps the order of the items and never has more than `concurrency` in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const done: number[] = [];
    const out = await pool(
      [5, 1, 4, 2, 3, 0],
      2,
      async (x) => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, x));
        inFlight--;
        return x * 10;
      },
      (n) => done.push(n),
    );
    expect(out).toEqual([50, 10, 40, 20, 30, 0]);
    expect(most).toBe(2);
    expect(done).toEqual([1, 2, 3, 4, 5, 6]);
  });
});
