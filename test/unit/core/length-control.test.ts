import { describe, expect, it } from "vitest";
import {
  fitLengthModel,
  type LengthMatch,
  lengthControlledScores,
  lengthFeature,
  MIN_DECIDED_MATCHES,
} from "../../../src/core/length-control";
import { gaussian, seededRandom } from "../../../src/random/seeded";

/**
 * A round-robin (each pair `repeats` times) of answers with qualities and lengths drawn apart, judged by
 * the model itself with length coefficient `beta`: the winner scores 1 point above the loser.
 */
function synthetic(count: number, beta: number, seed: number, repeats = 1) {
  const rng = seededRandom(seed);
  const ids = Array.from({ length: count }, (_, i) => `a${i}`);
  const theta = new Map(ids.map((id) => [id, gaussian(() => rng.next())]));
  const length = new Map(ids.map((id) => [id, Math.round(50 * 2 ** (4 * rng.next()))]));
  const matches: LengthMatch[] = [];
  for (let r = 0; r < repeats; r++)
    for (let i = 0; i < count; i++)
      for (let j = i + 1; j < count; j++) {
        const [a, b] = [ids[i], ids[j]];
        const p = 1 / (1 + Math.exp(-(theta.get(a)! - theta.get(b)! + beta * lengthFeature(length.get(a)!, length.get(b)!))));
        const aWins = rng.next() < p;
        matches.push({ a, b, scoreA: aWins ? 4 : 3, scoreB: aWins ? 3 : 4, lengthA: length.get(a)!, lengthB: length.get(b)! });
      }
  return { ids, theta, length, matches };
}

describe("lengthFeature", () => {
  it("is 0 for equal lengths, antisymmetric, and bounded", () => {
    expect(lengthFeature(100, 100)).toBe(0);
    expect(lengthFeature(200, 100)).toBeCloseTo(Math.tanh(Math.log(2)));
    expect(lengthFeature(100, 200)).toBeCloseTo(-lengthFeature(200, 100));
    expect(lengthFeature(1e9, 1)).toBeLessThanOrEqual(1);
    expect(lengthFeature(0, 0)).toBe(0);
  });
});

describe("fitLengthModel", () => {
  it("recovers a planted length coefficient", () => {
    for (const seed of [1, 2, 3]) {
      const { ids, matches } = synthetic(60, 2, seed);
      const { beta, decided } = fitLengthModel(ids, matches);
      expect(decided).toBe(matches.length);
      expect(beta).toBeGreaterThan(1.2);
      expect(beta).toBeLessThan(2.8);
    }
  });

  it("finds about no length effect where there is none", () => {
    for (const seed of [1, 2, 3]) {
      const { ids, matches } = synthetic(60, 0, seed);
      expect(Math.abs(fitLengthModel(ids, matches).beta)).toBeLessThan(0.6);
    }
  });

  it("is exactly 0 when every answer is as long as the others, and deterministic", () => {
    const { ids, matches } = synthetic(10, 0, 4);
    const same = matches.map((m) => ({ ...m, lengthA: 100, lengthB: 100 }));
    expect(fitLengthModel(ids, same).beta).toBe(0);
    expect(fitLengthModel(ids, matches)).toEqual(fitLengthModel(ids, matches));
  });
});

describe("lengthControlledScores", () => {
  const answers = (ids: string[], matches: LengthMatch[]) =>
    ids.map((id) => {
      const own = matches.flatMap((m) => (m.a === id ? [m.scoreA] : m.b === id ? [m.scoreB] : []));
      return { id, score: own.length ? own.reduce((s, x) => s + x, 0) / own.length : null };
    });

  it(`needs ${MIN_DECIDED_MATCHES} decided matches, and returns the raw scores without them`, () => {
    const { ids, matches } = synthetic(4, 2, 5); // 6 matches
    const raw = answers(ids, matches);
    const r = lengthControlledScores(raw, matches, 10);
    expect(r.control).toEqual({ coefficient: 0, points: 0, fitted: false, reason: "6 decided matches; the fit needs at least 8" });
    expect([...r.scores]).toEqual(raw.map((a) => [a.id, a.score]));
    // draws are not decided
    const drawn = synthetic(6, 2, 5).matches.map((m) => ({ ...m, scoreA: 3, scoreB: 3 }));
    expect(lengthControlledScores(answers(ids, drawn), drawn, 10).control.fitted).toBe(false);
  });

  it("takes the length preference out: the longer answers lose what their length won them", () => {
    const { ids, matches, length } = synthetic(24, 3, 6);
    const raw = answers(ids, matches);
    const r = lengthControlledScores(raw, matches, 10);
    expect(r.control.fitted).toBe(true);
    expect(r.control.coefficient).toBeGreaterThan(1.5);
    expect(r.control.points).toBeGreaterThan(0);
    const longest = [...ids].sort((x, y) => length.get(y)! - length.get(x)!)[0];
    const shortest = [...ids].sort((x, y) => length.get(x)! - length.get(y)!)[0];
    const scoreOf = (id: string) => raw.find((a) => a.id === id)!.score!;
    expect(r.scores.get(longest)!).toBeLessThan(scoreOf(longest));
    expect(r.scores.get(shortest)!).toBeGreaterThan(scoreOf(shortest));
    // the scores of all answers move by a zero sum: each match takes from one what it gives the other
    const movedTotal = ids.reduce(
      (s, id) => s + (r.scores.get(id)! - scoreOf(id)) * matches.filter((m) => m.a === id || m.b === id).length,
      0,
    );
    expect(movedTotal).toBeCloseTo(0, 9);
  });

  it("moves nothing where lengths are equal, and keeps an unplayed answer's null", () => {
    const { ids, matches } = synthetic(8, 0, 7);
    const same = matches.map((m) => ({ ...m, lengthA: 120, lengthB: 120 }));
    const raw = [...answers(ids, same), { id: "late", score: null }];
    const r = lengthControlledScores(raw, same, 10);
    expect(r.control).toMatchObject({ fitted: true, coefficient: 0, points: 0 });
    for (const a of raw) expect(r.scores.get(a.id)).toBe(a.score);
  });

  it("holds the controlled scores to the scale", () => {
    const { ids, matches } = synthetic(12, 4, 8);
    const stretched = matches.map((m) => ({ ...m, scoreA: m.scoreA === 4 ? 10 : 0, scoreB: m.scoreB === 4 ? 10 : 0 }));
    const r = lengthControlledScores(answers(ids, stretched), stretched, 10);
    for (const s of r.scores.values()) {
      expect(s!).toBeGreaterThanOrEqual(0);
      expect(s!).toBeLessThanOrEqual(10);
    }
  });
});
