import { describe, expect, it } from "vitest";
import { judgeDiagnostics } from "../../../src/core/diagnostics";
// @ts-expect-error plain JS module of the web front
import { diagnosticRows, percent } from "../../../public/js/judge-diagnostics.js";

describe("the grade page's judge diagnostics", () => {
  it("prints each figure with its count, interval and anchor; a figure with nothing to count is a dash", () => {
    const d = judgeDiagnostics([
      {
        a: "a",
        b: "b",
        scoreA: 4,
        scoreB: 3,
        calls: [
          { order: ["a", "b"], scores: [5, 3] },
          { order: ["b", "a"], scores: [4, 3] },
        ],
        lengthA: 300,
        lengthB: 100,
      },
    ]);
    const rows: string[][] = diagnosticRows(d);
    expect(rows.map((r) => r[0])).toEqual([
      "The answer shown first wins",
      "The two orders pick different winners",
      "The longer answer wins (1.1× the characters or more)",
      "Calls asked again (reply unreadable)",
      "Matches tied on the written scores",
    ]);
    expect(rows[0][1]).toBe("100.0% (2 of 2)");
    expect(rows[0][2]).toMatch(/^\d+\.\d%–100\.0%$/);
    expect(rows[0][3]).toBe("52.6% (FastChat (MT-bench, GPT-4 judge))");
    expect(rows[1][1]).toBe("100.0% (1 of 1)");
    expect(rows[2][1]).toBe("100.0% (1 of 1)");
    expect(rows[3][3]).toBe("");
    const none = diagnosticRows(judgeDiagnostics([]));
    for (const r of none as string[][]) expect(r.slice(1, 3)).toEqual(["–", "–"]);
    expect(percent(0.5264)).toBe("52.6%");
    expect(percent(null)).toBe("–");
  });
});
