import { describe, expect, it } from "vitest";
import {
  fitLengthModel,
  type LengthMatch,
  lengthControlledScores,
  lengthTerm,
  MIN_DECIDED_MATCHES,
  medianLength,
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
  const median = medianLength([...length.values()]);
  const term = new Map(ids.map((id) => [id, lengthTerm(length.get(id)!, median)]));
  const matches: LengthMatch[] = [];
  for (let r = 0; r < repeats; r++)
    for (let i = 0; i < count; i++)
      for (let j = i + 1; j < count; j++) {
        const [a, b] = [ids[i], ids[j]];
        const p = 1 / (1 + Math.exp(-(theta.get(a)! - theta.get(b)! + beta * (term.get(a)! - term.get(b)!))));
        const aWins = rng.next() < p;
        matches.push({ a, b, scoreA: aWins ? 4 : 3, scoreB: aWins ? 3 : 4 });
      }
  return { ids, theta, length, term, matches };
}

describe("lengthTerm and medianLength", () => {
  it("is 0 at the median, as far up for twice as long as down for half, and bounded", () => {
    expect(lengthTerm(100, 100)).toBe(0);
    expect(lengthTerm(200, 100)).toBeCloseTo(Math.tanh(Math.log(2)), 12);
    expect(lengthTerm(50, 100)).toBeCloseTo(-lengthTerm(200, 100), 12);
    expect(lengthTerm(1e9, 1)).toBeLessThanOrEqual(1);
    expect(lengthTerm(0, 0)).toBe(0);
  });

  it("takes the middle length, or the mean of the middle two", () => {
    expect(medianLength([30, 10, 20])).toBe(20);
    expect(medianLength([40, 10, 30, 20])).toBe(25);
    expect(medianLength([])).toBe(0);
  });
});

describe("fitLengthModel", () => {
  it("recovers a planted length coefficient", () => {
    for (const seed of [1, 2, 3]) {
      const { term, matches } = synthetic(60, 2, seed);
      const { beta, decided } = fitLengthModel(term, matches);
      expect(decided).toBe(matches.length);
      expect(beta).toBeGreaterThan(1.2);
      expect(beta).toBeLessThan(2.8);
    }
  });

  it("finds about no length effect where there is none", () => {
    for (const seed of [1, 2, 3]) {
      const { term, matches } = synthetic(60, 0, seed);
      expect(Math.abs(fitLengthModel(term, matches).beta)).toBeLessThan(0.6);
    }
  });

  it("is exactly 0 when every answer is as long as the others, and deterministic", () => {
    const { ids, term, matches } = synthetic(10, 0, 4);
    const same = new Map(ids.map((id) => [id, 0]));
    expect(fitLengthModel(same, matches).beta).toBe(0);
    expect(fitLengthModel(term, matches)).toEqual(fitLengthModel(term, matches));
  });
});

describe("lengthControlledScores", () => {
  const answers = (ids: string[], matches: LengthMatch[], length: Map<string, number>) =>
    ids.map((id) => {
      const own = matches.flatMap((m) => (m.a === id ? [m.scoreA] : m.b === id ? [m.scoreB] : []));
      return { id, score: own.length ? own.reduce((s, x) => s + x, 0) / own.length : null, length: length.get(id)! };
    });

  it(`needs ${MIN_DECIDED_MATCHES} decided matches, and returns the raw scores without them`, () => {
    const { ids, matches, length } = synthetic(4, 2, 5); // 6 matches
    const raw = answers(ids, matches, length);
    const r = lengthControlledScores(raw, matches, 10);
    expect(r.control).toEqual({ coefficient: 0, points: 0, fitted: false, reason: "6 decided matches; the fit needs at least 8" });
    expect([...r.scores]).toEqual(raw.map((a) => [a.id, a.score]));
    // draws are not decided
    const six = synthetic(6, 2, 5);
    const drawn = six.matches.map((m) => ({ ...m, scoreA: 3, scoreB: 3 }));
    expect(lengthControlledScores(answers(six.ids, drawn, six.length), drawn, 10).control.fitted).toBe(false);
  });

  it("takes the length preference out: the longer answers lose what their length won them", () => {
    const { ids, matches, length } = synthetic(24, 3, 6);
    const raw = answers(ids, matches, length);
    const r = lengthControlledScores(raw, matches, 10);
    expect(r.control.fitted).toBe(true);
    expect(r.control.coefficient).toBeGreaterThan(1.5);
    expect(r.control.points).toBeGreaterThan(0);
    const longest = [...ids].sort((x, y) => length.get(y)! - length.get(x)!)[0];
    const shortest = [...ids].sort((x, y) => length.get(x)! - length.get(y)!)[0];
    const scoreOf = (id: string) => raw.find((a) => a.id === id)!.score!;
    expect(r.scores.get(longest)!).toBeLessThan(scoreOf(longest));
    expect(r.scores.get(shortest)!).toBeGreaterThan(scoreOf(shortest));
  });

  it("takes the whole term off each answer's score, whoever it met: re-derived by hand", () => {
    const { ids, matches, length } = synthetic(16, 2, 9);
    const raw = answers(ids, matches, length);
    const r = lengthControlledScores(raw, matches, 10);
    const median = medianLength(raw.map((a) => a.length));
    expect(r.control.medianLength).toBe(median);
    // points: β times the slope of the match score differences on the fitted log-odds, through zero
    const term = new Map(raw.map((a) => [a.id, lengthTerm(a.length, median)]));
    const { theta, beta } = fitLengthModel(term, matches);
    let sxy = 0;
    let sxx = 0;
    for (const m of matches) {
      const e = theta.get(m.a)! - theta.get(m.b)! + beta * (term.get(m.a)! - term.get(m.b)!);
      sxy += (m.scoreA - m.scoreB) * e;
      sxx += e * e;
    }
    expect(r.control.coefficient).toBe(beta);
    expect(r.control.points).toBeCloseTo((sxy / sxx) * beta, 12);
    for (const a of raw) expect(r.scores.get(a.id)!).toBeCloseTo(a.score! - r.control.points * term.get(a.id)!, 12);
    // an answer as long as the median keeps its score
    const atMedian = { id: "median", score: 3.5, length: median };
    expect(lengthControlledScores([...raw, atMedian], matches, 10).scores.get("median")).toBe(3.5);
  });

  it("moves nothing where lengths are equal, and keeps an unplayed answer's null", () => {
    const { ids, matches } = synthetic(8, 0, 7);
    const same = new Map(ids.map((id) => [id, 120]));
    const raw = [...answers(ids, matches, same), { id: "late", score: null, length: 120 }];
    const r = lengthControlledScores(raw, matches, 10);
    expect(r.control).toMatchObject({ fitted: true, coefficient: 0, points: 0 });
    for (const a of raw) expect(r.scores.get(a.id)).toBe(a.score);
  });

  it("holds the controlled scores to the scale", () => {
    const { ids, matches, length } = synthetic(12, 4, 8);
    const stretched = matches.map((m) => ({ ...m, scoreA: m.scoreA === 4 ? 10 : 0, scoreB: m.scoreB === 4 ? 10 : 0 }));
    const r = lengthControlledScores(answers(ids, stretched, length), stretched, 10);
    for (const s of r.scores.values()) {
      expect(s!).toBeGreaterThanOrEqual(0);
      expect(s!).toBeLessThanOrEqual(10);
    }
  });
});
