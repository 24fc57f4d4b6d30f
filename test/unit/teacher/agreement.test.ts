import { describe, expect, it } from "vitest";
import { agreement, level, quadraticWeightedKappa } from "../../../src/teacher/agreement";

const exam = { maxScore: 10, step: 0.5 };

describe("agreement of the judge with the teacher", () => {
  it("matches values computed by hand", () => {
    const a = agreement(
      [
        { judge: 2, teacher: 2.5 },
        { judge: 4, teacher: 4 },
        { judge: 6.2, teacher: 6 },
      ],
      exam,
    )!;
    expect(a.n).toBe(3);
    // x = [2, 4, 6.2], y = [2.5, 4, 6]: sum dx dy = 7.36667, sum dx^2 = 8.82667, sum dy^2 = 6.16667
    expect(a.pearson).toBeCloseTo(7.366667 / Math.sqrt(8.826667 * 6.166667), 5);
    expect(a.spearman).toBe(1);
    expect(a.mae).toBeCloseTo(0.7 / 3, 12);
    // levels 4, 8, 12 against 5, 8, 12
    expect(a.exact).toBeCloseTo(2 / 3, 12);
    // observed sum w O = 1; expected sum w E = (81 + 25 + 65) / 3 = 57
    expect(a.qwk).toBeCloseTo(1 - 1 / 57, 12);
  });

  it("is null below two graded answers; undefined correlations are null, not NaN", () => {
    expect(agreement([], exam)).toBeNull();
    expect(agreement([{ judge: 3, teacher: 3 }], exam)).toBeNull();
    const flat = agreement(
      [
        { judge: 3, teacher: 3 },
        { judge: 3, teacher: 3 },
      ],
      exam,
    )!;
    expect(flat.pearson).toBeNull();
    expect(flat.spearman).toBeNull();
    expect(flat.qwk).toBeNull();
    expect(flat.exact).toBe(1);
    expect(flat.mae).toBe(0);
  });

  it("quadratic weighted kappa: 1 for perfect agreement, 0.8 for a small hand example, negative when reversed", () => {
    expect(quadraticWeightedKappa([0, 1, 2], [0, 1, 2], 3)).toBe(1);
    // O: one miss by 1; E from marginals [1,1,1] x [1,0,2] / 3 weighs 5
    expect(quadraticWeightedKappa([0, 1, 2], [0, 2, 2], 3)).toBeCloseTo(0.8, 12);
    expect(quadraticWeightedKappa([0, 1, 2], [2, 1, 0], 3)!).toBeLessThan(0);
  });

  it("rounds scores to the scale's step, halves up, within the scale", () => {
    expect(level(4.24, exam)).toBe(8);
    expect(level(4.25, exam)).toBe(9);
    expect(level(10, exam)).toBe(20);
    expect(level(-1, exam)).toBe(0);
    expect(level(57.5, { maxScore: 100, step: 1 })).toBe(58);
  });
});
