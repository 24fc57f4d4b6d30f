import { describe, expect, it } from "vitest";
import { decide } from "../../../src/core/match";
import { recordCall, startKnockout } from "../../../src/core/knockout";
import { METHODS } from "../../../src/core/methods";
import type { CallDetail, KnockoutState } from "../../../src/core/types";

// Issue 30, item 6: a tie of held expected scores is no coin flip where the judge had a preference.

describe("decide: a match's winner and how its tie was broken", () => {
  it("the held scores decide when they differ; a written tie then says the expected scores did", () => {
    expect(decide([3.2, 3.1], [3.2, 3.1], [3, 3], true)).toEqual({ first: true, tie: "expected" });
    expect(decide([3.1, 3.2], [3.1, 3.2], [3, 3], true)).toEqual({ first: false, tie: "expected" });
    expect(decide([4, 3], [4, 3], [4, 3], true)).toEqual({ first: true });
    // the unheld expectations never overturn held scores that differ
    expect(decide([4.75, 4.5], [4.3, 4.6], [5, 4.5], true)).toEqual({ first: true });
  });

  it("equal held scores: the unheld expectations decide, either way", () => {
    expect(decide([4.75, 4.75], [4.6, 4.4], [5, 5], true)).toEqual({ first: true, tie: "expected-unheld" });
    expect(decide([4.75, 4.75], [4.4, 4.6], [5, 5], true)).toEqual({ first: false, tie: "expected-unheld" });
  });

  it("equal held and unheld scores with equal written ones: position, the second answer", () => {
    expect(decide([4.75, 4.75], [4.6, 4.6], [5, 5], true)).toEqual({ first: false, tie: "position" });
    expect(decide([3, 3], [3, 3], [3, 3], true)).toEqual({ first: false, tie: "position" });
  });

  it("a shared cell edge: 3.5 held up to 3.75 and 4 held down to 3.75 tie; the unheld expectations, then the written scores decide", () => {
    // the judge wrote the lower score but believed the higher: what it believed decides, and says so
    expect(decide([3.75, 3.75], [3.9, 3.6], [3.5, 4], true)).toEqual({ first: true, tie: "expected-unheld" });
    expect(decide([3.75, 3.75], [3.8, 3.7], [4, 3.5], true)).toEqual({ first: true, tie: "expected-unheld" });
    // unheld equal too: the written scores still differ, and decide (no tie: the judge wrote a preference)
    expect(decide([3.75, 3.75], [3.75, 3.75], [3.5, 4], true)).toEqual({ first: false });
    expect(decide([3.75, 3.75], [3.75, 3.75], [4, 3.5], true)).toEqual({ first: true });
  });

  it("calls recorded before the unheld expectations were kept decide as they were played: position, unreported", () => {
    expect(decide([3.75, 3.75], [3.75, 3.75], [4, 3.5], false)).toEqual({ first: false });
    expect(decide([4.75, 4.75], [4.75, 4.75], [5, 5], false)).toEqual({ first: false, tie: "position" });
  });
});

/** A one-match knockout of x and y, both orders judged; returns its match once both calls are in. */
function debiasedMatch(first: (a: string, b: string) => [number[], CallDetail], second: (a: string, b: string) => [number[], CallDetail]) {
  let t: KnockoutState = startKnockout(["x", "y"], { seed: 7, debias: true });
  const { a, b } = t.matches[0];
  expect(t.matches[0].calls.map((c) => c.order)).toEqual([
    [a, b],
    [b, a],
  ]);
  const [s1, d1] = first(a, b);
  const [s2, d2] = second(a, b);
  t = recordCall(t, 0, 0, s1 as [number, number], d1);
  t = recordCall(t, 0, 1, s2 as [number, number], d2);
  return { t, m: t.matches[0], a, b };
}

describe("the knockout breaks a tie of held scores by the unheld expectations", () => {
  // both orders: the judge writes 5 for both, unsure; believes a is 4.6 and b 4.4 (held: 4.75 each)
  const unsureFives = (unheld?: { a: number; b: number }) =>
    debiasedMatch(
      () => [[5, 5], { expected: [4.75, 4.75], ...(unheld ? { unheld: [unheld.a, unheld.b] } : {}) }],
      () => [[5, 5], { expected: [4.75, 4.75], ...(unheld ? { unheld: [unheld.b, unheld.a] } : {}) }],
    );

  it("a tie decided by position before is decided by what the judge believed now, and reported", () => {
    const before = unsureFives(); // calls as recorded before the unheld expectations were kept
    expect(before.m.winner).toBe(before.b);
    expect(before.m.tie).toBe("position");

    const now = unsureFives({ a: 4.6, b: 4.4 });
    expect(now.m.winner).toBe(now.a);
    expect(now.m.tie).toBe("expected-unheld");
    expect(now.t.champion).toBe(now.a);
    // the score shown stays in its cell
    expect([now.m.scoreA, now.m.scoreB]).toEqual([4.75, 4.75]);
    expect(now.m.calls[0].unheld).toEqual([4.6, 4.4]);
  });

  it("the second answer is preferred the same way: no bias towards the first", () => {
    const now = unsureFives({ a: 4.3, b: 4.5 });
    expect(now.m.winner).toBe(now.b);
    expect(now.m.tie).toBe("expected-unheld");
  });

  it("equal unheld expectations too: still the paper's rule, by position", () => {
    const now = unsureFives({ a: 4.5, b: 4.5 });
    expect(now.m.winner).toBe(now.b);
    expect(now.m.tie).toBe("position");
  });

  it("the means over both orders decide: a preference in one order outweighed in the other", () => {
    const { m, a, b } = debiasedMatch(
      () => [[5, 5], { expected: [4.75, 4.75], unheld: [4.6, 4.5] }], // a ahead by 0.1
      () => [[5, 5], { expected: [4.75, 4.75], unheld: [4.7, 4.4] }], // b ahead by 0.3
    );
    expect(m.winner).toBe(b);
    expect(m.tie).toBe("expected-unheld");
    void a;
  });

  it("the shared edge: 3.5 and 4 written, both held to 3.75, decided by the unheld expectation, reported", () => {
    // a written 3.5 but believed 3.9; b written 4 but believed 3.6: held both 3.75
    const edge = (unheld: boolean) =>
      debiasedMatch(
        () => [[3.5, 4], { expected: [3.75, 3.75], ...(unheld ? { unheld: [3.9, 3.6] } : {}) }],
        () => [[4, 3.5], { expected: [3.75, 3.75], ...(unheld ? { unheld: [3.6, 3.9] } : {}) }],
      );
    const before = edge(false);
    expect(before.m.winner).toBe(before.b); // position, and nothing said
    expect(before.m.tie).toBeUndefined();
    const now = edge(true);
    expect(now.m.winner).toBe(now.a);
    expect(now.m.tie).toBe("expected-unheld");
  });

  it("an extra match is decided the same way, and reports no tie: it decides nothing", () => {
    const core = METHODS.knockout;
    let s = core.start(["x", "y", "z"], { seed: 2, debias: false, extraCalls: 2 });
    while (!core.isFinished(s)) {
      for (const c of core.openCalls(s)) s = core.record(s, c.match, c.call, [5, 5], { expected: [4.75, 4.75], unheld: [4.6, 4.4] });
    }
    const extras = s.matches.filter((m) => m.extra);
    expect(extras.length).toBeGreaterThan(0);
    for (const m of extras) {
      expect(m.tie).toBeUndefined();
      expect(m.winner).toBe(m.a);
    }
    for (const m of s.matches.filter((x) => !x.extra)) expect(m.tie).toBe("expected-unheld");
  });

  it("refuses unheld expectations that are not one finite number >= 0 per answer shown", () => {
    const t = startKnockout(["x", "y"], { seed: 1, debias: false });
    for (const unheld of [[4.6], [4.6, Number.NaN], [-0.1, 4]]) {
      expect(() => recordCall(t, 0, 0, [5, 5], { expected: [4.75, 4.75], unheld })).toThrow(/unheld must be 2 finite numbers >= 0/);
    }
  });
});
