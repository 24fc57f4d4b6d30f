import { describe, expect, it } from "vitest";
import { judgeDiagnostics } from "../../../src/core/diagnostics";
// @ts-expect-error plain JS module of the web front
import { agreementRows, panelFigureRows } from "../../../public/js/panel-report.js";

// Issue 30 item 3: the grade page shows a panel's judges, each against the panel and its own biases.

/** One match of a and b in both orders, the first shown winning `firstWins` of the two calls. */
function diagnostics(firstWins: 1 | 2) {
  return judgeDiagnostics([
    {
      a: "a",
      b: "b",
      scoreA: 4,
      scoreB: 3,
      calls: [
        { order: ["a", "b"], scores: [5, 3] },
        { order: ["b", "a"], scores: firstWins === 2 ? [4, 3] : [2, 3] },
      ],
      lengthA: 300,
      lengthB: 100,
    },
  ]);
}

const panel = (mode: string) => ({
  mode,
  judges: [
    { model: "judge-a", matches: 4, answers: 6, pearson: 0.91234, meanAbsDiff: 0.456, absent: 0, judgeDiagnostics: diagnostics(2) },
    { model: "judge-b", matches: 3, answers: 2, pearson: null, meanAbsDiff: 1.5, absent: 5, judgeDiagnostics: diagnostics(1) },
  ],
});

describe("the grade page's panel of judges", () => {
  it("a judge a row: its matches, answers, Pearson to three decimals (a dash under three answers), its mean difference as a score", () => {
    const { head, rows } = agreementRows(panel("cycle"));
    expect(head).toEqual(["Judge", "Matches", "Answers", "Pearson vs panel", "Mean abs. difference"]);
    expect(rows).toEqual([
      ["judge-a", "4", "6", "0.912", "0.46"],
      ["judge-b", "3", "2", "–", "1.5"],
    ]);
  });

  it('"all" adds the calls each judge did not answer', () => {
    const { head, rows } = agreementRows(panel("all"));
    expect(head.at(-1)).toBe("Calls not answered");
    expect(rows.map((r: string[]) => r.at(-1))).toEqual(["0", "5"]);
  });

  it("each judge's own figures side by side, a figure a row, the published judges' anchor last", () => {
    const { head, rows } = panelFigureRows(panel("cycle"));
    expect(head).toEqual(["Figure", "judge-a", "judge-b", "Published judges"]);
    expect(rows[0]).toEqual([
      "The answer shown first wins",
      "100.0% (2 of 2)",
      "50.0% (1 of 2)",
      "52.6% (FastChat (MT-bench, GPT-4 judge))",
    ]);
    expect(rows.map((r: string[]) => r[0])).toEqual([
      "The answer shown first wins",
      "The two orders pick different winners",
      "The longer answer wins (1.1× the characters or more)",
      "Calls asked again (reply unreadable)",
      "Matches tied on the written scores",
    ]);
    // judge-a's two orders picked different winners; judge-b's agreed
    expect(rows[1].slice(1, 3)).toEqual(["100.0% (1 of 1)", "0.0% (0 of 1)"]);
  });
});
