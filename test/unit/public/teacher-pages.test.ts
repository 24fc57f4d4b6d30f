import { describe, expect, it } from "vitest";
// @ts-expect-error plain JS module of the web front
import { collectionRequest } from "../../../public/js/collections.js";
// @ts-expect-error plain JS module of the web front
import { formField } from "../../../public/js/form-fields.js";
// @ts-expect-error plain JS module of the web front
import { reviewCsv, reviewOrder } from "../../../public/js/review.js";

describe("the review page's order and CSV", () => {
  const answers = [
    { id: "a", rank: 1, score: 8, interval: [7, 9] as [number, number], review: null, teacherScore: null, calibrated: null, text: "x" },
    {
      id: "b",
      rank: 2,
      score: 6,
      interval: [3, 9] as [number, number],
      review: { flagged: false, probability: 0.2, reasons: [] },
      teacherScore: 5,
      calibrated: 5.5,
      finalScore: 5,
      finalFrom: "teacher",
      releasedAt: "2026-11-24T16:20:00.000Z",
      feedback: { text: "+1 for the example; =HYPERLINK is not an answer" },
      text: "=SUM(A1)",
    },
    {
      id: "c",
      rank: 3,
      score: 4,
      interval: [3.5, 4.5] as [number, number],
      review: { flagged: true, probability: 0.6, reasons: ["tie"] },
      teacherScore: null,
      calibrated: null,
    },
    {
      id: "d",
      rank: 4,
      score: 2,
      interval: [1, 3] as [number, number],
      review: { flagged: false, probability: 0.2, reasons: ["tie", "single-judgment"] },
      teacherScore: null,
      calibrated: null,
    },
  ];

  it("puts the answers most likely graded wrong first, then the widest intervals, then by rank; reasons do not order", () => {
    expect(reviewOrder(answers).map((a: { id: string }) => a.id)).toEqual(["c", "b", "d", "a"]);
  });

  it("writes judge score, interval, calibrated score, teacher grade, final grade, release, review probability, reasons, feedback and text, formulas neutralised", () => {
    const lines = reviewCsv(answers).trim().split("\r\n");
    expect(lines[0]).toBe(
      "id,rank,judge_score,interval_low,interval_high,calibrated,teacher_score,final_score,final_from,released_at,review_probability,review,feedback,text",
    );
    // an answer with no judgment has no review: its probability is empty, not 0
    expect(lines[1]).toBe("a,1,8,7,9,,,,,,,,,x");
    expect(lines[2]).toBe(
      `b,2,6,3,9,5.5,5,5,teacher,2026-11-24T16:20:00.000Z,0.2,,"'+1 for the example; =HYPERLINK is not an answer","'=SUM(A1)"`,
    );
    expect(lines[3]).toBe("c,3,4,3.5,4.5,,,,,,0.6,tie,,");
    expect(lines[4]).toBe("d,4,2,1,3,,,,,,0.2,tie single-judgment,,");
  });
});

describe("the forms' fields by the API's names", () => {
  it("names the grade form's labels and the answer a refusal is about", () => {
    expect(formField("maxScore")).toEqual({ label: "Points", id: "max-score" });
    expect(formField("answers[2].text")).toEqual({ label: "Answer 3", answer: 2 });
    expect(formField("question")).toMatchObject({ label: "Question" });
    expect(formField("somethingNew")).toEqual({ label: "somethingNew" });
  });

  it("builds a collection's request from the page's form", () => {
    expect(
      collectionRequest({
        question: "Q",
        reference: "",
        maxScore: "5",
        method: "knockout",
        maxAnswers: "30",
        deadline: "",
        origins: "https://a.example/\nhttps://b.example, ",
      }),
    ).toEqual({
      question: "Q",
      maxScore: 5,
      method: "knockout",
      allowedOrigins: ["https://a.example", "https://b.example"],
      closing: { maxAnswers: 30 },
    });
  });
});
