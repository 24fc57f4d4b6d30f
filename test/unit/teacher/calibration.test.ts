import { describe, expect, it } from "vitest";
import { calibrate, fitCalibration, outsideCalibration } from "../../../src/teacher/calibration";
import { seededRandom } from "../../../src/random/seeded";

describe("isotonic calibration of the judge's scores to the teacher's grades", () => {
  it("pools adjacent violators and interpolates between knots, flat outside", () => {
    const fit = fitCalibration([
      { judge: 1, teacher: 2 },
      { judge: 2, teacher: 1 },
      { judge: 3, teacher: 4 },
      { judge: 4, teacher: 5 },
    ])!;
    expect(fit.knots).toEqual([
      [1, 1.5],
      [2, 1.5],
      [3, 4],
      [4, 5],
    ]);
    expect(fit.range).toEqual([1, 4]);
    expect(fit.n).toBe(4);
    expect(calibrate(fit, 2.5)).toBeCloseTo(2.75, 12);
    expect(calibrate(fit, 0)).toBe(1.5);
    expect(calibrate(fit, 9)).toBe(5);
    expect(outsideCalibration(fit, 0.5)).toBe(true);
    expect(outsideCalibration(fit, 4)).toBe(false);
    expect(outsideCalibration(fit, 4.01)).toBe(true);
  });

  it("gives equal judge scores one grade (their mean) and needs three graded answers", () => {
    expect(
      fitCalibration([
        { judge: 1, teacher: 1 },
        { judge: 2, teacher: 2 },
      ]),
    ).toBeNull();
    const fit = fitCalibration([
      { judge: 3, teacher: 2 },
      { judge: 3, teacher: 4 },
      { judge: 5, teacher: 5 },
    ])!;
    expect(fit.knots).toEqual([
      [3, 3],
      [5, 5],
    ]);
  });

  it("is monotone and never further from the grades than the identity, on random data (least squares)", () => {
    const random = seededRandom(7).next;
    for (let t = 0; t < 200; t++) {
      const points = Array.from({ length: 3 + Math.floor(random() * 12) }, () => {
        const judge = Math.round(random() * 20) / 2;
        return { judge, teacher: Math.min(10, Math.max(0, Math.round((judge * 0.7 + 2 + (random() - 0.5) * 3) * 2) / 2)) };
      });
      const fit = fitCalibration(points)!;
      for (let i = 1; i < fit.knots.length; i++) expect(fit.knots[i][1]).toBeGreaterThanOrEqual(fit.knots[i - 1][1] - 1e-12);
      const sse = (f: (x: number) => number) => points.reduce((s, p) => s + (f(p.judge) - p.teacher) ** 2, 0);
      // the isotonic fit is the least-squares monotone map: no worse than any other, the identity included
      expect(sse((x) => calibrate(fit, x))).toBeLessThanOrEqual(sse((x) => x) + 1e-9);
      expect(sse((x) => calibrate(fit, x))).toBeLessThanOrEqual(
        sse(() => points.reduce((s, p) => s + p.teacher, 0) / points.length) + 1e-9,
      );
    }
  });
});
