import { describe, expect, it } from "vitest";
import { seededRandom } from "../../../src/random/seeded";
import {
  BLEND_FROM,
  BLEND_PRIOR,
  calibrate,
  calibrationMethod,
  DISAGREEING_SHARE,
  fitCalibration,
  MEDIAN_FROM,
  outsideCalibration,
  REACH_SHARE,
} from "../../../src/teacher/calibration";

const four = [
  { judge: 1, teacher: 2 },
  { judge: 2, teacher: 1 },
  { judge: 3, teacher: 4 },
  { judge: 4, teacher: 5 },
];

describe("isotonic calibration of the judge's scores to the teacher's grades", () => {
  it("pools adjacent violators and interpolates between knots, flat outside", () => {
    const fit = fitCalibration(four, { method: "isotonic" })!;
    expect(fit.method).toBe("isotonic");
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

  it("gives equal judge scores one grade (their mean)", () => {
    const fit = fitCalibration(
      [
        { judge: 3, teacher: 2 },
        { judge: 3, teacher: 4 },
        { judge: 5, teacher: 5 },
      ],
      { method: "isotonic" },
    )!;
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
      const fit = fitCalibration(points, { method: "isotonic" })!;
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

describe("the other maps, by hand", () => {
  // four: judge mean 2.5, grade mean 3; Sxx = 5, Sxy = (-1.5)(-1) + (-0.5)(-2) + (0.5)(1) + (1.5)(2) = 6
  it("identity: the judge's score as it is", () => {
    const fit = fitCalibration(four, { method: "identity" })!;
    expect([0, 2.2, 7].map((x) => calibrate(fit, x))).toEqual([0, 2.2, 7]);
  });

  it("shift: the judge's score plus the mean of grade - judge score, held to the scale", () => {
    // equal differences: nothing to be unsure of, the shift in full
    const even = [1, 2, 3].map((judge) => ({ judge, teacher: judge + 0.5 }));
    const fit = fitCalibration(even, { method: "shift", bounds: [0, 5] })!;
    expect(calibrate(fit, 1)).toBeCloseTo(1.5, 12);
    expect(calibrate(fit, 4.8)).toBe(5);
    expect(calibrate(fit, 0)).toBeCloseTo(0.5, 12);
  });

  it("shift: drawn towards 0 by d^2 / (d^2 + s^2 / n) when the differences spread", () => {
    // four: differences 1, -1, 1, 1: d = 0.5, s^2 = 1, n = 4: 0.5 * 0.25 / (0.25 + 0.25) = 0.25
    const fit = fitCalibration(four, { method: "shift" })!;
    expect(calibrate(fit, 2)).toBeCloseTo(2.25, 12);
  });

  it("linear: least squares, slope Sxy / Sxx = 6 / 5; a falling line becomes the shift", () => {
    const fit = fitCalibration(four, { method: "linear" })!;
    expect(fit.slope).toBeCloseTo(1.2, 12);
    expect(calibrate(fit, 2.5)).toBeCloseTo(3, 12);
    expect(calibrate(fit, 0)).toBeCloseTo(0, 12);
    const falling = fitCalibration(
      [
        { judge: 1, teacher: 4 },
        { judge: 3, teacher: 2 },
      ],
      { method: "linear" },
    )!;
    expect(falling.slope).toBe(1);
    expect(calibrate(falling, 2)).toBeCloseTo(3, 12);
  });

  it("blend: the line's slope drawn towards 1 by n / (n + BLEND_PRIOR), through the judge's mean shifted", () => {
    const fit = fitCalibration(four, { method: "blend" })!;
    const w = 4 / (4 + BLEND_PRIOR);
    expect(fit.slope).toBeCloseTo(w * 1.2 + (1 - w), 12);
    expect(calibrate(fit, 2.5)).toBeCloseTo(2.75, 12);
  });

  it("needs two grades: with one there is no calibration", () => {
    expect(fitCalibration([{ judge: 1, teacher: 2 }])).toBeNull();
    expect(fitCalibration(four.slice(0, 2))).not.toBeNull();
  });
});

describe("the map chosen by the number of grades", () => {
  it("the shift below MEDIAN_FROM (4) grades, a quarter of it when they disagree in direction; the median from 4; the blend from BLEND_FROM", () => {
    const at = (differences: number[]) => differences.map((d, i) => ({ judge: i, teacher: i + d }));
    expect(calibrationMethod(at([0.5]))).toBe("identity");
    expect(calibrationMethod(at([0.5, 0.2]))).toBe("shift");
    expect(calibrationMethod(at([0.5, -0.2, 0.3]))).toBe("shift");
    expect(calibrationMethod(at([0.5, -0.2, 0.3, 0.1]))).toBe("median");
    expect(MEDIAN_FROM).toBe(4);
    expect(calibrationMethod(at(Array.from({ length: BLEND_FROM - 1 }, () => 0.1)))).toBe("median");
    expect(calibrationMethod(at(Array.from({ length: BLEND_FROM }, () => 0.1)))).toBe("blend");
    // agreeing: the shrunk mean shift whole; disagreeing: DISAGREEING_SHARE of it, unless asked for by name
    const agreeing = at([-0.5, -0.2, -1]);
    expect(fitCalibration(agreeing)!.intercept).toBeCloseTo(fitCalibration(agreeing, { method: "shift" })!.intercept, 12);
    const disagreeing = at([0.9, -0.1, 0.6]);
    const plain = fitCalibration(disagreeing, { method: "shift" })!.intercept;
    expect(plain).toBeGreaterThan(0);
    expect(fitCalibration(disagreeing)!.intercept).toBeCloseTo(DISAGREEING_SHARE * plain, 12);
    expect(DISAGREEING_SHARE).toBe(0.25);
  });

  it("median: the median difference, drawn towards 0 by its median absolute deviation; one far-off grade does not drag it", () => {
    const at = (differences: number[]) => differences.map((d, i) => ({ judge: i, teacher: i + d }));
    // differences 0.4, 0.5, 0.6, 3: median 0.55, deviations 0.15 0.05 0.05 2.45 -> mad 1.4826 * 0.1; the
    // median's variance is pi / 2 times the mean's
    const fit = fitCalibration(at([0.4, 0.6, 3, 0.5]), { method: "median" })!;
    const m = 0.55;
    const v = ((Math.PI / 2) * (1.4826 * 0.1) ** 2) / 4;
    expect(fit.intercept).toBeCloseTo((m * m * m) / (m * m + v), 12);
    expect(fit.slope).toBe(1);
    // the mean shift is pulled by the 3
    expect(fitCalibration(at([0.4, 0.6, 3, 0.5]), { method: "shift" })!.intercept).toBeGreaterThan(0.8);
    // all the same: the median whole
    expect(fitCalibration(at([0.3, 0.3, 0.3, 0.3]), { method: "median" })!.intercept).toBeCloseTo(0.3, 12);
    // centred on 0: nothing
    expect(fitCalibration(at([-0.5, 0, 0, 0.5]), { method: "median" })!.intercept).toBe(0);
  });

  it("the chosen shift fades with distance from the graded answers' judge scores; a shift asked for by name does not", () => {
    // docs/api.md's example: grades 5 and 4.5 on judge scores 4.4 and 4.0 on 0-5
    const graded = [
      { judge: 4.4, teacher: 5 },
      { judge: 4.0, teacher: 4.5 },
    ];
    const fit = fitCalibration(graded, { bounds: [0, 5] })!;
    const shift = (0.55 * 0.55 * 0.55) / (0.55 * 0.55 + 0.005 / 2);
    expect(fit.method).toBe("shift");
    expect(fit.reach).toBeCloseTo(REACH_SHARE * 5, 12);
    expect(fit.intercept).toBeCloseTo(shift, 12);
    // at a graded answer's judge score the whole shift, between them too (nearest is what counts)
    expect(calibrate(fit, 4.0)).toBeCloseTo(4.0 + shift, 12);
    expect(calibrate(fit, 4.2)).toBeCloseTo(4.2 + shift * Math.exp(-((0.2 / 0.75) ** 2)), 12);
    expect(calibrate(fit, 2.9)).toBeCloseTo(2.9 + shift * Math.exp(-((1.1 / 0.75) ** 2)), 12);
    expect(calibrate(fit, 2.9)).toBeCloseTo(2.9635, 4);
    // far away: next to nothing; held to the scale at the top
    expect(calibrate(fit, 0.5) - 0.5).toBeLessThan(1e-6);
    expect(calibrate(fit, 4.9)).toBe(5);
    // by name: the plain shift everywhere; without bounds there is no scale to measure the reach on
    const plain = fitCalibration(graded, { bounds: [0, 5], method: "shift" })!;
    expect(plain.reach).toBe(0);
    expect(calibrate(plain, 2.9)).toBeCloseTo(2.9 + shift, 12);
    expect(fitCalibration(graded)!.reach).toBe(0);
    // the median from 4 grades fades too; the blend (a batch's pool) does not
    const fourGraded = [3, 3.5, 4, 4.5].map((j) => ({ judge: j, teacher: j + 0.5 }));
    const median = fitCalibration(fourGraded, { bounds: [0, 5] })!;
    expect(median.method).toBe("median");
    expect(calibrate(median, 1)).toBeCloseTo(1 + 0.5 * Math.exp(-((2 / 0.75) ** 2)), 12);
    const pool = Array.from({ length: BLEND_FROM }, (_, i) => ({ judge: (i % 10) / 2, teacher: (i % 10) / 2 + 0.3 }));
    expect(fitCalibration(pool, { bounds: [0, 5] })!.reach).toBe(0);
  });

  it("on grades that are the judge's score plus noise and a shift, the chosen map errs less than the raw scores at k = 2 to 20", () => {
    // the bench's situation in miniature: the truth t, the judge t + a shift + noise of its own
    const random = seededRandom(11).next;
    const gauss = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    for (const k of [2, 3, 5, 8, 12, 20]) {
      let raw = 0;
      let chosen = 0;
      for (let t = 0; t < 300; t++) {
        const answers = Array.from({ length: 30 }, () => {
          const truth = 5 * random();
          return { truth, judge: truth - 0.4 + 0.5 * gauss() };
        });
        const fit = fitCalibration(
          answers.slice(0, k).map((a) => ({ judge: a.judge, teacher: a.truth })),
          { bounds: [0, 5] },
        )!;
        for (const a of answers.slice(k)) {
          raw += Math.abs(a.judge - a.truth);
          chosen += Math.abs(calibrate(fit, a.judge) - a.truth);
        }
      }
      expect(chosen).toBeLessThan(raw);
    }
  });
});
