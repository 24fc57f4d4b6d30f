import { describe, expect, it } from "vitest";
import { answerConfidence, type JudgedMatch } from "../../../src/core/confidence";
import { callNoise } from "../../../src/core/uncertainty";
import type { MethodCore } from "../../../src/core/method";
import { METHODS, type MethodName } from "../../../src/core/methods";
import { studentQuantile } from "../../../src/core/student-t";
import { gaussian, seededRandom } from "../../../src/random/seeded";

interface Simulation {
  method: MethodName;
  debias: boolean;
  /** Whether the judge gives its probabilities: expected scores (its belief, held to the written cell) and their spread. */
  logprobs: boolean;
  /** Added to the answer shown first. */
  bias: number;
  noise: number;
  answers: number;
  questions: number;
  seed: number;
}

/**
 * Simulated judgments on 0..5 in half points: each answer has a true score; each call the judge
 * believes it plus fresh normal noise, plus `bias` when it is shown first, and writes its belief
 * rounded to half points. The true score an interval should cover is the judge's long-run score in
 * balanced positions: the answer's own plus half the bias (every pairwise method shows it first about
 * half the time).
 */
function simulate(s: Simulation): { covered: number; total: number; meanWidth: number } {
  const rand = seededRandom(s.seed).next;
  let covered = 0;
  let total = 0;
  let width = 0;
  for (let q = 0; q < s.questions; q++) {
    const ids = Array.from({ length: s.answers }, (_, i) => `q${q}.${i}`);
    const truth = new Map(ids.map((id) => [id, 0.75 + 3.5 * rand()]));
    const method = METHODS[s.method] as MethodCore<{ matches: JudgedMatch[] }>;
    let state = method.start(ids, { seed: q + 1, debias: s.debias, pairing: "bracket" });
    while (!method.isFinished(state)) {
      for (const c of method.openCalls(state)) {
        const belief = c.order.map((id, i) => truth.get(id)! + s.noise * gaussian(rand) + (i === 0 && c.order.length === 2 ? s.bias : 0));
        const written = belief.map((b) => Math.min(5, Math.max(0, Math.round(b * 2) / 2)));
        const expected = belief.map((b, i) => Math.min(5, Math.max(0, written[i] - 0.25, Math.min(written[i] + 0.25, b))));
        state = method.record(state, c.match, c.call, written, s.logprobs ? { expected, spread: belief.map(() => s.noise) } : {});
      }
    }
    const confidence = answerConfidence(ids, state.matches, { maxScore: 5 });
    for (const id of ids) {
      const [lo, hi] = confidence.get(id)!.interval!;
      const target = truth.get(id)! + (s.method === "individual" ? 0 : s.bias / 2);
      if (lo <= target && target <= hi) covered++;
      total++;
      width += hi - lo;
    }
  }
  return { covered, total, meanWidth: width / total };
}

describe("the 95% interval covers about 95% of simulated true scores", () => {
  const cases: [string, Simulation][] = [
    [
      "knockout, debiased, position bias, written scores",
      { method: "knockout", debias: true, logprobs: false, bias: 0.25, noise: 0.5, answers: 12, questions: 150, seed: 1 },
    ],
    [
      "knockout, debiased, expected scores",
      { method: "knockout", debias: true, logprobs: true, bias: 0.25, noise: 0.5, answers: 9, questions: 200, seed: 2 },
    ],
    [
      "knockout, one order, expected scores",
      { method: "knockout", debias: false, logprobs: true, bias: 0, noise: 0.5, answers: 12, questions: 150, seed: 3 },
    ],
    [
      "knockout, one order, written scores",
      { method: "knockout", debias: false, logprobs: false, bias: 0, noise: 0.4, answers: 16, questions: 110, seed: 4 },
    ],
    [
      "round-robin, debiased",
      { method: "round-robin", debias: true, logprobs: false, bias: 0.25, noise: 0.5, answers: 8, questions: 100, seed: 5 },
    ],
    [
      "individual, expected scores",
      { method: "individual", debias: false, logprobs: true, bias: 0, noise: 0.5, answers: 10, questions: 150, seed: 6 },
    ],
  ];
  for (const [name, s] of cases) {
    it(name, () => {
      const { covered, total, meanWidth } = simulate(s);
      expect(total).toBeGreaterThanOrEqual(800);
      // the tolerance: the binomial's 2.5 standard errors at this size, and the knockout's selection
      const coverage = covered / total;
      expect(coverage).toBeGreaterThan(0.93);
      expect(coverage).toBeLessThan(0.975);
      // and it is an interval, not the whole scale
      expect(meanWidth).toBeLessThan(2.5);
    });
  }

  it("answers judged once pointwise, with nothing to tell the noise from, get the whole scale", () => {
    const method = METHODS.individual;
    let state = method.start(["a", "b", "c"], { seed: 1, debias: false });
    for (const c of method.openCalls(state)) state = method.record(state, c.match, c.call, [3]);
    for (const c of answerConfidence(["a", "b", "c"], state.matches, { maxScore: 5 }).values()) {
      expect(c.interval).toEqual([0, 5]);
      expect(c.judgments).toBe(1);
    }
  });
});

describe("the interval's parts", () => {
  const pair = (a: string, b: string, first: [number, number], second: [number, number]): JudgedMatch => ({
    a,
    b,
    calls: [
      { order: [a, b], scores: first },
      { order: [b, a], scores: second },
    ],
  });

  it("the per-call noise and position bias come from the pairs judged in both orders", () => {
    // a: 4 first, 3 second (d = +1); b: 2 first, 1 second (d = +1); c: 3 first, 3 second (d = 0); d: 2.5 / 1.5 (+1)
    const matches = [pair("a", "b", [4, 1], [2, 3]), pair("c", "d", [3, 1.5], [2.5, 3])];
    const noise = callNoise(["a", "b", "c", "d"], matches);
    expect(noise.pairs).toBe(4);
    expect(noise.positionBias).toBeCloseTo(0.75, 12);
    // differences 1, 1, 0, 1 about 0.75: squares 3 * 0.0625 + 0.5625 = 0.75; / 3 / 2
    expect(noise.variance).toBeCloseTo(0.125, 12);
    expect(noise.df).toBe(3);
  });

  it("without pairs, the pooled spread of each answer's judgments about its own mean", () => {
    const matches: JudgedMatch[] = [
      { a: "a", b: "b", calls: [{ order: ["a", "b"], scores: [4, 2] }] },
      { a: "a", b: "c", calls: [{ order: ["c", "a"], scores: [3, 3] }] },
      { a: "b", b: "c", calls: [{ order: ["b", "c"], scores: [2, 4] }] },
    ];
    const noise = callNoise(["a", "b", "c"], matches);
    // a: 4, 3 (0.5); b: 2, 2 (0); c: 3, 4 (0.5); 3 degrees of freedom
    expect(noise.variance).toBeCloseTo(1 / 3, 12);
    expect(noise.df).toBe(3);
    expect(noise.pairs).toBe(0);
  });

  it("a half-width of t(0.975, df) * sqrt(v * sum of squared weights), around the answer's score, clamped to the scale", () => {
    const matches = [pair("a", "b", [4, 1], [2, 3]), pair("c", "d", [3, 1.5], [2.5, 3])];
    const conf = answerConfidence(["a", "b", "c", "d"], matches, { maxScore: 5 });
    // a: judgments 4 (first) and 3 (second); corrected by the bias 0.75 / 2: 3.625, 3.375; own squares 0.03125
    const df = 1 + 3;
    const v = (0.03125 + 3 * 0.125) / df;
    const half = studentQuantile(0.975, df) * Math.sqrt(v * 0.5);
    const [lo, hi] = conf.get("a")!.interval!;
    expect(lo).toBeCloseTo(3.5 - half, 12);
    expect(hi).toBeCloseTo(Math.min(5, 3.5 + half), 12);
    expect(conf.get("a")!.judgments).toBe(2);
  });

  it("never narrower than a written score's rounding, however alike the judgments", () => {
    const matches = [pair("a", "b", [3, 3], [3, 3]), pair("c", "d", [3, 3], [3, 3])];
    for (const c of answerConfidence(["a", "b", "c", "d"], matches, { maxScore: 5, step: 0.5 }).values()) {
      const [lo, hi] = c.interval!;
      expect(hi - lo).toBeGreaterThan(0.2);
    }
  });

  it("an answer not judged yet has no interval and no review", () => {
    const conf = answerConfidence(["a", "b", "c"], [{ a: "a", b: "b", calls: [{ order: ["a", "b"], scores: null }] }], { maxScore: 5 });
    expect(conf.get("c")).toEqual({ judgments: 0, interval: null, review: null });
    expect(conf.get("a")!.judgments).toBe(0); // its match is not in yet
  });

  it("the t quantile: exact for 1 and 2 degrees of freedom, close above, the normal's at infinity", () => {
    expect(studentQuantile(0.975, 1)).toBeCloseTo(12.7062, 3);
    expect(studentQuantile(0.975, 2)).toBeCloseTo(4.3027, 4);
    expect(studentQuantile(0.975, 3)).toBeCloseTo(3.1824, 2);
    expect(studentQuantile(0.975, 10)).toBeCloseTo(2.2281, 3);
    expect(studentQuantile(0.975, 30)).toBeCloseTo(2.0423, 4);
    expect(studentQuantile(0.975, Infinity)).toBeCloseTo(1.96, 2);
  });
});

describe("review reasons", () => {
  const reasons = (matches: JudgedMatch[], ids: string[], options = {}) =>
    new Map([...answerConfidence(ids, matches, { maxScore: 5, ...options })].map(([id, c]) => [id, c.review?.reasons ?? []]));

  it("orders-disagree: the two orders of one of its matches chose different winners", () => {
    const r = reasons(
      [
        {
          a: "a",
          b: "b",
          ordersDisagree: true,
          calls: [
            { order: ["a", "b"], scores: [4, 3] },
            { order: ["b", "a"], scores: [4, 3] },
          ],
        },
        {
          a: "c",
          b: "d",
          ordersDisagree: false,
          calls: [
            { order: ["c", "d"], scores: [4, 3] },
            { order: ["d", "c"], scores: [3, 4] },
          ],
        },
      ],
      ["a", "b", "c", "d"],
    );
    expect(r.get("a")).toEqual(["orders-disagree"]);
    expect(r.get("b")).toEqual(["orders-disagree"]);
    expect(r.get("c")).toEqual([]);
  });

  it("single-judgment: one judge score behind it", () => {
    const r = reasons(
      [
        { a: "a", b: "b", calls: [{ order: ["a", "b"], scores: [4, 3] }] },
        { a: "a", b: "c", calls: [{ order: ["c", "a"], scores: [2, 4.5] }] },
      ],
      ["a", "b", "c"],
    );
    expect(r.get("a")).toEqual([]);
    expect(r.get("b")).toEqual(["single-judgment"]);
    expect(r.get("c")).toEqual(["single-judgment"]);
  });

  it("tie: one of its matches had equal written match scores, whatever then decided it", () => {
    const r = reasons(
      [
        {
          a: "a",
          b: "b",
          tie: "expected",
          calls: [
            { order: ["a", "b"], scores: [3, 3], expected: [3.2, 2.9] },
            { order: ["b", "a"], scores: [3, 3], expected: [3.1, 3.1] },
          ],
        },
        {
          a: "c",
          b: "d",
          tie: "position",
          calls: [
            { order: ["c", "d"], scores: [3, 3] },
            { order: ["d", "c"], scores: [3, 3] },
          ],
        },
        {
          a: "e",
          b: "f",
          calls: [
            { order: ["e", "f"], scores: [4, 3] },
            { order: ["f", "e"], scores: [3, 4] },
          ],
        },
      ],
      ["a", "b", "c", "d", "e", "f"],
    );
    for (const id of ["a", "b", "c", "d"]) expect(r.get(id)).toEqual(["tie"]);
    expect(r.get("e")).toEqual([]);
  });

  it("parse-retried: a reply behind its score had to be asked for again (the shell's flag)", () => {
    const r = reasons(
      [
        {
          a: "a",
          b: "b",
          calls: [
            { order: ["a", "b"], scores: [4, 3], parseRetried: true },
            { order: ["b", "a"], scores: [3, 4] },
          ],
        },
        {
          a: "c",
          b: "d",
          calls: [
            { order: ["c", "d"], scores: [4, 3] },
            { order: ["d", "c"], scores: [3, 4] },
          ],
        },
      ],
      ["a", "b", "c", "d"],
    );
    expect(r.get("a")).toEqual(["parse-retried"]);
    expect(r.get("b")).toEqual(["parse-retried"]);
    expect(r.get("c")).toEqual([]);
  });

  it("near-boundary: a grade boundary inside its interval (lo < g <= hi)", () => {
    const matches: JudgedMatch[] = [
      {
        a: "a",
        b: "b",
        calls: [
          { order: ["a", "b"], scores: [4, 1] },
          { order: ["b", "a"], scores: [1.5, 3.5] },
        ],
      },
      {
        a: "c",
        b: "d",
        calls: [
          { order: ["c", "d"], scores: [2.5, 2] },
          { order: ["d", "c"], scores: [2, 2.5] },
        ],
      },
    ];
    const conf = answerConfidence(["a", "b", "c", "d"], matches, { maxScore: 5 });
    const [lo, hi] = conf.get("a")!.interval!;
    const r = (g: number[]) => reasons(matches, ["a", "b", "c", "d"], { gradeBoundaries: g }).get("a");
    expect(r([(lo + hi) / 2])).toEqual(["near-boundary"]);
    expect(r([hi])).toEqual(["near-boundary"]);
    expect(r([lo])).toEqual([]);
    expect(r([hi + 0.01, lo - 0.01])).toEqual([]);
    expect(r([])).toEqual([]);
  });

  it("several reasons are listed in a fixed order, beside the probability and the flag", () => {
    const conf = answerConfidence(
      ["a", "b", "c"],
      [
        { a: "a", b: "b", tie: "position", calls: [{ order: ["a", "b"], scores: [3, 3], parseRetried: true }] },
        { a: "a", b: "c", calls: [{ order: ["a", "c"], scores: [4, 2] }] },
      ],
      { maxScore: 5, gradeBoundaries: [2.5] },
    );
    expect(conf.get("b")!.review).toEqual({
      flagged: expect.any(Boolean),
      probability: expect.any(Number),
      reasons: ["single-judgment", "tie", "parse-retried", "near-boundary"],
    });
    expect(conf.get("a")!.review!.reasons).toContain("tie");
  });

  it("from a real knockout: first-round losers judged once, ties and disagreements from the core's matches", () => {
    const method = METHODS.knockout;
    let state = method.start(["a", "b", "c", "d", "e"], { seed: 3, debias: false, pairing: "round" });
    while (!method.isFinished(state)) for (const c of method.openCalls(state)) state = method.record(state, c.match, c.call, [3, 3]);
    const conf = answerConfidence(state.ids, state.matches, { maxScore: 5 });
    for (const m of state.matches.filter((x) => x.round === 1)) {
      const loser = m.winner === m.a ? m.b : m.a;
      expect(conf.get(loser)!.review!.reasons).toEqual(["single-judgment", "tie"]);
    }
  });
});
