import { describe, expect, it } from "vitest";
import { kendallTauB, pearson, spearman } from "../../../src/metrics/correlation";
import { averageRanks, rankCodes, selectCodes } from "../../../src/metrics/ranks";
import { concatRows, correlationsOfRows, pearsonOfRows, scoreTable } from "../../../src/metrics/score-table";

// The bootstrap measures resamples through rank codes of the full data set; these tests check
// that this shortcut gives exactly what computing from the selected scores directly gives.

describe("rankCodes", () => {
  it("codes distinct values densely in order", () => {
    // [hand] distinct values -3 < 0.5 < 2 < 7
    expect(rankCodes([2, -3, 7, 2, 0.5])).toEqual({ codes: Int32Array.of(2, 0, 3, 2, 1), levels: 4 });
  });

  it("treats -0 and 0 as one value", () => {
    expect(rankCodes([0, -0, 1])).toEqual({ codes: Int32Array.of(0, 0, 1), levels: 2 });
    expect([...averageRanks([0, -0, 1])]).toEqual([1.5, 1.5, 3]);
  });

  it("keeps the levels of the full data when a subset is selected", () => {
    const selected = selectCodes(rankCodes([5, 1, 9, 1]), [2, 2, 0]);
    expect(selected).toEqual({ codes: Int32Array.of(2, 2, 1), levels: 3 });
  });
});

describe("score table", () => {
  const items = [3.5, 5, 4, 5, 2.5, 4, 5, 3, 4.5, 5, 1, 4].map((humanScore, i) => ({
    questionId: `q${i % 3}`,
    answerId: String(i),
    humanScore,
    judgeScore: [6, 9, 7, 8, 5, 7, 9, 8, 6, 10, 2, 7][i],
  }));
  const table = scoreTable(items);

  it("gives the direct coefficients for a resample with repeats and gaps", () => {
    const rows = concatRows([Int32Array.of(4, 4, 0), Int32Array.of(9, 1, 10), Int32Array.of(7, 4, 11, 2)]);
    const judge = [...rows].map((r) => items[r].judgeScore);
    const human = [...rows].map((r) => items[r].humanScore);
    const viaTable = correlationsOfRows(table, rows);
    expect(viaTable.pearson).toBe(pearson(judge, human));
    expect(viaTable.spearman).toBeCloseTo(spearman(judge, human)!, 14);
    expect(viaTable.kendallTauB).toBeCloseTo(kendallTauB(judge, human)!, 14);
    expect(pearsonOfRows(table, rows)).toBe(viaTable.pearson);
  });

  it("is null where the direct coefficients are", () => {
    // Rows 1 and 3 both have human 5: constant human side.
    expect(correlationsOfRows(table, Int32Array.of(1, 3))).toEqual({ pearson: null, spearman: null, kendallTauB: null });
    expect(correlationsOfRows(table, new Int32Array(0))).toEqual({ pearson: null, spearman: null, kendallTauB: null });
  });
});
