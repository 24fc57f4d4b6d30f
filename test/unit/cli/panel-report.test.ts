import { describe, expect, it } from "vitest";
import type { DatasetQuestion } from "../../../src/cli/dataset";
import { formatPanel, pooledPanel } from "../../../src/cli/panel-report";

// Issue 30 item 3: the CLI report shows a panel's judges, pooled over the run's questions.

function question(id: string): DatasetQuestion {
  return {
    questionId: id,
    question: "Q",
    maxScore: 5,
    minScore: 0,
    translation: false,
    ignored: false,
    // every question's answers are "a" and "b": the report must keep them apart by question
    answers: [
      { id: "a", text: "a long answer", humanScore: 1 },
      { id: "b", text: "short", humanScore: 1 },
    ],
  };
}

/** A completed "cycle" result: one match of a and b, both orders asked of `judge`; the panel's scores are that judge's. */
function cycleResult(judge: string, calls: [[number, number], [number, number]]) {
  const scoreA = (calls[0][0] + calls[1][1]) / 2;
  const scoreB = (calls[0][1] + calls[1][0]) / 2;
  return {
    result: {
      status: "completed",
      method: "knockout",
      usage: { judgeCalls: 2, promptTokens: 0, completionTokens: 0, retries: 0, parseFailures: 0 },
      answers: [
        { id: "a", score: scoreA, eliminatedInRound: null },
        { id: "b", score: scoreB, eliminatedInRound: null },
      ],
      matches: [
        {
          round: 1,
          a: "a",
          b: "b",
          scoreA,
          scoreB,
          winner: scoreA > scoreB ? "a" : "b",
          calls: [
            { order: ["a", "b"], scores: calls[0], expected: null, judge, endpoint: null, raw: "" },
            { order: ["b", "a"], scores: calls[1], expected: null, judge, endpoint: null, raw: "" },
          ],
        },
      ],
      panel: { mode: "cycle", judges: [{ model: "judge-a" }, { model: "judge-b" }] },
    },
  };
}

describe("the CLI's panel report", () => {
  const qs = [question("q1"), question("q2"), question("q3"), question("q4")];
  // three questions of one debiased match each, in "cycle": two asked of judge-a, one of judge-b
  const played = [
    cycleResult("judge-a", [
      [5, 2],
      [2, 3],
    ]),
    cycleResult("judge-a", [
      [2, 3],
      [3, 0],
    ]),
    cycleResult("judge-b", [
      [4, 1],
      [1, 2],
    ]),
  ];

  it("pools each judge's matches over the run, telling the questions' answers apart, and leaves out what did not complete", () => {
    const p = pooledPanel(qs, [...played, { result: null }])!;
    expect(p.mode).toBe("cycle");
    expect(p.questions).toBe(3);
    const [a, b] = p.judges;
    // judge-a scored four answers (a and b of q1 and q2), exactly as the panel did: its scores are the panel's
    expect(a).toMatchObject({ model: "judge-a", matches: 2, answers: 4, pearson: 1, meanAbsDiff: 0 });
    expect(b).toMatchObject({ model: "judge-b", matches: 1, answers: 2, pearson: null, meanAbsDiff: 0 });
    // its own calls only: judge-a's first shown won 2 of 4 (q1's first order, q2's second), judge-b's 1 of 2
    expect(a.judgeDiagnostics.firstPositionWins).toMatchObject({ count: 2, of: 4 });
    expect(b.judgeDiagnostics.firstPositionWins).toMatchObject({ count: 1, of: 2 });
    expect(a.judgeDiagnostics.ordersDisagree).toMatchObject({ count: 0, of: 2 });
    // the longer answer ("a long answer") won q1 and lost q2
    expect(a.judgeDiagnostics.longerWins).toMatchObject({ count: 1, of: 2 });
    expect(a.absent).toBeUndefined();
  });

  it("is null when no result has a panel", () => {
    const plain = cycleResult("judge-a", [
      [5, 2],
      [2, 3],
    ]);
    const { panel: _, ...withoutPanel } = plain.result;
    expect(pooledPanel(qs.slice(0, 1), [{ result: withoutPanel }])).toBeNull();
    expect(pooledPanel(qs.slice(0, 1), [{ result: null }])).toBeNull();
  });

  it('"all": each judge from its own votes, and the calls it gave no answer to', () => {
    const votes = (b: [number, number] | null, a: [number, number]) => [
      { judge: "judge-a", scores: a },
      b ? { judge: "judge-b", scores: b } : { judge: "judge-b", absent: "down" },
    ];
    const r = cycleResult("x", [
      [4, 2],
      [2, 4],
    ]).result;
    const match = r.matches[0];
    const all = {
      ...r,
      panel: { mode: "all", judges: [{ model: "judge-a" }, { model: "judge-b" }] },
      matches: [
        {
          ...match,
          calls: [
            { ...match.calls[0], judge: undefined, votes: votes([3, 2], [5, 2]) },
            { ...match.calls[1], judge: undefined, votes: votes(null, [2, 4]) },
          ],
        },
      ],
    };
    const p = pooledPanel(qs.slice(0, 1), [{ result: all }])!;
    expect(p.mode).toBe("all");
    // judge-b answered one order only: no debiased pair of its own, so no position figure, and one call
    expect(
      p.judges.map((j) => [j.model, j.matches, j.absent, j.judgeDiagnostics.firstPositionWins.of, j.judgeDiagnostics.parseRetried.of]),
    ).toEqual([
      ["judge-a", 1, 0, 2, 2],
      ["judge-b", 1, 1, 0, 1],
    ]);
  });

  it("prints a line a judge, then each judge's own diagnostics under its name", () => {
    const p = pooledPanel(qs, played)!;
    const lines = formatPanel(p).split("\n");
    expect(lines.slice(0, 4)).toEqual([
      'Panel of judges ("cycle": each match to the next judge in turn), pooled over 3 questions',
      "  judge    matches  answers  Pearson vs panel  mean abs diff",
      "  judge-a        2        4             1.000          0.000",
      "  judge-b        1        2                 –          0.000",
    ]);
    const a = lines.indexOf("Judge diagnostics of judge-a (the matches it judged)");
    const b = lines.indexOf("Judge diagnostics of judge-b (the matches it judged)");
    expect(a).toBeGreaterThan(3);
    expect(b).toBeGreaterThan(a);
    expect(lines[a + 1]).toMatch(/^ {2}first position wins +50\.0% \(2 of 4\), 95% .+\[FastChat's judge: 52\.6%\]$/);
    expect(lines[b + 1]).toMatch(/^ {2}first position wins +50\.0% \(1 of 2\)/);
    expect(formatPanel({ ...p, mode: "all", judges: p.judges.map((j) => ({ ...j, absent: 3 })) })).toContain(
      "  judge    matches  answers  Pearson vs panel  mean abs diff  absent calls\n  judge-a        2        4             1.000          0.000             3",
    );
  });
});
