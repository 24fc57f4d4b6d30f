import { describe, expect, it } from "vitest";
import { callSeed, feedbackSeed } from "../../../src/judge/call-seed";

describe("callSeed", () => {
  it("is a pure function of the evaluation's seed and the call's place", () => {
    expect(callSeed(42, 3, 1, 1)).toBe(callSeed(42, 3, 1, 1));
  });

  it("gives every place of a tournament its own seed", () => {
    const seeds = new Set<number>();
    let n = 0;
    for (let match = 0; match < 64; match++)
      for (let call = 0; call < 2; call++)
        for (let attempt = 1; attempt <= 3; attempt++) {
          seeds.add(callSeed(7, match, call, attempt));
          n++;
        }
    expect(seeds.size).toBe(n);
  });

  it("changes with the evaluation's seed, the match, the order and the parse attempt", () => {
    const base = callSeed(1, 0, 0, 1);
    expect(callSeed(2, 0, 0, 1)).not.toBe(base);
    expect(callSeed(1, 1, 0, 1)).not.toBe(base);
    expect(callSeed(1, 0, 1, 1)).not.toBe(base);
    expect(callSeed(1, 0, 0, 2)).not.toBe(base);
  });

  it("is a non-negative 31-bit integer, at the edges of the seed's range too", () => {
    for (const seed of [0, 1, 2 ** 31 - 1]) {
      const s = callSeed(seed, 1000, 1, 5);
      expect(Number.isInteger(s)).toBe(true);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThan(2 ** 31);
    }
  });

  it("keeps its values across releases: a rerun after a deploy asks what the first run asked", () => {
    // recorded once; a change here changes every recorded evaluation's seeds
    expect([callSeed(0, 0, 0, 1), callSeed(12345, 7, 1, 2)]).toEqual([697741241, 680647802]);
  });

  it("refuses a place that is not a non-negative integer", () => {
    expect(() => callSeed(1, -1, 0, 1)).toThrow(/match/);
    expect(() => callSeed(1, 0, 0.5, 1)).toThrow(/call/);
  });

  it("gives feedback calls seeds of their own, apart from every tournament call's", () => {
    const tournament = new Set<number>();
    for (let match = 0; match < 64; match++) for (let call = 0; call < 2; call++) tournament.add(callSeed(5, match, call, 1));
    const feedback = Array.from({ length: 64 }, (_, answer) => feedbackSeed(5, answer, 1));
    expect(new Set(feedback).size).toBe(64);
    expect(feedback.some((s) => tournament.has(s))).toBe(false);
    expect(feedbackSeed(5, 3, 2)).not.toBe(feedbackSeed(5, 3, 1));
  });
});
