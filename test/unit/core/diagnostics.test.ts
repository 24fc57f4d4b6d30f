import { describe, expect, it } from "vitest";
import { type DiagnosedMatch, judgeDiagnostics, LENGTH_RATIO } from "../../../src/core/diagnostics";
import { wilsonInterval } from "../../../src/metrics/wilson";

/** A match judged in both orders: `first` and `second` are the (shown-first, shown-second) scores of each call. */
function both(
  first: [number, number],
  second: [number, number],
  lengths: [number, number] = [100, 100],
  extra?: Partial<DiagnosedMatch>,
): DiagnosedMatch {
  // call 0 shows a then b, call 1 shows b then a
  const scoreA = (first[0] + second[1]) / 2;
  const scoreB = (first[1] + second[0]) / 2;
  return {
    a: "a",
    b: "b",
    scoreA,
    scoreB,
    calls: [
      { order: ["a", "b"], scores: first },
      { order: ["b", "a"], scores: second },
    ],
    lengthA: lengths[0],
    lengthB: lengths[1],
    ...extra,
  };
}

function one(scores: [number, number], lengths: [number, number] = [100, 100], extra?: Partial<DiagnosedMatch>): DiagnosedMatch {
  return {
    a: "a",
    b: "b",
    scoreA: scores[0],
    scoreB: scores[1],
    calls: [{ order: ["a", "b"], scores }],
    lengthA: lengths[0],
    lengthB: lengths[1],
    ...extra,
  };
}

describe("wilsonInterval", () => {
  it("matches the textbook values and stays inside [0, 1]", () => {
    // 52.6% of 1000: about 0.495–0.557
    const [lo, hi] = wilsonInterval(526, 1000)!;
    expect(lo).toBeCloseTo(0.4951, 3);
    expect(hi).toBeCloseTo(0.5567, 3);
    expect(wilsonInterval(0, 10)![0]).toBe(0);
    expect(wilsonInterval(10, 10)![1]).toBe(1);
    expect(wilsonInterval(0, 10)![1]).toBeCloseTo(0.2775, 3);
    expect(wilsonInterval(0, 0)).toBeNull();
    expect(wilsonInterval(3, 2)).toBeNull();
  });
});

describe("judgeDiagnostics", () => {
  it("has no figures and no warnings without matches", () => {
    const d = judgeDiagnostics([]);
    for (const f of [d.firstPositionWins, d.ordersDisagree, d.longerWins, d.parseRetried, d.ties]) {
      expect(f).toMatchObject({ share: null, interval: null, count: 0, of: 0 });
    }
    expect(d.warnings).toEqual([]);
    expect(d.longerWins.lengthRatio).toBe(LENGTH_RATIO);
  });

  it("counts the calls the first-shown answer won, over debiased calls that chose one", () => {
    const d = judgeDiagnostics([
      both([5, 3], [4, 2]), // both calls: first wins; orders disagree
      both([3, 5], [4, 2]), // second wins, then first; both chose b: agree
      both([4, 4], [5, 3]), // a tied call counts for neither
      one([5, 1]), // a single order is not debiased
    ]);
    expect(d.firstPositionWins).toMatchObject({ count: 4, of: 5, share: 0.8 });
    expect(d.firstPositionWins.interval).toEqual(wilsonInterval(4, 5));
    expect(d.ordersDisagree).toMatchObject({ count: 1, of: 3 });
    expect(d.firstPositionWins.anchor?.value).toBe(0.526);
    expect(d.ordersDisagree.anchor?.value).toBe(0.129);
  });

  it("decides a call by its expected scores where it has them", () => {
    const m = both([4, 4], [4, 4]);
    const d = judgeDiagnostics([
      {
        ...m,
        calls: [
          { ...m.calls[0], expected: [4.2, 3.9] },
          { ...m.calls[1], expected: [4.1, 3.8] },
        ],
      },
    ]);
    expect(d.firstPositionWins).toMatchObject({ count: 2, of: 2 });
    expect(d.ordersDisagree).toMatchObject({ count: 1, of: 1 });
    // the written scores tied all the same
    expect(d.ties).toMatchObject({ count: 1, of: 1 });
  });

  it("counts only matches judged in both orders as debiased (an adaptive match with one call is not)", () => {
    const sameOrderTwice: DiagnosedMatch = {
      ...one([5, 3]),
      calls: [
        { order: ["a", "b"], scores: [5, 3] },
        { order: ["a", "b"], scores: [3, 5] },
      ],
    };
    const d = judgeDiagnostics([sameOrderTwice, one([2, 4])]);
    expect(d.firstPositionWins.of).toBe(0);
    expect(d.ordersDisagree.of).toBe(0);
  });

  it("counts decided matches the longer answer won, leaving out near-equal lengths and draws", () => {
    const d = judgeDiagnostics([
      one([5, 3], [200, 100]), // longer a wins
      one([3, 5], [200, 100]), // shorter b wins
      one([3, 5], [100, 300]), // longer b wins
      one([5, 3], [105, 100]), // within 10%: left out
      one([4, 4], [300, 100]), // a draw decides nothing
      one([5, 3], [110, 100]), // exactly 1.1 times: counted
      { ...one([5, 3], [100, 0]) }, // an empty answer: the other is longer
    ]);
    expect(d.longerWins).toMatchObject({ count: 4, of: 5, lengthRatio: 1.1 });
    expect(d.longerWins.share).toBeCloseTo(0.8);
  });

  it("counts parse retries over every call, pointwise ones too", () => {
    const pointwise: DiagnosedMatch = {
      a: "a",
      b: null,
      scoreA: 3,
      scoreB: null,
      calls: [{ order: ["a"], scores: [3], parseRetried: true }],
      lengthA: 10,
      lengthB: null,
    };
    const m = both([5, 3], [4, 2]);
    const d = judgeDiagnostics([pointwise, { ...m, calls: [{ ...m.calls[0], parseRetried: true }, m.calls[1]] }, one([1, 2])]);
    expect(d.parseRetried).toMatchObject({ count: 2, of: 4 });
    // a pointwise judgment has no position, no pair, no tie
    expect(d.firstPositionWins.of).toBe(2);
    expect(d.ties.of).toBe(2);
  });

  it("counts written ties of settled matches, and those decided by position; extra and unplayed matches are not", () => {
    const d = judgeDiagnostics([
      one([4, 4], [100, 100], { tie: "position", scoreA: 4, scoreB: 4 }),
      both([4, 3], [4, 3], [100, 100], { tie: "expected" }), // written means 3.5 and 3.5
      one([5, 3]),
      one([4, 4], [100, 100], { extra: true }),
      { ...one([4, 4]), calls: [], scoreA: null, scoreB: null },
    ]);
    expect(d.ties).toMatchObject({ count: 2, of: 3, byPosition: 1 });
  });

  it("warns where a figure is far from fair, and not on a small sample", () => {
    const longerAlways = Array.from({ length: 20 }, () => one([5, 3], [300, 100]));
    expect(judgeDiagnostics(longerAlways).warnings.map((w) => w.figure)).toEqual(["longerWins"]);
    // 3 of 3: above 0.7, but the interval reaches below 0.5
    expect(judgeDiagnostics(longerAlways.slice(0, 3)).warnings).toEqual([]);

    const firstAlways = Array.from({ length: 20 }, () => both([5, 3], [5, 3]));
    const figures = judgeDiagnostics(firstAlways).warnings.map((w) => w.figure);
    expect(figures).toContain("firstPositionWins");
    expect(figures).toContain("ordersDisagree");
    const secondAlways = judgeDiagnostics(Array.from({ length: 20 }, () => both([3, 5], [3, 5])));
    expect(secondAlways.warnings.map((w) => w.figure)).toContain("firstPositionWins");

    // fair: half the calls each way, orders agree
    const fair = Array.from({ length: 20 }, () => both([5, 3], [3, 5]));
    expect(judgeDiagnostics(fair).warnings).toEqual([]);

    const retried = Array.from({ length: 10 }, (_, i) => ({
      ...one([5, 3]),
      calls: [{ order: ["a", "b"], scores: [5, 3], parseRetried: i < 2 }],
    }));
    expect(judgeDiagnostics(retried).warnings.map((w) => w.figure)).toEqual(["parseRetried"]);
    const tied = Array.from({ length: 10 }, (_, i) => (i < 4 ? one([4, 4], [100, 100], { tie: "position" }) : one([5, 3])));
    const w = judgeDiagnostics(tied).warnings;
    expect(w.map((x) => x.figure)).toEqual(["ties"]);
    expect(w[0].message).toContain("4 decided by position");
  });
});
