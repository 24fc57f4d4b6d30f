import { describe, expect, it } from "vitest";
import { answerConfidence, type JudgedMatch } from "../../../src/core/confidence";
import { clampedMean, flagged, type ReviewSubject, SHAPED_PRIOR_FROM, shapedPrior, wrongProbabilities } from "../../../src/core/review";
import { normalCdf } from "../../../src/ratings/gaussian";

const shownBoth = { first: 0.5, second: 0.5, alone: 0 };
const subject = (id: string, score: number, se: number, sigma = 1): ReviewSubject => ({ id, score, se, sigma, shown: shownBoth });
/** Two answers only: the prior is flat, so the probability is the likelihood's alone. */
const alone = (s: ReviewSubject, options: { gradeBoundaries?: number[]; tolerance?: number } = {}) =>
  wrongProbabilities([s, subject("other", 2.5, 0.5)], { maxScore: 5, positionBias: 0, ...options }).get(s.id)!;

describe("clampedMean: a judgment held to the scale", () => {
  it("is the mean inside the scale and is pulled inwards at its ends", () => {
    expect(clampedMean(2.5, 0.3, 5)).toBeCloseTo(2.5, 6);
    // E[min(5, X)], X ~ N(5, 1): 5 - sigma * phi(0) = 5 - 0.3989
    expect(clampedMean(5, 1, 5)).toBeCloseTo(5 - 1 / Math.sqrt(2 * Math.PI), 6);
    expect(clampedMean(0, 1, 5)).toBeCloseTo(1 / Math.sqrt(2 * Math.PI), 6);
    expect(clampedMean(7, 0, 5)).toBe(5);
  });
});

describe("the probability that a grade is wrong", () => {
  it("without boundaries and a flat prior, in the middle of the scale: P(|N(0, se^2)| > tolerance)", () => {
    const p = alone(subject("a", 2.5, 0.4, 0.1), { tolerance: 0.5 });
    // within the integration grid's step (a 200th of the scale)
    expect(p).toBeCloseTo(2 * (1 - normalCdf(0.5 / 0.4)), 1);
  });

  it("grows with the standard error", () => {
    const ps = [0.1, 0.2, 0.4, 0.8, 1.6].map((se) => alone(subject("a", 2.5, se)));
    for (let i = 1; i < ps.length; i++) expect(ps[i]).toBeGreaterThan(ps[i - 1]);
    expect(ps[0]).toBeLessThan(0.001);
  });

  it("with boundaries, falls as the score moves away from the nearest one", () => {
    const ps = [2.55, 2.7, 3, 3.3].map((score) => alone(subject("a", score, 0.4), { gradeBoundaries: [2.5, 4] }));
    for (let i = 1; i < ps.length; i++) expect(ps[i]).toBeLessThan(ps[i - 1]);
    expect(ps[0]).toBeGreaterThan(0.4);
  });

  it("knows the scale's ends pull a score inwards, the more the noisier each call: a score near the top is then likely too low", () => {
    const noisy = alone(subject("a", 4.3, 0.2, 1), { tolerance: 0.3 });
    const sure = alone(subject("a", 4.3, 0.2, 0.3), { tolerance: 0.3 });
    expect(noisy).toBeGreaterThan(sure + 0.15);
    // mid-scale, 2.5 calls' noise from either end, it changes little at the same standard error
    expect(alone(subject("a", 2.5, 0.2, 1), { tolerance: 0.3 })).toBeCloseTo(alone(subject("a", 2.5, 0.2, 0.3), { tolerance: 0.3 }), 1);
  });

  it("is the prior's alone without a standard error, and each is in [0, 1]", () => {
    const ps = wrongProbabilities([subject("a", 2.5, Infinity), subject("b", 1, 0.3), subject("c", 4, 0.3)], {
      maxScore: 5,
      positionBias: 0,
    });
    for (const p of ps.values()) {
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThanOrEqual(1);
    }
    expect(ps.get("a")).toBeGreaterThan(ps.get("b")!);
  });

  it("shrinks towards the question's scores: a lone low score among high ones is more likely wrong than the same score among its like", () => {
    const high = Array.from({ length: 12 }, (_, i) => subject(`h${i}`, 4.2 + (i % 4) * 0.2, 0.3));
    const low = Array.from({ length: 12 }, (_, i) => subject(`l${i}`, 1.2 + (i % 4) * 0.2, 0.3));
    const odd = subject("odd", 1.5, 0.6);
    const amongHigh = wrongProbabilities([...high, odd], { maxScore: 5, positionBias: 0 }).get("odd")!;
    const amongLow = wrongProbabilities([...low, odd], { maxScore: 5, positionBias: 0 }).get("odd")!;
    expect(amongHigh).toBeGreaterThan(amongLow);
  });
});

describe("the prior's shape, from SHAPED_PRIOR_FROM answers", () => {
  it("smoothed EM from a flat prior: weight where the answers are, in their proportions, smoothed by 0.03 of the scale", () => {
    // 201 points on 0..5; likelihoods that are 1 at one point and 0 elsewhere (answers known exactly):
    // 3 answers at 1 and 1 at 4
    const grid = Array.from({ length: 201 }, (_, i) => (5 * i) / 200);
    const at = (x: number) => grid.map((t) => (Math.abs(t - x) < 1e-9 ? 1 : 0));
    const prior = shapedPrior([at(1), at(1), at(1), at(4)], grid);
    expect(prior.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const mass = (lo: number, hi: number) => prior.reduce((a, w, i) => a + (grid[i] >= lo && grid[i] <= hi ? w : 0), 0);
    // each step smooths with a normal of sd 0.15 (0.03 of 5): the weight within one sd of an answer is
    // about 68% of its own, and nearly none is half a point away; 3 to 1
    expect(mass(0, 2.5) / mass(2.5, 5)).toBeCloseTo(3, 1);
    expect(mass(0.85, 1.15) / mass(0, 2.5)).toBeCloseTo(0.68, 1);
    expect(mass(1.5, 3.5)).toBeLessThan(0.001);
    // the modes are the answers' points
    const peak = (lo: number, hi: number) =>
      grid.filter((t) => t >= lo && t <= hi).reduce((best, t) => (prior[grid.indexOf(t)] > prior[grid.indexOf(best)] ? t : best));
    expect(peak(0, 2.5)).toBeCloseTo(1, 1);
    expect(peak(2.5, 5)).toBeCloseTo(4, 1);
  });

  it("takes the shape exam grades have, a crowd at full marks and a tail below: a weak answer is not pulled up to the crowd", () => {
    // 20 answers at the top, 3 genuinely weak ones, and one weak answer judged twice: a normal fitted to
    // them is wide and thin-tailed, and called the last one's grade likely wrong (0.55)
    const crowd = Array.from({ length: 20 }, (_, i) => subject(`c${i}`, 4.5 + (i % 3) * 0.2, 0.3));
    const weak = [subject("w1", 1, 0.3), subject("w2", 1.2, 0.3), subject("w3", 0.8, 0.3)];
    const odd = subject("odd", 1, 0.6);
    const all = [...crowd, ...weak, odd];
    expect(all.length).toBeGreaterThanOrEqual(SHAPED_PRIOR_FROM);
    const ps = wrongProbabilities(all, { maxScore: 5, positionBias: 0 });
    expect(ps.get("odd")!).toBeLessThan(0.4);
    // and less sure than the weak answers judged more often, which are less sure than the crowd's
    expect(ps.get("odd")!).toBeGreaterThan(ps.get("w1")!);
    expect(ps.get("w1")!).toBeGreaterThan(ps.get("c0")!);
  });
});

describe("which answers are flagged", () => {
  const probabilities = new Map([
    ["a", 0.1],
    ["b", 0.6],
    ["c", 0.3],
    ["d", 0.6],
    ["e", 0.05],
    ["f", 0.2],
    ["g", 0.3],
  ]);

  it("the ceil(share x n) most likely wrong, equal ones in the order given", () => {
    expect([...flagged(probabilities, { share: 0.15 })]).toEqual(["b", "d"]); // ceil(1.05) = 2
    expect([...flagged(probabilities, { share: 0.1 })]).toEqual(["b"]);
    expect([...flagged(probabilities, { share: 3 / 7 })]).toEqual(["b", "d", "c"]); // c before g: given first
    expect(flagged(probabilities, { share: 1 }).size).toBe(7);
  });

  it("and every one above the threshold", () => {
    expect([...flagged(probabilities, { share: 0.1, threshold: 0.25 })].sort()).toEqual(["b", "c", "d", "g"]);
    // above, not at: 0.3 is not above 0.3
    expect([...flagged(probabilities, { share: 0.1, threshold: 0.3 })]).toEqual(["b", "d"]);
  });

  it("refuses a share outside (0, 1]", () => {
    expect(() => flagged(probabilities, { share: 0 })).toThrow(RangeError);
    expect(() => flagged(probabilities, { share: 1.5 })).toThrow(RangeError);
  });
});

describe("answerConfidence's review", () => {
  const matches: JudgedMatch[] = [
    {
      a: "a",
      b: "b",
      calls: [
        { order: ["a", "b"], scores: [4, 3] },
        { order: ["b", "a"], scores: [3, 3.5] },
      ],
    },
    {
      a: "c",
      b: "d",
      calls: [
        { order: ["c", "d"], scores: [2, 1] },
        { order: ["d", "c"], scores: [1.5, 2] },
      ],
    },
    {
      a: "a",
      b: "c",
      calls: [
        { order: ["a", "c"], scores: [4.5, 2] },
        { order: ["c", "a"], scores: [2.5, 4] },
      ],
    },
  ];

  it("every judged answer has a probability; the share flagged is exact; none is null but the unjudged", () => {
    const conf = answerConfidence(["a", "b", "c", "d", "e"], matches, { maxScore: 5, reviewShare: 0.5 });
    const reviews = ["a", "b", "c", "d"].map((id) => conf.get(id)!.review!);
    for (const r of reviews) expect(r.probability).toBeGreaterThanOrEqual(0);
    expect(reviews.filter((r) => r.flagged)).toHaveLength(2);
    expect(conf.get("e")!.review).toBeNull();
    // the flagged are the most likely wrong
    const cut = Math.min(...reviews.filter((r) => r.flagged).map((r) => r.probability));
    for (const r of reviews.filter((r) => !r.flagged)) expect(r.probability).toBeLessThanOrEqual(cut);
  });

  it("the answers judged least often are the most likely wrong", () => {
    const conf = answerConfidence(["a", "b", "c", "d"], matches, { maxScore: 5 });
    const p = (id: string) => conf.get(id)!.review!.probability;
    expect(Math.min(p("b"), p("d"))).toBeGreaterThan(Math.max(p("a"), p("c")));
  });
});
