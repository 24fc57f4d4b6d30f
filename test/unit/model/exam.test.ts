import { describe, expect, it } from "vitest";
import { examGames, examTotals } from "../../../src/model/exam";
import { parseBatchBody } from "../../../src/contract/index";

describe("exam totals (SciEx: an examinee's exam score is the sum of its question scores)", () => {
  it("sums per examinee, counts answered questions, skips unlabelled and unscored answers", () => {
    const totals = examTotals([
      { examinee: "ann", score: 3 },
      { examinee: "bob", score: 4.5 },
      { examinee: "ann", score: 2.5 },
      { examinee: null, score: 10 },
      { examinee: "bob", score: null },
      { examinee: "cy", score: 5.5 },
      { examinee: "dee", score: null },
    ]);
    expect(totals).toEqual([
      { examinee: "ann", total: 5.5, questionsAnswered: 2 },
      { examinee: "cy", total: 5.5, questionsAnswered: 1 },
      { examinee: "bob", total: 4.5, questionsAnswered: 1 },
      { examinee: "dee", total: 0, questionsAnswered: 0 },
    ]);
  });
});

describe("exam games (seeds/002: a match between labelled answers is a game between examinees)", () => {
  it("decides by match score, draws on equal scores, tags the question as the round, skips what is no game", () => {
    const games = examGames([
      { question: 0, examineeA: "x", examineeB: "y", scoreA: 4, scoreB: 3 },
      { question: 0, examineeA: "y", examineeB: "z", scoreA: 2, scoreB: 2 },
      { question: 1, examineeA: "z", examineeB: "x", scoreA: 1, scoreB: 5 },
      { question: 1, examineeA: "x", examineeB: null, scoreA: 1, scoreB: 5 },
      { question: 1, examineeA: "x", examineeB: "x", scoreA: 1, scoreB: 5 },
      { question: 2, examineeA: "x", examineeB: "y", scoreA: 1, scoreB: null },
    ]);
    expect(games).toEqual([
      { a: "x", b: "y", outcome: 1, round: 0 },
      { a: "y", b: "z", outcome: 0.5, round: 0 },
      { a: "z", b: "x", outcome: 0, round: 1 },
    ]);
  });
});

describe("batch body", () => {
  const answers = [
    { id: "a", text: "one", examinee: "ann" },
    { id: "b", text: "two", examinee: "bob" },
  ];

  it("lays each item over the defaults; an item's own fields win", () => {
    const r = parseBatchBody({
      defaults: { method: "individual", maxScore: 5 },
      items: [
        { question: "Q1", answers },
        { question: "Q2", answers, maxScore: 8 },
      ],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.items.map((i) => [i.question, i.method, i.maxScore, i.debias])).toEqual([
      ["Q1", "individual", 5, true],
      ["Q2", "individual", 8, true],
    ]);
    expect(r.value.items[0].answers[0].examinee).toBe("ann");
  });

  it("reports every item's errors with its full path", () => {
    const r = parseBatchBody({
      items: [
        { question: "Q", answers },
        { question: "Q", answers: [answers[0], { id: "", text: "x" }] },
        7,
        { question: "Q", answers, colour: 1, method: "knockout", rubric: { criteria: [{ name: "x" }] } },
      ],
    });
    expect(r).toEqual({
      ok: false,
      errors: [
        { field: "items[1].answers[1].id", reason: "must not be empty" },
        { field: "items[2]", reason: "must be an object (the body of an evaluation)" },
        { field: "items[3].colour", reason: "unknown field" },
        { field: "items[3].rubric", reason: expect.stringMatching(/method "individual"/) },
      ],
    });
    // bad defaults are reported once, not once per item
    expect(
      parseBatchBody({
        defaults: { template: "klingon" },
        items: [
          { question: "Q", answers },
          { question: "Q", answers },
        ],
      }),
    ).toEqual({
      ok: false,
      errors: [{ field: "defaults.template", reason: expect.any(String) }],
    });
    // cross-field rules apply to the merged item
    expect(parseBatchBody({ defaults: { rubric: { criteria: [{ name: "x" }] } }, items: [{ question: "Q", answers }] })).toEqual({
      ok: false,
      errors: [{ field: "items[0].rubric", reason: expect.stringMatching(/method "individual"/) }],
    });
  });

  it("limits a batch to 1000 questions and needs at least one", () => {
    const many = parseBatchBody({ items: Array.from({ length: 1001 }, () => ({ question: "Q", answers })) });
    expect(many).toEqual({ ok: false, errors: [{ field: "items", reason: expect.stringMatching(/at most 1000 questions/) }] });
    expect(parseBatchBody({ items: [] })).toEqual({ ok: false, errors: [{ field: "items", reason: "needs at least 1 item" }] });
    expect(parseBatchBody({ items: [{ question: "Q", answers }], extra: 1 })).toEqual({
      ok: false,
      errors: [{ field: "extra", reason: "unknown field" }],
    });
  });
});
