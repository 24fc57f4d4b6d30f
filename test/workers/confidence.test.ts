import { describe, expect, it } from "vitest";
import { judgeLog, newKey, postEvaluation, request, uniqueTag, waitUntilDone } from "./helpers";

// The test judge writes q (+0.5 for the answer it sees first) and, asked for logprobs, believes b (+0.5
// first) where an answer has one: so a test knows every written and every expected score.

interface Answer {
  id: string;
  score: number;
  scores: number[];
  judgments: number;
  interval: [number, number] | null;
  review: null | { flagged: boolean; probability: number; reasons: string[] };
}
interface Match {
  round: number | "extra";
  a: string;
  b: string | null;
  scoreA: number;
  scoreB: number;
  winner: string | null;
  tie?: string;
  ordersDisagree?: boolean;
  calls: { order: string[]; scores: number[]; expected: number[] | null; spread?: number[]; parseRetried?: boolean }[];
}

async function grade(key: string, body: Record<string, unknown>) {
  const id = await postEvaluation(key, body);
  await waitUntilDone(id, key);
  // read back from D1 (the object may still answer a moment after the end): the stored outcome
  const r = await request("GET", `/v1/evaluations/${id}`, { key });
  return r.json as {
    status: string;
    error?: string;
    answers: Answer[];
    matches: Match[];
    usage: Record<string, number>;
    [k: string]: unknown;
  };
}

const byId = (answers: Answer[]) => new Map(answers.map((a) => [a.id, a]));

describe("scores from the judge's probabilities (judge.scoreFrom)", () => {
  it("a tie of written scores is decided by what the judge believed (auto, the default)", async () => {
    const key = await newKey("conf-tie");
    const tag = uniqueTag("tie");
    const result = await grade(key, {
      question: `Explain a stack. [tag:${tag}]`,
      maxScore: 10,
      answers: [
        { id: "sure", text: "q=5 b=5.2 LIFO" },
        { id: "shaky", text: "q=5 b=4.9 LIFO" },
      ],
    });
    expect(result.status).toBe("completed");
    expect(result.judge).toMatchObject({ scoreFrom: "auto" });
    const [m] = result.matches;
    // written: 5.5 and 5 in each order, so the match scores tie at 5.25
    for (const c of m.calls) expect([...c.scores].sort()).toEqual([5, 5.5]);
    for (const c of m.calls) {
      const first = c.order[0] === "sure" ? 5.7 : 5.4;
      const second = c.order[1] === "sure" ? 5.2 : 4.9;
      expect(c.expected![0]).toBeCloseTo(first, 9);
      expect(c.expected![1]).toBeCloseTo(second, 9);
      expect(c.spread).toHaveLength(2);
    }
    expect(m.tie).toBe("expected");
    expect(m.winner).toBe("sure");
    expect(result.champion).toBe("sure");
    const answers = byId(result.answers);
    expect(answers.get("sure")!.score).toBeCloseTo(5.45, 9);
    expect(answers.get("shaky")!.score).toBeCloseTo(5.15, 9);
    // the judge was asked for its probabilities
    const log = await judgeLog(tag);
    expect(log).toHaveLength(2);
  });

  it('scoreFrom "text": the same tie goes to the second answer (the paper\'s rule), and no expected scores are kept', async () => {
    const key = await newKey("conf-text");
    const result = await grade(key, {
      question: "Explain a stack.",
      maxScore: 10,
      judge: { scoreFrom: "text" },
      answers: [
        { id: "sure", text: "q=5 b=5.2 LIFO" },
        { id: "shaky", text: "q=5 b=4.9 LIFO" },
      ],
    });
    const [m] = result.matches;
    expect(m.tie).toBe("position");
    expect(m.winner).toBe(m.b);
    for (const c of m.calls) expect(c.expected).toBeNull();
    for (const a of result.answers) expect(a.score).toBe(5.25);
  });

  it("auto with an endpoint that gives no probabilities: the written scores decide, expected is null", async () => {
    const key = await newKey("conf-none");
    const result = await grade(key, {
      question: "Explain a stack. [no-logprobs]",
      maxScore: 10,
      answers: [
        { id: "a", text: "q=3 LIFO" },
        { id: "b", text: "q=7 LIFO" },
      ],
    });
    expect(result.status).toBe("completed");
    for (const c of result.matches[0].calls) expect(c.expected).toBeNull();
    expect(byId(result.answers).get("b")!.score).toBe(7.25);
  });

  it('scoreFrom "logprobs" with an endpoint that gives none fails and says why', async () => {
    const key = await newKey("conf-strict");
    const result = await grade(key, {
      question: "Explain a stack. [no-logprobs]",
      maxScore: 10,
      judge: { scoreFrom: "logprobs" },
      answers: [
        { id: "a", text: "q=3 LIFO" },
        { id: "b", text: "q=7 LIFO" },
      ],
    });
    expect(result.status).toBe("failed");
    expect(result.error).toMatch(/gave no token probabilities/);
  });
});

describe("a confidence for every answer: judgments, interval, review", () => {
  it("orders-disagree: the two orders chose different winners", async () => {
    const key = await newKey("conf-orders");
    // shown first, each gets 0.5 more: 5.5 vs 5.2, then 5.7 vs 5
    const result = await grade(key, {
      question: "Explain a stack.",
      maxScore: 10,
      judge: { scoreFrom: "text" },
      answers: [
        { id: "x", text: "q=5 LIFO" },
        { id: "y", text: "q=5.2 LIFO" },
      ],
    });
    expect(result.matches[0].ordersDisagree).toBe(true);
    for (const a of result.answers) {
      expect(a.review?.reasons).toContain("orders-disagree");
      expect(a.judgments).toBe(2);
    }
  });

  it("tie: an answer advanced or eliminated by equal written match scores", async () => {
    const key = await newKey("conf-tie-reason");
    const result = await grade(key, {
      question: "Explain a stack.",
      maxScore: 10,
      answers: [
        { id: "sure", text: "q=5 b=5.2 LIFO" },
        { id: "shaky", text: "q=5 b=4.9 LIFO" },
      ],
    });
    for (const a of result.answers) expect(a.review?.reasons).toContain("tie");
  });

  it("single-judgment: without debiasing, the first-round losers are judged once; intervals hold the score", async () => {
    const key = await newKey("conf-single");
    const result = await grade(key, {
      question: "Explain a stack.",
      maxScore: 10,
      debias: false,
      seed: 3,
      answers: [1, 3, 6, 8].map((q, i) => ({ id: `s${i}`, text: `q=${q} LIFO` })),
    });
    const knockedOutFirst = result.matches.filter((m) => m.round === 1).map((m) => (m.winner === m.a ? m.b : m.a));
    expect(knockedOutFirst).toHaveLength(2);
    for (const a of result.answers) {
      const once = knockedOutFirst.includes(a.id);
      expect(a.judgments).toBe(once ? 1 : 2);
      expect(a.review?.reasons?.includes("single-judgment") ?? false).toBe(once);
      const [lo, hi] = a.interval!;
      expect(lo).toBeLessThanOrEqual(a.score);
      expect(hi).toBeGreaterThanOrEqual(a.score);
      expect(lo).toBeGreaterThanOrEqual(0);
      expect(hi).toBeLessThanOrEqual(10);
    }
  });

  it("parse-retried: a reply that had to be asked for again is flagged on its call and its answers", async () => {
    const key = await newKey("conf-parse");
    const result = await grade(key, {
      question: "Explain a stack. [parse-once]",
      maxScore: 10,
      answers: [
        { id: "a", text: "q=2 LIFO" },
        { id: "b", text: "q=8 LIFO" },
      ],
    });
    expect(result.status).toBe("completed");
    expect(result.usage.parseFailures).toBe(2);
    for (const c of result.matches[0].calls) expect(c.parseRetried).toBe(true);
    for (const a of result.answers) expect(a.review?.reasons).toContain("parse-retried");
  });

  it("near-boundary: an interval that crosses one of gradeBoundaries; the answer on a boundary is the likelier wrong and flagged", async () => {
    const key = await newKey("conf-boundary");
    const result = await grade(key, {
      question: "Explain a stack.",
      maxScore: 10,
      gradeBoundaries: [9, 3.25],
      answers: [
        { id: "low", text: "q=3 LIFO" },
        { id: "high", text: "q=7 LIFO" },
      ],
    });
    expect(result.gradeBoundaries).toEqual([3.25, 9]);
    const answers = byId(result.answers);
    expect(answers.get("low")!.score).toBe(3.25);
    // on a boundary its band is a coin flip; far from both, it is sure: the one flagged of two (reviewShare 0.15)
    const low = answers.get("low")!.review!;
    const high = answers.get("high")!.review!;
    expect(low).toEqual({ flagged: true, probability: expect.any(Number), reasons: ["near-boundary"] });
    expect(low.probability).toBeGreaterThan(0.3);
    expect(high).toEqual({ flagged: false, probability: expect.any(Number), reasons: [] });
    expect(high.probability).toBeLessThan(low.probability);
    const [lo, hi] = answers.get("high")!.interval!;
    expect(lo).toBeLessThan(7.25);
    expect(hi).toBeGreaterThan(7.25);
  });
});

describe("the review rule", () => {
  const flaggedIn = (r: Awaited<ReturnType<typeof grade>>) => r.answers.filter((a) => a.review?.flagged).map((a) => a.id);

  it("reviewShare and reviewThreshold: the same answers judged alike, another share flags another number, and the result says which rule", async () => {
    const key = await newKey("conf-review-share");
    const body = {
      question: "Explain a stack.",
      maxScore: 10,
      seed: 4,
      answers: [1, 2, 3, 4, 5, 6, 7, 8].map((q, i) => ({ id: `s${i}`, text: `q=${q} LIFO` })),
    };
    const byDefault = await grade(key, body);
    const half = await grade(key, { ...body, reviewShare: 0.5 });
    expect(byDefault.review).toEqual({ rule: "share", share: 0.15, threshold: null, flagged: 2 }); // ceil(0.15 x 8)
    expect(flaggedIn(byDefault)).toHaveLength(2);
    expect(half.review).toEqual({ rule: "share", share: 0.5, threshold: null, flagged: 4 });
    expect(flaggedIn(half)).toHaveLength(4);
    // the same seed and judge: the same probabilities, so the default's flags are among the half's
    for (const id of flaggedIn(byDefault)) expect(flaggedIn(half)).toContain(id);
    // a threshold under every probability flags them all, whatever the share
    const lowest = Math.min(...byDefault.answers.map((a) => a.review!.probability));
    const all = await grade(key, { ...body, reviewThreshold: lowest / 2 });
    expect(all.review).toEqual({ rule: "share-or-threshold", share: 0.15, threshold: lowest / 2, flagged: 8 });
    expect(flaggedIn(all)).toHaveLength(8);
  });
});

describe("extra calls and adaptive debiasing", () => {
  it('extraCalls: K more calls after the knockout, on matches whose round is "extra", counted in usage', async () => {
    const key = await newKey("conf-extra");
    const tag = uniqueTag("extra");
    const result = await grade(key, {
      question: `Explain a stack. [tag:${tag}]`,
      maxScore: 10,
      seed: 9,
      extraCalls: 4,
      answers: [2, 4, 6, 8].map((q, i) => ({ id: `s${i}`, text: `q=${q} LIFO` })),
    });
    expect(result.status).toBe("completed");
    expect(result.extraCalls).toBe(4);
    const extra = result.matches.filter((m) => m.round === "extra");
    expect(extra).toHaveLength(2);
    expect(result.usage.judgeCalls).toBe(6 + 4);
    expect(result.usage.extraCalls).toBe(4);
    expect(await judgeLog(tag)).toHaveLength(10);
    // the knockout decides the champion; extra matches add a match score to both their answers
    expect(result.champion).toBe("s3");
    const answers = byId(result.answers);
    for (const m of extra) {
      for (const id of [m.a, m.b!]) {
        // one match score per match it played, knockout and extra: with few losers one may play two extra matches
        const played = result.matches.filter((k: { a: string; b: string | null }) => k.a === id || k.b === id).length;
        expect(answers.get(id)!.scores).toHaveLength(played);
      }
    }
  });

  it('debias "adaptive": the other order only when the judge is unsure; the calls saved are reported', async () => {
    const key = await newKey("conf-adaptive");
    const tag = uniqueTag("adaptive");
    // 3 points apart on a scale of 10 (margin 1): every first call is sure
    const result = await grade(key, {
      question: `Explain a stack. [tag:${tag}]`,
      maxScore: 10,
      debias: "adaptive",
      answers: [1, 4, 7, 10].map((q, i) => ({ id: `s${i}`, text: `q=${q} LIFO` })),
    });
    expect(result.status).toBe("completed");
    expect(result.debias).toBe("adaptive");
    expect(result.usage.judgeCalls).toBe(3);
    expect(result.usage.callsSaved).toBe(3);
    expect(await judgeLog(tag)).toHaveLength(3);
    expect(result.champion).toBe("s3");
  });

  it('debias "adaptive": an unsure first call (a written tie) gets the other order', async () => {
    const key = await newKey("conf-adaptive-tie");
    const result = await grade(key, {
      question: "Explain a stack.",
      maxScore: 10,
      debias: "adaptive",
      // whichever is shown first, the first call is unsure: a first writes 5 vs 5 (a tie); b first
      // writes 5.5 vs 4.5, within the margin (a tenth of the scale)
      answers: [
        { id: "a", text: "q=4.5 LIFO" },
        { id: "b", text: "q=5 LIFO" },
      ],
    });
    const [m] = result.matches;
    expect(m.calls).toHaveLength(2);
    expect(m.calls[1].order).toEqual([...m.calls[0].order].reverse());
    expect(result.usage.judgeCalls).toBe(2);
    expect(result.usage.callsSaved).toBe(0);
  });
});

describe("the new fields are validated", () => {
  const base = {
    question: "q",
    answers: [
      { id: "a", text: "x" },
      { id: "b", text: "y" },
    ],
  };
  const cases: [string, Record<string, unknown>, string][] = [
    ["extraCalls above 4N", { extraCalls: 9 }, "extraCalls"],
    ["extraCalls not an integer", { extraCalls: 1.5 }, "extraCalls"],
    ["extraCalls for another method", { extraCalls: 2, method: "pairwise" }, "extraCalls"],
    ["adaptive debiasing for another method", { debias: "adaptive", method: "round-robin" }, "debias"],
    ["a grade boundary above maxScore", { maxScore: 5, gradeBoundaries: [2.5, 6] }, "gradeBoundaries[1]"],
    ["an unknown scoreFrom", { judge: { scoreFrom: "vibes" } }, "judge.scoreFrom"],
    // issue 23: accepted and read from the text, though "logprobs" promises an evaluation that fails without them
    [
      'scoreFrom "logprobs" with a rubric',
      { method: "individual", rubric: { criteria: [{ name: "accuracy" }] }, judge: { scoreFrom: "logprobs" } },
      "judge.scoreFrom",
    ],
  ];
  for (const [i, [what, extra, field]] of cases.entries()) {
    it(`refuses ${what} with a 400 naming ${field}, and creates nothing`, async () => {
      const key = await newKey(`conf-bad-${i}`);
      const r = await request("POST", "/v1/evaluations", { key, body: { ...base, ...extra } });
      expect(r.status).toBe(400);
      expect(r.headers.get("content-type")).toMatch(/problem\+json/);
      expect(r.json.errors.map((e: { field: string }) => e.field)).toContain(field);
      const list = await request("GET", "/v1/evaluations", { key });
      expect(list.json.data).toHaveLength(0);
    });
  }
});
