import { describe, expect, it } from "vitest";
import { defaultGradeStep, gradeStepProblem } from "../../../src/contract/grade-step";
import { finalGrade, roundToStep } from "../../../src/teacher/final-grade";

const ten = { maxScore: 10, step: 0.5 };

describe("roundToStep", () => {
  it("rounds to the nearest multiple of the step", () => {
    expect(roundToStep(4.2, ten)).toBe(4);
    expect(roundToStep(4.3, ten)).toBe(4.5);
    expect(roundToStep(4.74, ten)).toBe(4.5);
    expect(roundToStep(4.76, ten)).toBe(5);
    expect(roundToStep(7, ten)).toBe(7);
  });

  it("rounds halves up, also where binary fractions fall short of the half", () => {
    expect(roundToStep(2.25, ten)).toBe(2.5);
    expect(roundToStep(2.75, ten)).toBe(3);
    expect(roundToStep(0.35, { maxScore: 1, step: 0.1 })).toBe(0.4);
    expect(roundToStep(0.45, { maxScore: 1, step: 0.1 })).toBe(0.5);
    expect(roundToStep(50.5, { maxScore: 100, step: 1 })).toBe(51);
    expect(roundToStep(1.125, { maxScore: 10, step: 0.25 })).toBe(1.25);
  });

  it("gives multiples without binary noise", () => {
    expect(roundToStep(0.31, { maxScore: 1, step: 0.1 })).toBe(0.3);
    expect(roundToStep(0.7, { maxScore: 1, step: 0.1 })).toBe(0.7);
    expect(roundToStep(2.9, { maxScore: 10, step: 0.2 })).toBe(3);
  });

  it("keeps grades on 0..maxScore", () => {
    expect(roundToStep(-0.4, ten)).toBe(0);
    expect(roundToStep(-3, ten)).toBe(0);
    expect(roundToStep(10.2, ten)).toBe(10);
    expect(roundToStep(12, ten)).toBe(10);
    expect(roundToStep(0, ten)).toBe(0);
    expect(roundToStep(10, ten)).toBe(10);
  });

  it("keeps full marks on a step that does not divide the scale, and the nearest grade below it", () => {
    const thirds = { maxScore: 10, step: 3 };
    expect(roundToStep(10, thirds)).toBe(10);
    expect(roundToStep(9.8, thirds)).toBe(10);
    // 9.5 is as near 9 as 10: halves up
    expect(roundToStep(9.5, thirds)).toBe(10);
    expect(roundToStep(9.4, thirds)).toBe(9);
    expect(roundToStep(7.6, thirds)).toBe(9);
    expect(roundToStep(0.9, { maxScore: 1.5, step: 1 })).toBe(1);
    expect(roundToStep(1.3, { maxScore: 1.5, step: 1 })).toBe(1.5);
  });

  it("rounds on the finest step the contract takes without drifting", () => {
    const fine = { maxScore: 10_000, step: 10 };
    expect(roundToStep(4_995, fine)).toBe(5_000);
    const finest = { maxScore: 1, step: 0.001 };
    expect(roundToStep(0.1234, finest)).toBe(0.123);
    expect(roundToStep(0.1235, finest)).toBe(0.124);
  });
});

describe("finalGrade", () => {
  it("takes the teacher's grade first, rounded too", () => {
    expect(finalGrade({ teacherScore: 6.3, calibrated: 2, score: 9 }, ten)).toEqual({ finalScore: 6.5, finalFrom: "teacher" });
    // a teacher's 0 is a grade, not its absence
    expect(finalGrade({ teacherScore: 0, calibrated: 2, score: 9 }, ten)).toEqual({ finalScore: 0, finalFrom: "teacher" });
  });

  it("takes the calibrated score without a teacher's grade", () => {
    expect(finalGrade({ teacherScore: null, calibrated: 3.76, score: 9 }, ten)).toEqual({ finalScore: 4, finalFrom: "calibrated" });
    expect(finalGrade({ teacherScore: null, calibrated: 0, score: 9 }, ten)).toEqual({ finalScore: 0, finalFrom: "calibrated" });
  });

  it("takes the judge's score without either", () => {
    expect(finalGrade({ teacherScore: null, calibrated: null, score: 8.25 }, ten)).toEqual({ finalScore: 8.5, finalFrom: "judge" });
    expect(finalGrade({ teacherScore: null, calibrated: null, score: 11 }, ten)).toEqual({ finalScore: 10, finalFrom: "judge" });
  });

  it("has none for an answer nobody scored", () => {
    expect(finalGrade({ teacherScore: null, calibrated: null, score: null }, ten)).toEqual({ finalScore: null, finalFrom: null });
  });
});

describe("grade steps", () => {
  it("defaults to half points for exams, whole points for translation", () => {
    expect(defaultGradeStep("exam", 10)).toBe(0.5);
    expect(defaultGradeStep("exam-de", 5)).toBe(0.5);
    expect(defaultGradeStep("translation", 100)).toBe(1);
    // a scale smaller than the template's step is cut in tenths
    expect(defaultGradeStep("exam", 0.2)).toBeCloseTo(0.02);
  });

  it("refuses steps that are not positive, exceed the scale or cut it finer than a thousandth", () => {
    expect(gradeStepProblem(0.5, 10)).toBeNull();
    expect(gradeStepProblem(10, 10)).toBeNull();
    expect(gradeStepProblem(0.01, 10)).toBeNull();
    expect(gradeStepProblem(0, 10)).toMatch(/greater than 0/);
    expect(gradeStepProblem(-1, 10)).toMatch(/greater than 0/);
    expect(gradeStepProblem(Number.NaN, 10)).toMatch(/greater than 0/);
    expect(gradeStepProblem(11, 10)).toMatch(/at most maxScore \(10\)/);
    expect(gradeStepProblem(0.001, 10)).toMatch(/at least maxScore \/ 1000/);
  });
});
