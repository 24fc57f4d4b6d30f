import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { limits } from "../../../src/contract/index";
import { scoreStep } from "../../../src/judge/expected";
import { TEMPLATE_NAMES } from "../../../src/judge/templates";
import { agreement, level, levels, MAX_SCALE_LEVELS, quadraticWeightedKappa, type Scale } from "../../../src/metrics/agreement";
import { pooledAgreement } from "../../../src/teacher/pooled";

const exam = { maxScore: 10, step: 0.5 };

describe("agreement of the judge with the teacher", () => {
  it("matches values computed by hand", () => {
    const a = agreement(
      [
        { judge: 2, teacher: 2.5 },
        { judge: 4, teacher: 4 },
        { judge: 6.2, teacher: 6 },
      ],
      exam,
    )!;
    expect(a.n).toBe(3);
    // x = [2, 4, 6.2], y = [2.5, 4, 6]: sum dx dy = 7.36667, sum dx^2 = 8.82667, sum dy^2 = 6.16667
    expect(a.pearson).toBeCloseTo(7.366667 / Math.sqrt(8.826667 * 6.166667), 5);
    expect(a.spearman).toBe(1);
    expect(a.mae).toBeCloseTo(0.7 / 3, 12);
    // levels 4, 8, 12 against 5, 8, 12
    expect(a.exact).toBeCloseTo(2 / 3, 12);
    // observed sum w O = 1; expected sum w E = (81 + 25 + 65) / 3 = 57
    expect(a.qwk).toBeCloseTo(1 - 1 / 57, 12);
  });

  it("is null below two graded answers; undefined correlations are null, not NaN", () => {
    expect(agreement([], exam)).toBeNull();
    expect(agreement([{ judge: 3, teacher: 3 }], exam)).toBeNull();
    const flat = agreement(
      [
        { judge: 3, teacher: 3 },
        { judge: 3, teacher: 3 },
      ],
      exam,
    )!;
    expect(flat.pearson).toBeNull();
    expect(flat.spearman).toBeNull();
    expect(flat.qwk).toBeNull();
    expect(flat.exact).toBe(1);
    expect(flat.mae).toBe(0);
  });

  it("quadratic weighted kappa: 1 for perfect agreement, 0.8 for a small hand example, negative when reversed", () => {
    expect(quadraticWeightedKappa([0, 1, 2], [0, 1, 2])).toBe(1);
    // O: one miss by 1; E from marginals [1,1,1] x [1,0,2] / 3 weighs 5
    expect(quadraticWeightedKappa([0, 1, 2], [0, 2, 2])).toBeCloseTo(0.8, 12);
    expect(quadraticWeightedKappa([0, 1, 2], [2, 1, 0])!).toBeLessThan(0);
  });

  it("rounds scores to the scale's step, halves up, within the scale", () => {
    expect(level(4.24, exam)).toBe(8);
    expect(level(4.25, exam)).toBe(9);
    expect(level(10, exam)).toBe(20);
    expect(level(-1, exam)).toBe(0);
    expect(level(57.5, { maxScore: 100, step: 1 })).toBe(58);
  });
});

/** Kappa the textbook way, from the k x k tables: the reference the O(n) form must equal. */
function tableKappa(a: number[], b: number[], k: number): number | null {
  const n = a.length;
  const observed = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (let i = 0; i < n; i++) observed[a[i]][b[i]]++;
  const rows = observed.map((r) => r.reduce((s, x) => s + x, 0));
  const cols = observed[0].map((_, j) => observed.reduce((s, r) => s + r[j], 0));
  let wo = 0;
  let we = 0;
  for (let i = 0; i < k; i++)
    for (let j = 0; j < k; j++) {
      wo += (i - j) ** 2 * observed[i][j];
      we += ((i - j) ** 2 * rows[i] * cols[j]) / n;
    }
  return we === 0 ? null : 1 - wo / we;
}

// scales as a request can make them and as a bug could: tiny steps, huge maxScores, fractions of both
const anyScale: fc.Arbitrary<Scale> = fc.record({
  maxScore: fc.oneof(fc.double({ min: 1e-6, max: 1e15, noNaN: true }), fc.constantFrom(1, 5, 10, 100, limits.maxScore)),
  step: fc.oneof(fc.double({ min: 1e-12, max: 10, noNaN: true }), fc.constantFrom(1e-9, 0.5, 1)),
});
const pairsOn = (scale: Scale) =>
  fc.array(
    fc.record({
      judge: fc.double({ min: 0, max: scale.maxScore, noNaN: true }),
      teacher: fc.double({ min: 0, max: scale.maxScore, noNaN: true }),
    }),
    { minLength: 2, maxLength: 40 },
  );

describe("agreement on any scale: no work or memory by the scale's size, a kappa only on a scale of grades", () => {
  it("the finest scale the service accepts still has a kappa", () => {
    const finest = Math.min(...TEMPLATE_NAMES.map(scoreStep));
    expect(levels({ maxScore: limits.maxScore, step: finest })).toBe(MAX_SCALE_LEVELS);
  });

  it("a 1e-9 grid has no levels and no kappa, and answers at once (it built a 1e10-cell table)", () => {
    const continuum = { maxScore: 10, step: 1e-9 };
    expect(levels(continuum)).toBeNull();
    const a = agreement(
      [
        { judge: 2, teacher: 3 },
        { judge: 7, teacher: 6 },
      ],
      continuum,
    )!;
    expect(a.qwk).toBeNull();
    expect(a.pearson).toBe(1);
  });

  it("for every scale and step: levels bounded or null, a finite kappa only with levels", () => {
    fc.assert(
      fc.property(
        anyScale.chain((scale) => fc.tuple(fc.constant(scale), pairsOn(scale))),
        ([scale, pairs]) => {
          const k = levels(scale);
          if (k !== null) expect(k).toBeLessThanOrEqual(MAX_SCALE_LEVELS);
          const a = agreement(pairs, scale)!;
          if (k === null) expect(a.qwk).toBeNull();
          else if (a.qwk !== null) expect(Number.isFinite(a.qwk)).toBe(true);
          for (const p of pairs) expect(level(p.judge, scale)).toBeLessThanOrEqual(Math.round(scale.maxScore / scale.step));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("the O(n) kappa equals the one from the k x k tables", () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 25 })
          .chain((k) => fc.tuple(fc.constant(k), fc.array(fc.tuple(fc.nat(k - 1), fc.nat(k - 1)), { minLength: 1, maxLength: 60 }))),
        ([k, rated]) => {
          const [a, b] = [rated.map((r) => r[0]), rated.map((r) => r[1])];
          const reference = tableKappa(a, b, k);
          const kappa = quadraticWeightedKappa(a, b);
          if (reference === null) expect(kappa).toBeNull();
          else expect(kappa).toBeCloseTo(reference, 9);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("a batch's pool over mixed scales is in shares with no kappa; over one scale, in points with one", () => {
    const scaled = anyScale.chain((scale) => pairsOn(scale).map((pairs) => pairs.map((p) => ({ ...p, scale }))));
    fc.assert(
      fc.property(fc.array(scaled, { minLength: 1, maxLength: 4 }), (groups) => {
        const pairs = groups.flat();
        const pooled = pooledAgreement(pairs)!;
        const mixed = new Set(pairs.map((p) => `${p.scale.maxScore}/${p.scale.step}`)).size > 1;
        expect(pooled.n).toBe(pairs.length);
        expect(pooled.scale).toBe(mixed ? "share" : "points");
        if (mixed || levels(pairs[0].scale) === null) expect(pooled.qwk).toBeNull();
        expect(pooled.exact).toBeGreaterThanOrEqual(0);
        expect(pooled.exact).toBeLessThanOrEqual(1);
      }),
      { numRuns: 300 },
    );
  });

  it("mixed exam scales (5 and 10 points): shares, exact on each question's own steps, qwk null", () => {
    const five = { maxScore: 5, step: 0.5 };
    const ten = { maxScore: 10, step: 0.5 };
    const pooled = pooledAgreement([
      { judge: 2.5, teacher: 2.5, scale: five },
      { judge: 4, teacher: 5, scale: five },
      { judge: 8, teacher: 6, scale: ten },
    ])!;
    expect(pooled).toMatchObject({ n: 3, scale: "share", qwk: null });
    expect(pooled.exact).toBeCloseTo(1 / 3, 12);
    // shares: |0.5 - 0.5|, |0.8 - 1|, |0.8 - 0.6|
    expect(pooled.mae).toBeCloseTo(0.4 / 3, 12);
  });
});
