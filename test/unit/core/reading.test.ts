import { describe, expect, it } from "vitest";
import { meanReading, reading, readingTable } from "../../../src/core/reading";
import { clampedMean, type ReviewSubject, wrongProbabilities } from "../../../src/core/review";
import { normalPdf } from "../../../src/ratings/gaussian";

// Issue 26: what the service reads of a judge's belief, as the review model now takes it.

/** The expectation of weights exp(-(v - c)^2 / 2 tau^2) on the integers 0..5, by hand. */
function onIntegers(c: number, tau: number): number {
  const w = [0, 1, 2, 3, 4, 5].map((v) => Math.exp(-((v - c) ** 2) / (2 * tau * tau)));
  return w.reduce((s, x, v) => s + x * v, 0) / w.reduce((s, x) => s + x, 0);
}

describe("reading: the held expectation of a belief", () => {
  it("in the middle of the scale, between two integers, is the belief itself", () => {
    expect(reading(2.5, 0.6, 5, 0.5)).toBeCloseTo(2.5, 12);
  });

  it("at the top, with the judge a point wide, is the written 5's cell edge: the expectation 4.48 is held up to 4.75", () => {
    expect(onIntegers(5, 1)).toBeCloseTo(4.48, 2);
    expect(reading(5, 1, 5, 0.5)).toBe(4.75);
    // a belief past the top is the top's
    expect(reading(6.3, 1, 5, 0.5)).toBe(4.75);
  });

  it("is the expectation where it lies inside the written score's cell", () => {
    // belief 4.2: written 4 (cell 3.75..4.25); the expectation on the integers lies inside it
    const e = onIntegers(4.2, 0.6);
    expect(e).toBeGreaterThan(3.75);
    expect(e).toBeLessThan(4.25);
    expect(reading(4.2, 0.6, 5, 0.5)).toBeCloseTo(e, 12);
  });

  it("on a 100-point scale, the expectation of a normal truncated to the scale, held to the cell", () => {
    // at the top: 100 - tau * phi(0) / (1/2) = 100 - 7.98; written 100, cell 99.5..100
    expect(reading(100, 10, 100, 1)).toBe(99.5);
    // inside: belief 60.2, written 60; far from both ends the expectation is the belief, held to 60.5
    expect(reading(60.2, 10, 100, 1)).toBeCloseTo(60.2, 2);
    // near the bottom the expectation is pulled up past the written 3's cell (2.5..3.5): held at its edge
    const lo = (0 - 3) / 10;
    expect(3 + (10 * (normalPdf(lo) - normalPdf(9.7))) / (1 - 0.3821)).toBeGreaterThan(3.5);
    expect(reading(3, 10, 100, 1)).toBe(3.5);
  });

  it("without a width is the written score's own cell clamp of the belief", () => {
    expect(reading(3.3, 0, 5, 0.5)).toBe(3.3);
  });
});

describe("readingTable and meanReading", () => {
  it("the table is `reading` to within 0.005 away from the rounding steps, where `reading` jumps", () => {
    const read = readingTable(0.8, 5, 0.5);
    let checked = 0;
    for (let i = 0; i <= 2000; i++) {
      const b = -2 + (9 * i) / 2000;
      const nearJump = Math.abs(((b + 0.25) / 0.5) % 1) < 0.05 || Math.abs(((b + 0.25) / 0.5) % 1) > 0.95;
      if (nearJump) continue;
      expect(Math.abs(read(b) - reading(b, 0.8, 5, 0.5))).toBeLessThan(0.005);
      checked++;
    }
    expect(checked).toBeGreaterThan(1500);
  });

  it("the mean reading of a true full mark sits below the written scores' clamped mean: the model expects less at the top", () => {
    const read = readingTable(1, 5, 0.5);
    const m = meanReading(5, 1, read);
    expect(m).toBeLessThan(clampedMean(5, 1, 5) - 0.1);
    expect(m).toBeGreaterThan(4);
    // mid-scale, a symmetric belief reads as itself on average
    expect(meanReading(2.5, 0.5, read)).toBeCloseTo(2.5, 2);
    // without noise between calls, the mean reading is the reading
    expect(meanReading(4.2, 0, read)).toBe(read(4.2));
  });
});

describe("wrongProbabilities reads the judge's probabilities at the top", () => {
  const shown = { first: 0.5, second: 0.5, alone: 0 };
  const s = (id: string, score: number, se: number): ReviewSubject => ({ id, score, se, sigma: 1, shown });
  // an exam's grades: a crowd the judge read at 4.5 to 4.7 (full marks, read low), a few weaker ones
  const crowd = Array.from({ length: 20 }, (_, i) => s(`c${i}`, 4.5 + (i % 3) * 0.1, 0.25));
  const weak = [s("w1", 1, 0.3), s("w2", 1.5, 0.3), s("w3", 2.5, 0.3), s("w4", 3.2, 0.3)];
  it("an answer read 4.1 twice among them is likelier a true full mark, so a wrong grade, when the judgments are expected scores", () => {
    const all = [...crowd, ...weak, s("odd", 4.1, 0.5)];
    const written = wrongProbabilities(all, { maxScore: 5, positionBias: 0, tolerance: 0.5 });
    const expected = wrongProbabilities(all, { maxScore: 5, positionBias: 0, tolerance: 0.5, judgeSpread: 1 });
    expect(expected.get("odd")!).toBeGreaterThan(written.get("odd")! + 0.05);
    // the crowd itself stays sure either way
    expect(expected.get("c0")!).toBeLessThan(0.01);
  });
});
