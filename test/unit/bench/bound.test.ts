import { describe, expect, it } from "vitest";
// @ts-expect-error the bench is plain JavaScript without types
import { averagingBound } from "../../../bench/bound.mjs";

// A dataset's questions share a scale, as the bench pools them: two exam questions graded 0..5.
const questions = [
  { sim: { lo: 0, hi: 5 }, answers: [0, 1, 2.5, 3, 4, 4.5, 5, 5].map((human) => ({ human })) },
  { sim: { lo: 0, hi: 5 }, answers: [0.5, 2, 3.5, 4, 5].map((human) => ({ human })) },
];
// translations scored -25..0 (MQM), which judge-sim places on 0..100
const translations = [{ sim: { lo: -25, hi: 0 }, answers: [-25, -12, -6, -5, -1, 0].map((human) => ({ human })) }];

describe("the quality bench's averaging bound", () => {
  it("is a perfect correlation when the judge makes no error", () => {
    expect(averagingBound(questions, 1, { noise: 0 })).toBeCloseTo(1, 12);
    expect(averagingBound(translations, 1, { noise: 0 })).toBeCloseTo(1, 12);
  });

  it("rises with the judgments per answer, also between whole numbers", () => {
    const at = (k: number) => averagingBound(questions, k, { noise: 0.2 }, 200);
    expect(at(2)).toBeGreaterThan(at(1));
    expect(at(2.5)).toBeGreaterThan(at(2));
    expect(at(8)).toBeGreaterThan(at(3));
  });

  it("stays under the floor an error of each answer's own sets, however many judgments", () => {
    const floor = averagingBound(questions, 1, { noise: 0, answerNoise: 0.15 }, 200);
    expect(floor).toBeLessThan(0.99);
    expect(averagingBound(questions, 64, { noise: 0.05, answerNoise: 0.15 }, 200)).toBeLessThan(floor + 0.01);
  });

  it("refuses fewer than one judgment per answer", () => {
    expect(() => averagingBound(questions, 0.5)).toThrow(/at least 1/);
  });
});
